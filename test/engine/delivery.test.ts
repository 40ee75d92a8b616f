import { test } from "node:test";
import assert from "node:assert/strict";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import {
  ask,
  captureBuilder,
  done,
  expectFinding,
  expectNone,
  findingsOf,
  form,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
} from "../helpers/capture.ts";

// rules.md §3.2 Delivery and association.

const H = modernHeaders("tools/call", "deploy");
const nameForm = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } };
const starsForm = { message: "Rate us", requestedSchema: { type: "object", properties: { stars: { type: "integer" } } } };

test("del-r3-no-server-requests: a 2026-07-28 server sends elicitation/create as a JSON-RPC request on the POST stream (catalogue example)", () => {
  const b = captureBuilder();
  const x = b.post(toolCall(1), H);
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, request("srv-1", "elicitation/create", nameForm));
  const r = b.analyze();
  const f = expectFinding(r, "del-r3-no-server-requests", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.record, 2);
  assert.equal(r.flows.length, 1);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("del-r3-no-server-requests: clean when the same question travels as an InputRequiredResult", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, irr({ n: ask(nameForm) })), H);
  expectNone(b.analyze(), "del-r3-no-server-requests");
});

test("del-r3-no-client-responses: a 2026-07-28 client POSTs an ElicitResult as a JSON-RPC response (catalogue example)", () => {
  const b = captureBuilder();
  const x = b.post(toolCall(1), H);
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, request("srv-1", "elicitation/create", nameForm));
  b.accepted(result("srv-1", { action: "accept", content: { n: "Ada" } }), { "mcp-protocol-version": "2026-07-28" });
  const r = b.analyze();
  const f = expectFinding(r, "del-r3-no-client-responses", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "");
  assert.equal(f.record, 3);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("del-r3-no-client-responses: clean when the answer travels in inputResponses of a retry", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, irr({ n: ask(nameForm) })), H);
  b.call(toolCall(2, "deploy", {}, { inputResponses: { n: { action: "accept", content: { n: "Ada" } } } }), result(2, done()), H);
  const r = b.analyze();
  expectNone(r, "del-r3-no-client-responses");
  expectNone(r, "del-r3-no-server-requests");
});

test("del-r12-related-request: elicitation/create on the POST stream after that POST's response (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(9), h);
  b.sse(x, result(9, { content: [{ type: "text", text: "done" }] }));
  b.sse(x, request(14, "elicitation/create", starsForm));
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-related-request", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/method");
  const flow = r.flows.find((fl) => fl.elicitations.some((e) => e.key === "14"))!;
  assert.equal(f.flow, flow.id);
  const strict = expectFinding(b.analyze({ strict2260: true }), "del-r12-related-request");
  assert.equal(strict.severity, "error");
});

test("del-r12-related-request: elicitation/create on the stream of tools/list (no user input needed)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, request(2, "tools/list", {}), h);
  b.sse(x, request(3, "elicitation/create", form()));
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-related-request", { severity: "warning" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows[0]!.method, "tools/list");
});

test("del-r12-related-request: on stdio, elicitation/create while no client request is outstanding", () => {
  let seq = 0;
  const line = (direction: "c2s" | "s2c", m: unknown): CaptureRecord => ({ v: 1, seq, time: 1_000 + 10 * seq++, transport: "stdio", url: "node server.js", kind: "message", direction, stream: "stdio", text: JSON.stringify(m) });
  const records = [
    line("c2s", request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } })),
    line("s2c", result(0, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } })),
    line("c2s", { jsonrpc: "2.0", method: "notifications/initialized" }),
    line("c2s", legacyToolCall(1)),
    line("s2c", request(0, "elicitation/create", form())),
    line("c2s", result(0, { action: "accept", content: { ok: true } })),
    line("s2c", result(1, done(true))),
    line("s2c", request(1, "elicitation/create", starsForm)),
  ];
  const r = analyze(records);
  assert.deepEqual(r.flows.map((f) => [f.method, f.status]), [
    ["tools/call", "complete"],
    ["(none)", "pending"],
  ]);
  const f = expectFinding(r, "del-r12-related-request", { severity: "warning", record: 7 });
  assert.equal(f.pointer, "/method");
  assert.equal(f.flow, r.flows[1]!.id);
  assert.equal(findingsOf(r, "del-r12-related-request").length, 1);
});

