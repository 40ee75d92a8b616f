import { test } from "node:test";
import assert from "node:assert/strict";
import {
  captureBuilder,
  done,
  expectFinding,
  expectNone,
  findingsOf,
  legacySession,
  legacyToolCall,
  modernHeaders,
  notification,
  request,
  result,
  rules,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";

// rules.md §3.8 notifications/elicitation/complete (2025-11-25 only).

const COMPLETE = "notifications/elicitation/complete";

/** 2025-11-25 session (session id `sid`) whose tools/call gets URL elicitation `e1`, accepted by the user. */
function issued(b = captureBuilder(), sid = "s1") {
  const h = legacySession(b, "2025-11-25", { elicitation: { url: {} } }, sid);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", urlParams("e1")));
  b.accepted(result(0, { action: "accept" }), h);
  return { b, h, x };
}

test("notify-revision: the completion notification on a 2026-07-28 response stream (catalogue example)", () => {
  const b = captureBuilder();
  const x = b.post(toolCall(1), modernHeaders("tools/call", "deploy"));
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  b.sse(x, result(1, done()));
  b.end(x);
  const r = b.analyze();
  const f = expectFinding(r, "notify-revision", { severity: "error", violator: "server", flow: null });
  assert.equal(f.pointer, "/method");
  assert.equal(f.record, 2);
  // Only notify-revision applies outside 2025-11-25: the rest of §3.8 is about 2025-11-25 notifications.
  expectNone(r, "notify-known-id");
});

test("notify-revision: 2026-07-28 is known from the request's _meta even without the header", () => {
  const b = captureBuilder();
  const x = b.post(toolCall(1), { "mcp-method": "tools/call", "mcp-name": "deploy" });
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  expectFinding(b.analyze(), "notify-revision", { pointer: "/method" });
});

test("notify-revision: in a 2025-06-18 session", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-06-18", { elicitation: {} });
  const g = b.get(h);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
  const r = b.analyze();
  expectFinding(r, "notify-revision", { severity: "error", pointer: "/method" });
  assert.deepEqual(rules(r).filter((id) => id.startsWith("notify-")), ["notify-revision"]);
});

test("notify-revision: clean in 2025-11-25", () => {
  const { b, h } = issued();
  const g = b.get(h);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
  const r = b.analyze();
  assert.deepEqual(rules(r).filter((id) => id.startsWith("notify-")), []);
});

test("notify-direction: the client sends the completion notification", () => {
  const { b, h } = issued();
  const sent = b.records.length;
  b.accepted(notification(COMPLETE, { elicitationId: "e1", action: "accept" }), h);
  const r = b.analyze();
  const f = expectFinding(r, "notify-direction", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.record, sent);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("notify-direction: clean when the server sends it", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  expectNone(b.analyze(), "notify-direction");
});

test("notify-elicitation-id: params.elicitationId missing (catalogue example) or not a string", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { id: "e1" }));
  b.sse(x, notification(COMPLETE, { elicitationId: 1 }));
  const r = b.analyze();
  const all = findingsOf(r, "notify-elicitation-id");
  assert.equal(all.length, 2);
  for (const f of all) {
    assert.equal(f.severity, "error");
    assert.equal(f.violator, "server");
    assert.equal(f.pointer, "/params");
  }
});

test("notify-elicitation-id: clean with a string elicitationId", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  expectNone(b.analyze(), "notify-elicitation-id");
});

test("notify-known-id: completion for an elicitationId never issued (catalogue example)", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e404" }));
  const r = b.analyze();
  const f = expectFinding(r, "notify-known-id", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/params/elicitationId");
  assert.equal(r.flows[0]!.elicitations[0]!.completed, false);
});

test("notify-known-id: clean for an id issued in a -32042 error", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: { url: {} } });
  b.call(legacyToolCall(2), { jsonrpc: "2.0", id: 2, error: { code: -32042, message: "Authorization required", data: { elicitations: [urlParams("e7")] } } }, h);
  const g = b.get(h);
  b.sse(g, notification(COMPLETE, { elicitationId: "e7" }), "get-sse", h);
  const r = b.analyze();
  expectNone(r, "notify-known-id");
  assert.equal(r.flows[0]!.elicitations[0]!.completed, true);
});

test("notify-same-client: the completion for an id issued on session A arrives on session B's GET stream", () => {
  const b = captureBuilder();
  issued(b, "A");
  const hb = legacySession(b, "2025-11-25", { elicitation: { url: {} } }, "B");
  const g = b.get(hb);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", hb);
  const r = b.analyze();
  const f = expectFinding(r, "notify-same-client", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/params/elicitationId");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows[0]!.elicitations[0]!.completed, false);
  expectNone(r, "notify-known-id");
});

test("notify-same-client: not for another server that reuses the id (SDK servers number them alike): that is its own unknown id", () => {
  const b = captureBuilder("http://127.0.0.1:3000/mcp");
  issued(b, "A");
  b.useServer("http://127.0.0.1:4000/mcp");
  const hb = legacySession(b, "2025-11-25", { elicitation: { url: {} } }, "B");
  const g = b.get(hb);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", hb);
  const r = b.analyze();
  expectNone(r, "notify-same-client");
  const f = expectFinding(r, "notify-known-id");
  assert.equal(f.flow, null);
  assert.equal(r.flows[0]!.elicitations[0]!.completed, false);
});

test("notify-same-client: clean on the issuing session's GET stream", () => {
  const b = captureBuilder();
  const { h } = issued(b, "A");
  legacySession(b, "2025-11-25", { elicitation: { url: {} } }, "B");
  const g = b.get(h);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
  const r = b.analyze();
  expectNone(r, "notify-same-client");
  assert.equal(r.flows[0]!.elicitations[0]!.completed, true);
});

test("notify-params-extra: params carry an outcome (catalogue example)", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1", action: "accept" }));
  const r = b.analyze();
  const f = expectFinding(r, "notify-params-extra", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/params/action");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("notify-params-extra: clean with only elicitationId (and _meta)", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1", _meta: { trace: "t" } }));
  expectNone(b.analyze(), "notify-params-extra");
});

test("notify-duplicate: two completions for the same id", () => {
  const { b, x, h } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  const g = b.get(h);
  b.sse(g, notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
  const r = b.analyze();
  const f = expectFinding(r, "notify-duplicate", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/params/elicitationId");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(findingsOf(r, "notify-duplicate").length, 1);
});

test("notify-duplicate: clean for one completion", () => {
  const { b, x } = issued();
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  b.sse(x, result(1, done(true)));
  b.end(x);
  const r = b.analyze();
  expectNone(r, "notify-duplicate");
  assert.equal(r.flows[0]!.status, "complete");
});
