import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ask,
  captureBuilder,
  done,
  error,
  expectFinding,
  expectNone,
  form,
  irr,
  meta,
  modernHeaders,
  request,
  result,
  toolCall,
} from "../helpers/capture.ts";

// rules.md §3.10 MRTR (2026-07-28).

const H = (name = "deploy") => modernHeaders("tools/call", name);
const accept = (content: Record<string, unknown> = { ok: true }) => ({ action: "accept", content });
const userName = ask({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
const confirm = (msg = "Close ticket T-1?") => ask({ message: msg, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } });

/** One MRTR round trip: tools/call `name` id 1 gets `first`; returns the builder for the retry. */
function round1(first: unknown, name = "deploy", args: Record<string, unknown> = {}) {
  const b = captureBuilder();
  b.call(toolCall(1, name, args), result(1, first), H(name));
  return b;
}
/** Seq of the next record. */
const next = (b: ReturnType<typeof captureBuilder>) => b.records.length;

test("mrtr-supported-methods: an InputRequiredResult in reply to tools/list (catalogue example)", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/list", { _meta: meta() }), result(1, { ...irr({ bogus: ask({ message: "x", requestedSchema: { type: "object", properties: {} } }) }), tools: [] }), modernHeaders("tools/list"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-supported-methods", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/resultType");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-supported-methods: clean for tools/call, prompts/get and resources/read", () => {
  const b = captureBuilder();
  b.call(toolCall(1), result(1, irr({ q: ask() })), H());
  b.call(request(2, "prompts/get", { name: "greet", arguments: {}, _meta: meta() }), result(2, irr({ q: ask() })), modernHeaders("prompts/get", "greet"));
  b.call(request(3, "resources/read", { uri: "file:///a.txt", _meta: meta() }), result(3, irr({ q: ask() })), modernHeaders("resources/read", "file:///a.txt"));
  expectNone(b.analyze(), "mrtr-supported-methods");
});

test("mrtr-result-type-required: a result carrying inputRequests without resultType (catalogue example)", () => {
  const b = round1({ inputRequests: { user_name: userName } });
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-result-type-required", { severity: "error", violator: "server", flow: null });
  assert.equal(f.pointer, "/result");
  assert.match(f.message, /treat it as complete/);
});

test("mrtr-result-type-required: a plain result without resultType, and resultType complete with requestState", () => {
  const b = round1({ content: [{ type: "text", text: "ok" }] });
  expectFinding(b.analyze(), "mrtr-result-type-required", { pointer: "/result" });
  const c = round1({ resultType: "complete", requestState: "S", content: [] });
  expectFinding(c.analyze(), "mrtr-result-type-required", { pointer: "/result/resultType" });
});

test("mrtr-result-type-required: clean with resultType", () => {
  const b = round1(done());
  expectNone(b.analyze(), "mrtr-result-type-required");
});

test("mrtr-result-type-known: an unknown resultType (catalogue example), and task without the tasks extension", () => {
  const b = round1({ resultType: "pending" });
  const f = expectFinding(b.analyze(), "mrtr-result-type-known", { severity: "error", violator: "server", flow: null });
  assert.equal(f.pointer, "/result/resultType");
  const t = round1({ resultType: "task", task: { taskId: "t1" } });
  expectFinding(t.analyze(), "mrtr-result-type-known", { pointer: "/result/resultType" });
});

test("mrtr-result-type-known: clean for task when the request advertises the tasks extension", () => {
  const b = captureBuilder();
  const caps = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
  b.call(toolCall(1, "deploy", {}, {}, caps), result(1, { resultType: "task", task: { taskId: "t1", status: "working" } }), H());
  expectNone(b.analyze(), "mrtr-result-type-known");
});

test("mrtr-irr-not-empty: an IRR with neither inputRequests nor requestState (catalogue example); empty inputRequests is a warning", () => {
  const b = round1(irr());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-irr-not-empty", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result");
  assert.equal(f.flow, r.flows[0]!.id);
  const e = round1(irr({}));
  expectFinding(e.analyze(), "mrtr-irr-not-empty", { severity: "warning", pointer: "/result/inputRequests" });
});

test("mrtr-irr-not-empty: clean with requestState alone", () => {
  const b = round1(irr(undefined, "S1"));
  expectNone(b.analyze(), "mrtr-irr-not-empty");
});

