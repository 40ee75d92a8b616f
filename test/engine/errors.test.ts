import { test } from "node:test";
import assert from "node:assert/strict";
import {
  captureBuilder,
  done,
  error,
  expectFinding,
  expectNone,
  findingsOf,
  legacySession,
  legacyToolCall,
  modernHeaders,
  notification,
  result,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";

// rules.md §3.9 Error codes.

const H = modernHeaders("tools/call", "deploy");
const needUrl = (...ids: string[]) => ({ elicitations: ids.map((id) => urlParams(id)) });

test("err-url-required-revision: -32042 answering a 2026-07-28 request is an error (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1), error(1, -32042, "Authorization required", { elicitations: [] }), H);
  const r = b.analyze();
  const f = expectFinding(r, "err-url-required-revision", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/error/code");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows[0]!.kind, "url-required-error");
});

test("err-url-required-revision: -32042 in a 2025-06-18 session is info", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-06-18", { elicitation: {} });
  b.call(legacyToolCall(1), error(1, -32042, "Authorization required", needUrl("e1")), h);
  const r = b.analyze();
  const f = expectFinding(r, "err-url-required-revision", { severity: "info" });
  assert.equal(f.pointer, "/error/code");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("err-url-required-revision: clean in 2025-11-25", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(1), error(1, -32042, "Authorization required", needUrl("e1")), h);
  expectNone(b.analyze(), "err-url-required-revision");
});

test("err-url-required-shape: an entry that is form mode and lacks elicitationId and url (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(
    legacyToolCall(2),
    error(2, -32042, "Need input", { elicitations: [{ mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } }] }),
    h,
  );
  const r = b.analyze();
  const flow = r.flows[0]!.id;
  expectFinding(r, "err-url-required-shape", { severity: "error", violator: "server", pointer: "/error/data/elicitations/0/mode", flow });
  const lacking = expectFinding(r, "err-url-required-shape", { pointer: "/error/data/elicitations/0", flow });
  assert.match(lacking.message, /elicitationId/);
});

test("err-url-required-shape: no data, and an empty list", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(2), error(2, -32042, "Need input"), h);
  b.call(legacyToolCall(3, "other"), error(3, -32042, "Need input", { elicitations: [] }), h);
  const r = b.analyze();
  expectFinding(r, "err-url-required-shape", { pointer: "/error" });
  expectFinding(r, "err-url-required-shape", { pointer: "/error/data" });
});

test("err-url-required-shape: clean for a URL entry with elicitationId, url and message", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(2), error(2, -32042, "Need input", needUrl("e1", "e2")), h);
  expectNone(b.analyze(), "err-url-required-shape");
});

test("err-url-required-capability: -32042 sent to a client that declared elicitation {} (form only)", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {} });
  b.call(legacyToolCall(2), error(2, -32042, "Need input", needUrl("e1")), h);
  const r = b.analyze();
  const f = expectFinding(r, "err-url-required-capability", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/error/code");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("err-url-required-capability: clean when URL mode was declared", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: { url: {} } });
  b.call(legacyToolCall(2), error(2, -32042, "Need input", needUrl("e1")), h);
  expectNone(b.analyze(), "err-url-required-capability");
});

/** tools/call id 2 gets -32042 for e1; the server completes e1; the client retries with `retryId`. */
function urlRequiredThenRetry(retryId: number) {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(2, "connect_billing"), error(2, -32042, "Authorization required", needUrl("e1")), h);
  const g = b.get(h);
  b.sse(g, notification("notifications/elicitation/complete", { elicitationId: "e1" }), "get-sse", h);
  const retry = b.records.length;
  b.call(legacyToolCall(retryId, "connect_billing"), result(retryId, done(true)), h);
  return { b, retry };
}