test("del-r12-related-request: clean for an elicitation before the tools/call response", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(9), h);
  b.sse(x, request(14, "elicitation/create", starsForm));
  b.accepted(result(14, { action: "accept", content: { stars: 5 } }), h);
  b.sse(x, result(9, done(true)));
  b.end(x);
  expectNone(b.analyze(), "del-r12-related-request");
});

test("del-r12-standalone-stream: elicitation/create on the GET stream is info, error under strict SEP-2260", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const g = b.get(h);
  b.sse(g, request(1, "elicitation/create", { mode: "url", elicitationId: "e9", url: "https://mcp.example.com/connect", message: "Connect GitHub" }), "get-sse", h);
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-standalone-stream", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.flow, r.flows[0]!.id);
  expectFinding(b.analyze({ strict2260: true }), "del-r12-standalone-stream", { severity: "error", pointer: "/method" });
});

test("del-r12-standalone-stream: clean on the POST stream", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(1, "elicitation/create", form()));
  expectNone(b.analyze({ strict2260: true }), "del-r12-standalone-stream");
});

test("del-r12-single-stream: the same elicitation/create broadcast on a POST stream and the GET stream", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const g = b.get(h);
  const x = streamCall(b, legacyToolCall(1), h);
  const e = request(4, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } });
  b.sse(x, e);
  b.sse(g, e, "get-sse", h);
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-single-stream", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows.length, 1);
  assert.equal(r.flows[0]!.elicitations.length, 1);
});

test("del-r12-single-stream: clean for a replay on a stream resumed with Last-Event-ID", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  const e = request(4, "elicitation/create", form());
  b.sse(x, e, "post-sse");
  b.end(x, "network");
  // transports.mdx § "Resumability and Redelivery": the client resumes with GET + Last-Event-ID; the server replays.
  const resumed = { ...h, "last-event-id": "ev-1" };
  const g = b.get(resumed);
  b.sse(g, e, "get-sse", resumed);
  const r = b.analyze();
  expectNone(r, "del-r12-single-stream");
  expectNone(r, "del-r12-request-id-unique");
});

test("del-r12-request-id-unique: an elicitation/create id reused in the session (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(3, "elicitation/create", { message: "A?", requestedSchema: { type: "object", properties: { a: { type: "string" } } } }));
  b.accepted(result(3, { action: "accept", content: { a: "x" } }), h);
  b.sse(x, request(3, "elicitation/create", { message: "B?", requestedSchema: { type: "object", properties: { b: { type: "string" } } } }));
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-request-id-unique", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("del-r12-request-id-unique: a null id", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(null, "elicitation/create", form()));
  const r = b.analyze();
  expectFinding(r, "del-r12-request-id-unique", { pointer: "/id", flow: r.flows[0]!.id });
});

test("del-r12-request-id-unique: clean for ids 3 and 4", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(3, "elicitation/create", form()));
  b.accepted(result(3, { action: "accept", content: { ok: true } }), h);
  b.sse(x, request(4, "elicitation/create", form({ n: { type: "string" } })));
  expectNone(b.analyze(), "del-r12-request-id-unique");
});

/** A session with elicitation id 7 outstanding on the stream of tools/call 1. */
function outstanding7() {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", form()));
  return { b, h, x };
}

test("del-r12-response-correlation: the response id matches no outstanding elicitation (catalogue example)", () => {
  const { b, h } = outstanding7();
  b.accepted(result(8, { action: "cancel" }), h);
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-response-correlation", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.flow, null);
});

