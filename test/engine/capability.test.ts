import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CAPS,
  ask,
  captureBuilder,
  done,
  error,
  expectFinding,
  expectNone,
  form,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  notification,
  request,
  result,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";

// rules.md §3.1 Capability gating.

const H = modernHeaders("tools/call", "deploy");
const CAPS_AT = `/params/_meta/${CAPS.replace("/", "~1")}`;
const acctForm = { message: "Which account?", requestedSchema: { type: "object", properties: { acct: { type: "string" } } } };

/** A 2025-xx session whose tools/call receives one elicitation/create with `params` on its stream. */
function legacyElicit(revision: string, caps: Record<string, unknown>, params: unknown, id: number | string = 3) {
  const b = captureBuilder();
  const h = legacySession(b, revision, caps);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(id, "elicitation/create", params));
  return { b, h, x };
}

test("cap-elicitation-undeclared (2025-11-25): elicitation/create although initialize declared no elicitation", () => {
  const { b } = legacyElicit("2025-11-25", { sampling: {} }, form());
  const r = b.analyze();
  const f = expectFinding(r, "cap-elicitation-undeclared", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/params");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-elicitation-undeclared (2025-06-18): clean when elicitation was declared", () => {
  const { b } = legacyElicit("2025-06-18", { elicitation: {} }, form());
  expectNone(b.analyze(), "cap-elicitation-undeclared");
});

test("cap-elicitation-undeclared (2026-07-28): inputRequests elicit although this request's clientCapabilities lack elicitation (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { sampling: {} }), result(1, irr({ acct: ask(acctForm) })), H);
  const r = b.analyze();
  const f = expectFinding(r, "cap-elicitation-undeclared", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/inputRequests/acct/params");
  assert.equal(f.flow, r.flows[0]!.id);
  expectNone(r, "cap-per-request");
});

test("cap-elicitation-undeclared (2026-07-28): clean when the request declares elicitation", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ acct: ask(acctForm) })), H);
  expectNone(b.analyze(), "cap-elicitation-undeclared");
});

test("cap-mode-undeclared (2025-11-25): URL mode sent to a client that declared elicitation {} (catalogue example)", () => {
  const { b } = legacyElicit("2025-11-25", { elicitation: {} }, urlParams("e1"));
  const r = b.analyze();
  const f = expectFinding(r, "cap-mode-undeclared", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/params");
  assert.equal(f.flow, r.flows[0]!.id);
  expectNone(r, "cap-elicitation-undeclared");
});

test("cap-mode-undeclared (2026-07-28): form mode sent to a client that declared only url", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ q: ask(form()) })), H);
  const r = b.analyze();
  const f = expectFinding(r, "cap-mode-undeclared", { severity: "error" });
  assert.equal(f.pointer, "/result/inputRequests/q/params");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-mode-undeclared: clean for URL mode to {url:{}} and for form mode to {}", () => {
  const a = legacyElicit("2025-11-25", { elicitation: { url: {} } }, urlParams("e1"));
  expectNone(a.b.analyze(), "cap-mode-undeclared");
  const b = legacyElicit("2025-11-25", { elicitation: {} }, form());
  expectNone(b.b.analyze(), "cap-mode-undeclared");
  const m = captureBuilder();
  m.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ q: ask({ mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account" }) })), H);
  expectNone(m.analyze(), "cap-mode-undeclared");
});

test("cap-per-request: capabilities of an earlier request carried over (catalogue example)", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", [CAPS]: { elicitation: {} } } }), result(1, { resultType: "complete", tools: [] }), modernHeaders("tools/list"));
  b.call(toolCall(2, "deploy", {}, {}, {}), result(2, irr({ ok: ask(form({ ok: { type: "boolean" } }, "Deploy now?")) })), H);
  const r = b.analyze();
  const f = expectFinding(r, "cap-per-request", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/inputRequests/ok/params");
  assert.equal(f.record, 6);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-per-request: clean when the eliciting request itself declares elicitation", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", [CAPS]: { elicitation: {} } } }), result(1, { resultType: "complete", tools: [] }), modernHeaders("tools/list"));
  b.call(toolCall(2, "deploy", {}, {}, { elicitation: {} }), result(2, irr({ ok: ask(form()) })), H);
  const r = b.analyze();
  expectNone(r, "cap-per-request");
  expectNone(r, "cap-elicitation-undeclared");
});