test("err-url-required-retry-new-id: the retry after -32042 reuses the failed request's id", () => {
  const { b, retry } = urlRequiredThenRetry(2);
  const r = b.analyze();
  const f = expectFinding(r, "err-url-required-retry-new-id", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.record, retry);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("err-url-required-retry-new-id: clean with a new id", () => {
  const { b } = urlRequiredThenRetry(3);
  const r = b.analyze();
  expectNone(r, "err-url-required-retry-new-id");
  assert.equal(r.flows.length, 1);
  assert.equal(r.flows[0]!.status, "complete");
});

test("err-missing-cap-shape: an array of names and HTTP 200 (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), error(1, -32021, "Need elicitation", { requiredCapabilities: ["elicitation"] }), H, 200);
  const r = b.analyze();
  const all = findingsOf(r, "err-missing-cap-shape");
  assert.deepEqual(all.map((f) => f.pointer).sort(), ["/error/code", "/error/data/requiredCapabilities"]);
  for (const f of all) {
    assert.equal(f.severity, "error");
    assert.equal(f.violator, "server");
    assert.equal(f.record, 2);
  }
});

test("err-missing-cap-shape: clean for an object with HTTP 400", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), error(1, -32021, "Need elicitation", { requiredCapabilities: { elicitation: {} } }), H, 400);
  const r = b.analyze();
  expectNone(r, "err-missing-cap-shape");
  expectNone(r, "err-missing-cap-misuse");
  expectNone(r, "err-missing-cap-expected");
});

test("err-missing-cap-misuse: -32021 names a mode the request did declare (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: { form: {}, url: {} } }), error(1, -32021, "x", { requiredCapabilities: { elicitation: { url: {} } } }), H, 400);
  const r = b.analyze();
  const f = expectFinding(r, "err-missing-cap-misuse", { severity: "error", violator: "server", flow: null });
  assert.equal(f.pointer, "/error/data/requiredCapabilities/elicitation");
});

test("err-missing-cap-misuse: clean when the named mode was missing", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: { form: {} } }), error(1, -32021, "x", { requiredCapabilities: { elicitation: { url: {} } } }), H, 400);
  expectNone(b.analyze(), "err-missing-cap-misuse");
});

test("err-missing-cap-expected: a missing elicitation signalled with -32601 (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), error(1, -32601, "Client does not support elicitation"), H, 400);
  const r = b.analyze();
  const f = expectFinding(r, "err-missing-cap-expected", { severity: "warning", violator: "server", flow: null });
  assert.equal(f.pointer, "/error/code");
});

test("err-missing-cap-expected: a missing elicitation signalled with a CallToolResult isError:true", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), result(1, { resultType: "complete", isError: true, content: [{ type: "text", text: "This tool needs a client with elicitation support" }] }), H);
  const r = b.analyze();
  expectFinding(r, "err-missing-cap-expected", { severity: "warning", pointer: "/result/isError" });
});

test("err-missing-cap-expected: clean for a tool error about something else, and when elicitation was declared", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), result(1, { resultType: "complete", isError: true, content: [{ type: "text", text: "Deployment failed: disk full" }] }), H);
  b.call(toolCall(2, "deploy", {}, {}, { elicitation: {} }), error(2, -32603, "Elicitation failed"), H, 500);
  expectNone(b.analyze(), "err-missing-cap-expected");
});

test("err-missing-cap-expected: clean when the same request is rejected with -32021", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, {}), error(1, -32021, "Client does not support elicitation", { requiredCapabilities: { elicitation: {} } }), H, 400);
  expectNone(b.analyze(), "err-missing-cap-expected");
});

test("err-legacy-range: -32003 near elicitation in 2026-07-28 (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1), error(1, -32003, "Elicitation was not requested by this caller"), H);
  const r = b.analyze();
  const f = expectFinding(r, "err-legacy-range", { severity: "info", violator: "either", flow: null });
  assert.equal(f.pointer, "/error/code");
});

test("err-legacy-range: clean for a standard code", () => {
  const b = captureBuilder();
  b.call(toolCall(1), error(1, -32602, "Elicitation was not requested by this caller"), H);
  expectNone(b.analyze(), "err-legacy-range");
});