test("mrtr-input-request-method: an input request that is not elicitation, sampling or roots (catalogue example)", () => {
  const b = round1(irr({ q: { method: "tools/call", params: { name: "x" } } }));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-input-request-method", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/inputRequests/q/method");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-input-request-method: an elicitation/create entry without params", () => {
  const b = round1(irr({ q: { method: "elicitation/create" } }));
  expectFinding(b.analyze(), "mrtr-input-request-method", { pointer: "/result/inputRequests/q/params" });
});

test("mrtr-input-request-method: clean for elicitation/create with params", () => {
  const b = round1(irr({ q: ask() }));
  expectNone(b.analyze(), "mrtr-input-request-method");
});

test("mrtr-input-request-shape: jsonrpc and id inside an input request (catalogue example)", () => {
  const b = round1(irr({ q: { jsonrpc: "2.0", id: 5, method: "elicitation/create", params: { message: "x", requestedSchema: { type: "object", properties: {} } } } }));
  const f = expectFinding(b.analyze(), "mrtr-input-request-shape", { severity: "info", violator: "server", flow: "flow-1" });
  assert.equal(f.pointer, "/result/inputRequests/q/id");
});

test("mrtr-input-request-shape: clean for {method, params}", () => {
  const b = round1(irr({ q: ask() }));
  expectNone(b.analyze(), "mrtr-input-request-shape");
});

test("mrtr-input-request-keys-unique: a duplicate key in the raw JSON (catalogue example)", () => {
  const raw =
    '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"q":{"method":"roots/list","params":{}},"q":{"method":"elicitation/create","params":{"message":"x","requestedSchema":{"type":"object","properties":{}}}}}}}';
  const c = captureBuilder();
  c.call(toolCall(1), raw, H());
  const r = c.analyze();
  const f = expectFinding(r, "mrtr-input-request-keys-unique", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/inputRequests/q");
  assert.equal(f.record, 2);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-input-request-keys-unique: clean for distinct keys, equal keys at deeper levels, and braces inside strings", () => {
  const raw =
    '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{' +
    '"a":{"method":"elicitation/create","params":{"message":"Use {curly} \\"q\\": braces } here","requestedSchema":{"type":"object","properties":{"q":{"type":"string"}}}}},' +
    '"b":{"method":"elicitation/create","params":{"message":"Second question, please","requestedSchema":{"type":"object","properties":{"q":{"type":"string"}}}}}},' +
    '"requestState":"S"}}';
  const b = captureBuilder();
  b.call(toolCall(1), raw, H());
  const r = b.analyze();
  expectNone(r, "mrtr-input-request-keys-unique");
  assert.equal(r.flows[0]!.elicitations.length, 2);
});

test("mrtr-request-state-string: the server's requestState is an object (catalogue example)", () => {
  const b = round1(irr({ q: ask() }, { step: 2 }));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-request-state-string", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/result/requestState");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-request-state-string: the client's retry sends a number", () => {
  const b = round1(irr({ q: ask() }, "S1"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: 123 }), result(2, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-request-state-string", { violator: "client" });
  assert.equal(f.pointer, "/params/requestState");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-request-state-string: clean for a string echoed back", () => {
  const b = round1(irr({ q: ask() }, "S1"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-request-state-string");
});

test("mrtr-retry-new-id: the retry reuses the original id (catalogue example)", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/call", { name: "close_ticket", arguments: { id: "T-1" }, _meta: meta() }), result(1, irr({ "elicitation-1": confirm() }, "eyJyIjp7fS")), H("close_ticket"));
  const retry = next(b);
  b.call(
    request(1, "tools/call", { name: "close_ticket", arguments: { id: "T-1" }, inputResponses: { "elicitation-1": accept({ confirm: true }) }, requestState: "eyJyIjp7fS", _meta: meta() }),
    result(1, done()),
    H("close_ticket"),
  );
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-retry-new-id", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/id");
  assert.equal(f.record, retry);
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows.length, 1);
});