test("del-r12-response-correlation: the same elicitation answered twice", () => {
  const { b, h } = outstanding7();
  b.accepted(result(7, { action: "accept", content: { ok: true } }), h);
  b.accepted(result(7, { action: "cancel" }), h);
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-response-correlation", { severity: "error" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows[0]!.elicitations[0]!.action, "accept");
});

test("del-r12-response-correlation: a second answer is charged to the flow of the elicitation it repeats, also when the first came in a batch", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const first = streamCall(b, legacyToolCall(1), h);
  b.sse(first, request(7, "elicitation/create", form()));
  const second = streamCall(b, legacyToolCall(2), h);
  b.sse(second, request(8, "elicitation/create", form()));
  // One POST answers both (a JSON-RPC batch: one record, two flows), then elicitation 7 is answered again.
  b.accepted([result(7, { action: "accept", content: { ok: true } }), result(8, { action: "decline" })], h);
  b.accepted(result(7, { action: "cancel" }), h);
  // The server delivers elicitation 8 again on the first call's stream: charged to the flow that asked it.
  b.sse(first, request(8, "elicitation/create", form()));
  const r = b.analyze();
  const flowOf = (call: number) => r.flows.find((f) => f.rounds[0]?.requestId === call)?.id;
  assert.ok(flowOf(1) && flowOf(2) && flowOf(1) !== flowOf(2));
  assert.equal(expectFinding(r, "del-r12-response-correlation", { pointer: "/id" }).flow, flowOf(1));
  assert.equal(expectFinding(r, "del-r12-single-stream", { pointer: "/id" }).flow, flowOf(2));
});

test("del-r12-response-correlation: a response with both result and error, and one with neither", () => {
  const { b, h } = outstanding7();
  b.accepted({ jsonrpc: "2.0", id: 7, result: { action: "accept", content: { ok: true } }, error: { code: -32603, message: "x" } }, h);
  b.accepted({ jsonrpc: "2.0", id: 7 }, h);
  const r = b.analyze();
  const both = findingsOf(r, "del-r12-response-correlation");
  assert.equal(both.length, 2);
  for (const f of both) {
    assert.equal(f.pointer, "");
    assert.equal(f.flow, r.flows[0]!.id);
    assert.equal(f.violator, "client");
  }
  assert.equal(r.problems.length, 0);
});

test("del-r12-response-correlation: clean for one answer to the outstanding id", () => {
  const { b, h, x } = outstanding7();
  b.accepted(result(7, { action: "accept", content: { ok: true } }), h);
  b.sse(x, result(1, done(true)));
  b.end(x);
  expectNone(b.analyze(), "del-r12-response-correlation");
});

test("del-r12-response-202: the POSTed ElicitResult is answered 200 with a body", () => {
  const { b, h } = outstanding7();
  const y = b.post(result(7, { action: "decline" }), h);
  b.status(y, 200, { "content-type": "application/json" }, false);
  b.end(y);
  const r = b.analyze();
  const f = expectFinding(r, "del-r12-response-202", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "");
  assert.equal(f.record, r.flows[0]!.elicitations[0]!.answerRecord);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("del-r12-response-202: clean for 202 Accepted with no body", () => {
  const { b, h } = outstanding7();
  b.accepted(result(7, { action: "decline" }), h);
  expectNone(b.analyze(), "del-r12-response-202");
});

test("del-r12-response-correlation: not raised for an answer whose question may have been on a GET stream whose body a HAR lost", () => {
  const lost = (asHar: boolean) => {
    const b = captureBuilder();
    const h = legacySession(b);
    const get = b.get(h);
    b.end(get, "abort");
    b.accepted(result(3, { action: "accept", content: { ok: true } }), h);
    // HAR imports name the entry of every record; a live capture's GET stream that ended without events carried none.
    if (asHar) b.records.forEach((r, i) => (r.entry = i));
    return b.analyze();
  };
  expectNone(lost(true), "del-r12-response-correlation");
  expectFinding(lost(false), "del-r12-response-correlation", { severity: "error" });
});