test("cap-client-shape: elicitation.form is not an object (error, catalogue example)", () => {
  const b = captureBuilder();
  legacySession(b, "2025-11-25", { elicitation: { form: true } });
  const r = b.analyze();
  const f = expectFinding(r, "cap-client-shape", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/params/capabilities/elicitation/form");
  assert.equal(f.record, 0);
  assert.equal(f.flow, null);
});

test("cap-client-shape: elicitation is not an object (error), in initialize and in a 2026-07-28 _meta", () => {
  const b = captureBuilder();
  legacySession(b, "2025-06-18", { elicitation: true });
  expectFinding(b.analyze(), "cap-client-shape", { severity: "error", pointer: "/params/capabilities/elicitation" });
  const m = captureBuilder();
  m.call(toolCall(1, "deploy", {}, {}, { elicitation: ["form"] }), result(1, done()), H);
  expectFinding(m.analyze(), "cap-client-shape", { severity: "error", pointer: `${CAPS_AT}/elicitation` });
});

test("cap-client-shape: a non-empty elicitation object naming no mode is a warning", () => {
  const b = captureBuilder();
  legacySession(b, "2025-11-25", { elicitation: { forms: {} } });
  const f = expectFinding(b.analyze(), "cap-client-shape", { severity: "warning" });
  assert.equal(f.pointer, "/params/capabilities/elicitation");
});

test("cap-client-shape: clean for {}, {form:{}}, {url:{}} and {form:{},url:{}}", () => {
  for (const elicitation of [{}, { form: {} }, { url: {} }, { form: {}, url: {} }]) {
    const b = captureBuilder();
    legacySession(b, "2025-11-25", { elicitation });
    b.call(toolCall(1, "deploy", {}, {}, { elicitation }), result(1, done()), H);
    expectNone(b.analyze(), "cap-client-shape");
  }
});

test("cap-client-declares-per-request: a retry answers an elicitation but its own _meta omits elicitation (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ ok: ask(form()) })), H);
  b.call(toolCall(2, "deploy", {}, { inputResponses: { ok: { action: "accept", content: { ok: true } } } }, {}), result(2, done()), H);
  const r = b.analyze();
  const f = expectFinding(r, "cap-client-declares-per-request", { severity: "warning", violator: "client" });
  assert.equal(f.pointer, "/params/_meta");
  assert.equal(f.record, 4);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-client-declares-per-request: a retry answering a URL elicitation while declaring only form", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ u: ask({ mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account" }) })), H);
  b.call(toolCall(2, "deploy", {}, { inputResponses: { u: { action: "accept" } } }, { elicitation: { form: {} } }), result(2, done()), H);
  expectFinding(b.analyze(), "cap-client-declares-per-request", { pointer: "/params/_meta" });
});

test("cap-client-declares-per-request: clean when the retry declares elicitation again", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ ok: ask(form()) })), H);
  b.call(toolCall(2, "deploy", {}, { inputResponses: { ok: { action: "accept", content: { ok: true } } } }, { elicitation: {} }), result(2, done()), H);
  expectNone(b.analyze(), "cap-client-declares-per-request");
});

test("cap-client-rejects-undeclared-mode: the client answers an undeclared URL-mode elicitation with a result (catalogue example)", () => {
  const { b, h, x } = legacyElicit("2025-11-25", { elicitation: { form: {} } }, { mode: "url", elicitationId: "e2", url: "https://mcp.example.com/pay", message: "Pay" }, 5);
  b.accepted(result(5, { action: "accept" }), h);
  b.end(x);
  const r = b.analyze();
  expectFinding(r, "cap-mode-undeclared", { violator: "server" });
  const f = expectFinding(r, "cap-client-rejects-undeclared-mode", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/result");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-client-rejects-undeclared-mode: clean when the client answers -32602", () => {
  const { b, h } = legacyElicit("2025-11-25", { elicitation: { form: {} } }, { mode: "url", elicitationId: "e2", url: "https://mcp.example.com/pay", message: "Pay" }, 5);
  b.accepted(error(5, -32602, "URL mode not supported"), h);
  const r = b.analyze();
  expectNone(r, "cap-client-rejects-undeclared-mode");
});

test("cap-before-initialized: elicitation/create before notifications/initialized", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {} }, "s1", { initialized: false });
  const g = b.get(h);
  b.sse(g, request(1, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } }), "get-sse", h);
  const r = b.analyze();
  const f = expectFinding(r, "cap-before-initialized", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/method");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("cap-before-initialized: clean after notifications/initialized", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {} }, "s1", { initialized: false });
  b.accepted(notification("notifications/initialized"), h);
  const g = b.get(h);
  b.sse(g, request(1, "elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } }), "get-sse", h);
  expectNone(b.analyze(), "cap-before-initialized");
});
