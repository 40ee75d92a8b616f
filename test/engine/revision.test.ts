import { test } from "node:test";
import assert from "node:assert/strict";
import type { Finding } from "../../src/engine/index.ts";
import type { RuleId } from "../../src/engine/ruleKit/types.ts";
import {
  PV,
  ask,
  captureBuilder,
  done,
  error,
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

// rules.md §1.4: rev-meta-required, rev-header-meta-mismatch, rev-header-missing, rev-feature-not-in-revision.

const H = modernHeaders("tools/call", "deploy");
const serverSide = (r: { findings: Finding[] }, rule: RuleId) => findingsOf(r, rule).filter((f) => f.violator === "server");

test("rev-meta-required: a 2026-07-28 request without _meta is the client's error; answering it normally is the server's", () => {
  // Catalogue example: header says 2026-07-28, no _meta, answered with an InputRequiredResult.
  const b = captureBuilder();
  const body = request(4, "tools/call", { name: "deploy", arguments: {} });
  b.call(body, result(4, irr({ q: ask(form({ ok: { type: "boolean" } }, "Confirm the deployment?")) })), H);
  const r = b.analyze();
  const flow = r.flows[0]!;
  assert.equal(flow.kind, "mrtr");
  const client = expectFinding(r, "rev-meta-required", { violator: "client" });
  assert.equal(client.severity, "error");
  assert.equal(client.pointer, "/params");
  assert.equal(client.record, 0);
  const server = expectFinding(r, "rev-meta-required", { violator: "server" });
  assert.equal(server.severity, "error");
  assert.equal(server.pointer, "/result");
  assert.equal(server.record, 2);
  assert.equal(server.flow, flow.id);
});

test("rev-meta-required: _meta present but without clientCapabilities points at _meta", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/call", { name: "deploy", arguments: {}, _meta: { [PV]: "2026-07-28" } }), error(1, -32602, "Missing clientCapabilities"), H, 400);
  const r = b.analyze();
  const f = expectFinding(r, "rev-meta-required", { violator: "client" });
  assert.equal(f.pointer, "/params/_meta");
  // Rejected with -32602 and HTTP 400: the server did its part.
  assert.deepEqual(serverSide(r, "rev-meta-required"), []);
});

test("rev-meta-required: the server rejecting with a different code or status is a server violation too", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/call", { name: "deploy", arguments: {} }), error(1, -32603, "Internal error"), H, 500);
  const r = b.analyze();
  expectFinding(r, "rev-meta-required", { violator: "client" });
  const s = expectFinding(r, "rev-meta-required", { violator: "server", severity: "error" });
  assert.equal(s.pointer, "/error/code");
});

test("rev-meta-required: clean when _meta carries both fields", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, done()), H);
  expectNone(b.analyze(), "rev-meta-required");
});

test("rev-header-meta-mismatch: MCP-Protocol-Version header differs from _meta protocolVersion", () => {
  // Catalogue example: header 2025-11-25, _meta 2026-07-28.
  const b = captureBuilder();
  b.call(toolCall(1, "x", {}, {}, { elicitation: {} }), error(1, -32020, "Header mismatch"), { ...modernHeaders("tools/call", "x"), "mcp-protocol-version": "2025-11-25" }, 400);
  const r = b.analyze();
  const f = expectFinding(r, "rev-header-meta-mismatch", { violator: "client", flow: null });
  assert.equal(f.severity, "error");
  assert.equal(f.pointer, `/params/_meta/${PV.replace("/", "~1")}`);
  assert.equal(f.record, 0);
  assert.deepEqual(serverSide(r, "rev-header-meta-mismatch"), []);
});

test("rev-header-meta-mismatch: the server answering normally instead of 400/-32020 is a server violation", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "x"), result(1, done()), { ...modernHeaders("tools/call", "x"), "mcp-protocol-version": "2025-11-25" });
  const r = b.analyze();
  expectFinding(r, "rev-header-meta-mismatch", { violator: "client" });
  const s = expectFinding(r, "rev-header-meta-mismatch", { violator: "server" });
  assert.equal(s.pointer, "/result");
});

test("rev-header-meta-mismatch: clean when the header equals _meta", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "x"), result(1, done()), modernHeaders("tools/call", "x"));
  expectNone(b.analyze(), "rev-header-meta-mismatch");
});

test("rev-header-missing: 2026-07-28 POST without MCP-Protocol-Version", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, done()), { "mcp-method": "tools/call", "mcp-name": "deploy" });
  const r = b.analyze();
  const f = expectFinding(r, "rev-header-missing", { violator: "client", severity: "error", flow: null });
  assert.equal(f.pointer, "");
  assert.equal(f.record, 0);
});

test("rev-header-missing: clean for a 2026-07-28 POST with the header", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, done()), H);
  expectNone(b.analyze(), "rev-header-missing");
});

test("rev-header-missing: 2025-11-25 POST of an elicitation response after initialize without the header (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form()));
  const answerSeq = b.records.length;
  b.accepted(result(0, { action: "accept", content: { ok: true } }), { "mcp-session-id": "s1" });
  b.sse(x, result(1, done(true)));
  b.end(x);
  const r = b.analyze();
  assert.equal(r.flows[0]!.elicitations[0]!.answerRecord, answerSeq);
  const f = expectFinding(r, "rev-header-missing", { record: answerSeq, violator: "client", severity: "error" });
  assert.equal(f.pointer, "");
  assert.equal(findingsOf(r, "rev-header-missing").length, 1);
});

test("rev-header-missing: 2025-06-18 request after initialize without the header", () => {
  const b = captureBuilder();
  legacySession(b, "2025-06-18", { elicitation: {} });
  b.call(legacyToolCall(1), result(1, done(true)), { "mcp-session-id": "s1" });
  const r = b.analyze();
  const f = expectFinding(r, "rev-header-missing", { violator: "client" });
  assert.equal(f.pointer, "");
});

test("rev-header-missing: clean for the initialize request itself and for later requests with the header", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form()));
  b.accepted(result(0, { action: "accept", content: { ok: true } }), h);
  b.sse(x, result(1, done(true)));
  b.end(x);
  expectNone(b.analyze(), "rev-header-missing");
});

test("rev-feature-not-in-revision: elicitation/create in a session negotiated at 2025-03-26", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-03-26", { elicitation: {} });
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(2, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } }));
  const r = b.analyze();
  const f = expectFinding(r, "rev-feature-not-in-revision", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("rev-feature-not-in-revision: clean for the same elicitation in 2025-06-18", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-06-18", { elicitation: {} });
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(2, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } }));
  expectNone(b.analyze(), "rev-feature-not-in-revision");
});