test("mrtr-retry-new-id: clean with a new id", () => {
  const b = round1(irr({ q: confirm() }, "S"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-retry-new-id");
});

test("mrtr-retry-same-request: the retry changes the arguments (catalogue example)", () => {
  const b = round1(irr({ q: confirm("Transfer 10?") }, "S"), "transfer", { amount: 10 });
  b.call(toolCall(2, "transfer", { amount: 10000 }, { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" }), result(2, done()), H("transfer"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-retry-same-request", { severity: "warning", violator: "client" });
  assert.equal(f.pointer, "/params/arguments");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-retry-same-request: clean when only key order and _meta change", () => {
  const b = round1(irr({ q: confirm("Transfer 10?") }, "S"), "transfer", { amount: 10, to: "acct-1" });
  b.call(toolCall(2, "transfer", { to: "acct-1", amount: 10 }, { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" }, { elicitation: { form: {} } }), result(2, done()), H("transfer"));
  expectNone(b.analyze(), "mrtr-retry-same-request");
});

test("mrtr-echo-request-state: the retry omits the state (catalogue example) or alters it", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "reassign_ticket", { id: "T-2" }), result(1, irr({ "elicitation-1": ask(form({ team: { type: "string" } }, "Which team should own T-2?")) }, "eyJyIjp7fS")), H("reassign_ticket"));
  b.call(toolCall(2, "reassign_ticket", { id: "T-2" }, { inputResponses: { "elicitation-1": accept({ team: "billing" }) } }), result(2, done()), H("reassign_ticket"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-echo-request-state", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/params");
  assert.equal(f.flow, r.flows[0]!.id);
  const c = round1(irr({ q: ask() }, "eyJyIjp7fS=="));
  c.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS" }), result(2, error(2, -32602, "bad state")), H());
  expectFinding(c.analyze(), "mrtr-echo-request-state", { pointer: "/params/requestState" });
});

test("mrtr-echo-request-state: reusing an earlier round's state instead of the latest IRR's", () => {
  const b = round1(irr({ a: ask(form({ team: { type: "string" } }, "Which team owns it?")) }, "R1"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { a: accept({ team: "billing" }) }, requestState: "R1" }), result(2, irr({ b: ask(form({ prio: { type: "string" } }, "Which priority is it?")) }, "R2")), H());
  const stale = next(b);
  b.call(toolCall(3, "deploy", {}, { inputResponses: { b: accept({ prio: "high" }) }, requestState: "R1" }), result(3, error(3, -32602, "stale state")), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-echo-request-state", { record: stale, pointer: "/params/requestState" });
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows.length, 1);
  assert.equal(r.flows[0]!.rounds.length, 3);
});

test("mrtr-echo-request-state: clean for a byte-exact echo", () => {
  const b = round1(irr({ q: ask() }, "eyJyIjp7fS=="));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS==" }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-echo-request-state");
});

test("mrtr-no-invented-state: the IRR had no state but the retry sends requestState \"\" (catalogue example)", () => {
  const b = round1(irr({ confirm: confirm() }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { confirm: accept({ confirm: true }) }, requestState: "" }), result(2, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-no-invented-state", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/params/requestState");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-no-invented-state: clean when the retry sends no state", () => {
  const b = round1(irr({ confirm: confirm() }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { confirm: accept({ confirm: true }) } }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-no-invented-state");
});

test("mrtr-fulfil-before-retry: the retry lacks a requested key (catalogue example)", () => {
  const b = round1(irr({ github_login: ask(form({ name: { type: "string" } }, "Your GitHub login?")), capital_of_france: ask(form({ city: { type: "string" } }, "Capital of France?")) }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { github_login: accept({ name: "octocat" }) } }), result(2, irr({ capital_of_france: ask(form({ city: { type: "string" } }, "Capital of France?")) })), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-fulfil-before-retry", { severity: "error", violator: "client" });
  assert.equal(f.pointer, "/params/inputResponses");
  assert.match(f.message, /capital_of_france/);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-fulfil-before-retry: clean when every key is answered, a declined one included", () => {
  const b = round1(irr({ a: ask(), c: ask(form({ city: { type: "string" } }, "Capital of France?")) }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { a: accept(), c: { action: "decline" } } }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-fulfil-before-retry");
});

test("mrtr-fulfil-before-retry: clean for an IRR with requestState only (the client may retry at once)", () => {
  const b = round1(irr(undefined, "S"));
  b.call(toolCall(2, "deploy", {}, { requestState: "S" }), result(2, done()), H());
  const r = b.analyze();
  expectNone(r, "mrtr-fulfil-before-retry");
  assert.equal(r.flows[0]!.status, "complete");
});

test("mrtr-response-type-match: a number instead of an ElicitResult (catalogue example), and a JSON-RPC-wrapped answer", () => {
  const b = round1(irr({ user_name: userName, other: ask() }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { user_name: 12345, other: { jsonrpc: "2.0", id: 9, result: accept() } } }), result(2, error(2, -32602, "invalid input")), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-response-type-match", { severity: "error", violator: "client", pointer: "/params/inputResponses/user_name" });
  assert.equal(f.flow, r.flows[0]!.id);
  const w = expectFinding(r, "mrtr-response-type-match", { pointer: "/params/inputResponses/other" });
  assert.match(w.message, /wrapped/);
});

test("mrtr-response-type-match: a roots/list answer that is not a ListRootsResult", () => {
  const b = round1(irr({ r: { method: "roots/list", params: {} } }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { r: { action: "accept" } } }), result(2, done()), H());
  expectFinding(b.analyze(), "mrtr-response-type-match", { pointer: "/params/inputResponses/r" });
});

test("mrtr-response-type-match: clean for an ElicitResult, a ListRootsResult and a CreateMessageResult", () => {
  const b = round1(irr({ e: ask(), r: { method: "roots/list", params: {} }, s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } } }));
  b.call(
    toolCall(2, "deploy", {}, { inputResponses: { e: accept(), r: { roots: [{ uri: "file:///w" }] }, s: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } } }),
    result(2, done()),
    H(),
  );
  expectNone(b.analyze(), "mrtr-response-type-match");
});

test("mrtr-input-responses-extra-keys: answers from an earlier round re-sent (catalogue example)", () => {
  const b = round1(irr({ "elicitation-1": ask(form({ team: { type: "string" } }, "Which team owns it?")) }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { "elicitation-1": accept({ team: "billing" }) } }), result(2, irr({ "elicitation-2": ask(form({ prio: { type: "string" } }, "Which priority is it?")) })), H());
  b.call(toolCall(3, "deploy", {}, { inputResponses: { "elicitation-1": accept({ team: "billing" }), "elicitation-2": accept({ prio: "high" }) } }), result(3, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-input-responses-extra-keys", { severity: "info", violator: "client" });
  assert.equal(f.pointer, "/params/inputResponses/elicitation-1");
  assert.equal(f.flow, r.flows[0]!.id);
  expectNone(r, "mrtr-server-ignore-extra");
});

test("mrtr-input-responses-extra-keys: clean when only the latest keys are answered", () => {
  const b = round1(irr({ "elicitation-1": ask(form({ team: { type: "string" } }, "Which team owns it?")) }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { "elicitation-1": accept({ team: "billing" }) } }), result(2, irr({ "elicitation-2": ask(form({ prio: { type: "string" } }, "Which priority is it?")) })), H());
  b.call(toolCall(3, "deploy", {}, { inputResponses: { "elicitation-2": accept({ prio: "high" }) } }), result(3, done()), H());
  expectNone(b.analyze(), "mrtr-input-responses-extra-keys");
});

test("mrtr-parallel-isolation: requestState of one tool presented on an unrelated tool (catalogue example)", () => {
  const b = round1(irr({ q: ask() }, "S1"), "test_mrtr_echo_state");
  const leak = next(b);
  b.call(toolCall(7, "test_mrtr_unrelated", {}, { requestState: "S1" }), result(7, done()), H("test_mrtr_unrelated"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-parallel-isolation", { severity: "error", violator: "client", record: leak });
  assert.equal(f.pointer, "/params/requestState");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-parallel-isolation: inputResponses on tools/list, and one state on two in-flight retries", () => {
  const b = round1(irr({ q: ask() }, "S1"));
  b.call(request(5, "tools/list", { requestState: "S1", _meta: meta() }), result(5, { resultType: "complete", tools: [] }), modernHeaders("tools/list"));
  const r = b.analyze();
  expectFinding(r, "mrtr-parallel-isolation", { pointer: "/params", flow: r.flows[0]!.id });
  const c = round1(irr({ q: ask() }, "S1"));
  const x = c.post(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), H());
  c.status(x, 200, { "content-type": "text/event-stream" });
  const second = next(c);
  c.post(toolCall(3, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), H());
  expectFinding(c.analyze(), "mrtr-parallel-isolation", { pointer: "/params/requestState", record: second });
});

test("mrtr-parallel-isolation: clean for an unrelated call without state", () => {
  const b = round1(irr({ q: ask() }, "S1"), "test_mrtr_echo_state");
  b.call(toolCall(7, "test_mrtr_unrelated"), result(7, done()), H("test_mrtr_unrelated"));
  b.call(toolCall(8, "test_mrtr_echo_state", {}, { inputResponses: { q: accept() }, requestState: "S1" }), result(8, done()), H("test_mrtr_echo_state"));
  expectNone(b.analyze(), "mrtr-parallel-isolation");
});

test("mrtr-unsolicited-input-responses: the first-ever request carries inputResponses (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "connect_billing", {}, { inputResponses: { "elicitation-1": { action: "accept" } } }), result(1, done()), H("connect_billing"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-unsolicited-input-responses", { severity: "warning", violator: "client", flow: null });
  assert.equal(f.pointer, "/params");
  assert.equal(f.record, 0);
});

test("mrtr-unsolicited-input-responses: clean after an IRR", () => {
  const b = round1(irr({ "elicitation-1": ask() }), "connect_billing");
  b.call(toolCall(2, "connect_billing", {}, { inputResponses: { "elicitation-1": accept() } }), result(2, done()), H("connect_billing"));
  expectNone(b.analyze(), "mrtr-unsolicited-input-responses");
});

test("mrtr-absent-result-type-is-complete: the client retries after a result without resultType (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(3, "test_mrtr_no_result_type"), result(3, { content: [{ type: "text", text: "ok" }] }), H("test_mrtr_no_result_type"));
  const retry = next(b);
  b.call(toolCall(4, "test_mrtr_no_result_type", {}, { inputResponses: { q: accept() } }), result(4, done()), H("test_mrtr_no_result_type"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-absent-result-type-is-complete", { severity: "error", violator: "client", record: retry, flow: null });
  assert.equal(f.pointer, "/params");
  expectNone(r, "mrtr-unsolicited-input-responses");
});

test("mrtr-absent-result-type-is-complete: clean when the client treats it as complete", () => {
  const b = captureBuilder();
  b.call(toolCall(3, "test_mrtr_no_result_type"), result(3, { content: [{ type: "text", text: "ok" }] }), H("test_mrtr_no_result_type"));
  b.call(toolCall(4, "test_mrtr_no_result_type"), result(4, done()), H("test_mrtr_no_result_type"));
  expectNone(b.analyze(), "mrtr-absent-result-type-is-complete");
});

test("mrtr-server-rerequest-missing: a wrong key answered with an error instead of a new IRR (catalogue example)", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { wrong_key: { action: "accept", content: { data: "x" } } } }), error(2, -32602, "missing user_name"), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-server-rerequest-missing", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/error");
  assert.equal(f.flow, r.flows[0]!.id);
  expectNone(r, "mrtr-server-ignore-extra");
});

test("mrtr-server-rerequest-missing: clean when the server asks again", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { wrong_key: { action: "accept", content: { data: "x" } } } }), result(2, irr({ user_name: userName })), H());
  const r = b.analyze();
  expectNone(r, "mrtr-server-rerequest-missing");
  assert.equal(r.flows[0]!.rounds.length, 2);
});

test("mrtr-server-ignore-extra: every key plus an unknown one, answered with -32602 (catalogue example)", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { user_name: accept({ name: "Alice" }), unknown_extra_key: accept({ foo: "bar" }) } }), error(2, -32602, "unexpected key"), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-server-ignore-extra", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/error");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-server-ignore-extra: clean when the server completes", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { user_name: accept({ name: "Alice" }), unknown_extra_key: accept({ foo: "bar" }) } }), result(2, done()), H());
  expectNone(b.analyze(), "mrtr-server-ignore-extra");
});

test("mrtr-server-validate-input: inputResponses null accepted with a complete result (catalogue example)", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: null }), result(2, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-server-validate-input", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/result");
  assert.equal(f.flow, r.flows[0]!.id);
  const n = round1(irr({ user_name: userName }));
  n.call(toolCall(2, "deploy", {}, { inputResponses: { user_name: 12345 } }), result(2, done()), H());
  expectFinding(n.analyze(), "mrtr-server-validate-input", { pointer: "/result" });
});

test("mrtr-server-validate-input: clean when malformed input is rejected with an error (and that is no rerequest-missing)", () => {
  const b = round1(irr({ user_name: userName }));
  b.call(toolCall(2, "deploy", {}, { inputResponses: null }), error(2, -32602, "inputResponses must be an object"), H());
  const r = b.analyze();
  expectNone(r, "mrtr-server-validate-input");
  expectNone(r, "mrtr-server-rerequest-missing");
});

test("mrtr-tampered-state-accepted: an altered requestState still completes (catalogue example)", () => {
  const b = round1(irr({ q: ask() }, "eyJyIjp7fS"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS-TAMPERED" }), result(2, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-tampered-state-accepted", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/result");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-tampered-state-accepted: clean when the server rejects the altered state", () => {
  const b = round1(irr({ q: ask() }, "eyJyIjp7fS"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS-TAMPERED" }), error(2, -32602, "invalid requestState"), H());
  const r = b.analyze();
  expectNone(r, "mrtr-tampered-state-accepted");
  expectFinding(r, "mrtr-echo-request-state");
});

test("mrtr-state-replay: one requestState completes two retries", () => {
  const b = round1(irr({ q: ask() }, "S1"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), result(2, done()), H());
  const replay = next(b);
  b.call(toolCall(3, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), result(3, done()), H());
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-state-replay", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/result");
  assert.equal(f.record, replay + 2);
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-state-replay: clean for one completion, and for a replay the server rejects", () => {
  const b = round1(irr({ q: ask() }, "S1"));
  b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), result(2, done()), H());
  b.call(toolCall(3, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), error(3, -32602, "state already used"), H());
  expectNone(b.analyze(), "mrtr-state-replay");
});

test("mrtr-irr-mixed-payload: an IRR that also carries content (catalogue example)", () => {
  const b = round1({ ...irr({ q: ask() }), content: [{ type: "text", text: "partial" }] });
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-irr-mixed-payload", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/result/content");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("mrtr-irr-mixed-payload: prompts/get IRR with messages; clean for a bare IRR", () => {
  const b = captureBuilder();
  b.call(request(1, "prompts/get", { name: "greet", _meta: meta() }), result(1, { ...irr({ q: ask() }), messages: [] }), modernHeaders("prompts/get", "greet"));
  expectFinding(b.analyze(), "mrtr-irr-mixed-payload", { pointer: "/result/messages" });
  expectNone(round1(irr({ q: ask() })).analyze(), "mrtr-irr-mixed-payload");
});

test("mrtr-deprecated-input-kinds: roots/list (catalogue example) and sampling/createMessage", () => {
  const b = round1(irr({ r: { method: "roots/list", params: {} }, s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } } }));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-deprecated-input-kinds", { severity: "info", violator: "server", pointer: "/result/inputRequests/r/method" });
  assert.equal(f.flow, r.flows[0]!.id);
  expectFinding(r, "mrtr-deprecated-input-kinds", { pointer: "/result/inputRequests/s/method" });
});

test("mrtr-deprecated-input-kinds: clean for elicitation", () => {
  expectNone(round1(irr({ q: ask() })).analyze(), "mrtr-deprecated-input-kinds");
});

test("mrtr-retry-headers: the retry's Mcp-Name differs from the body (catalogue example), or headers are missing", () => {
  const b = round1(irr({ q: ask(form({ city: { type: "string" } }, "Which city do you mean?")) }, "S"), "get_forecast");
  const retry = next(b);
  b.call(toolCall(2, "get_forecast", {}, { inputResponses: { q: accept({ city: "Paris" }) }, requestState: "S" }), result(2, done()), modernHeaders("tools/call", "get_weather"));
  const r = b.analyze();
  const f = expectFinding(r, "mrtr-retry-headers", { severity: "error", violator: "client", record: retry });
  assert.equal(f.pointer, "");
  assert.match(f.message, /get_weather/);
  assert.equal(f.flow, r.flows[0]!.id);
  const c = round1(irr({ q: ask() }, "S"));
  c.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S" }), result(2, done()), { "mcp-protocol-version": "2026-07-28" });
  const m = expectFinding(c.analyze(), "mrtr-retry-headers", { pointer: "" });
  assert.match(m.message, /Mcp-Method is missing/);
  assert.match(m.message, /Mcp-Name is missing/);
});

test("mrtr-retry-headers: clean when the retry carries its own matching headers", () => {
  const b = round1(irr({ q: ask() }, "S"), "get_forecast");
  b.call(toolCall(2, "get_forecast", {}, { inputResponses: { q: accept() }, requestState: "S" }), result(2, done()), modernHeaders("tools/call", "get_forecast"));
  expectNone(b.analyze(), "mrtr-retry-headers");
});

test("MRTR rules stay out of 2025-xx traffic", () => {
  const b = captureBuilder();
  b.call(request(1, "tools/call", { name: "deploy", arguments: {} }), result(1, { content: [] }));
  const r = b.analyze();
  assert.deepEqual(r.findings.filter((f) => f.rule.startsWith("mrtr-")), []);
});
