import { test } from "node:test";
import assert from "node:assert/strict";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { analyze, createEngine } from "../../src/engine/index.ts";
import {
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
  meta,
  modernHeaders,
  notification,
  request,
  result,
  rules,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";

// rules.md §2 Flow correlation model.

const H = (name = "deploy") => modernHeaders("tools/call", name);
const accept = (content: Record<string, unknown> = { ok: true }) => ({ action: "accept", content });
const timeOf = (records: CaptureRecord[], seq: number) => records.find((r) => r.seq === seq)!.time;

test("server-request flow (2025-11-25): kind, revision, method, target, one round, answer and timings", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1, "deploy", { env: "prod" }), h);
  b.wait(100);
  b.sse(x, request(0, "elicitation/create", form()));
  b.wait(2_000);
  b.accepted(result(0, accept()), h);
  b.wait(50);
  b.sse(x, result(1, done(true)));
  b.end(x);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.kind, "server-request");
  assert.equal(flow.revision, "2025-11-25");
  assert.equal(flow.method, "tools/call");
  assert.equal(flow.target, "deploy");
  assert.equal(flow.session, "s1");
  assert.equal(flow.server, "http://127.0.0.1:3000/mcp");
  assert.equal(flow.rounds.length, 1);
  assert.equal(flow.rounds[0]!.requestId, 1);
  assert.equal(flow.rounds[0]!.outcome, "complete");
  assert.equal(flow.status, "complete");
  assert.equal(flow.elicitations.length, 1);
  const el = flow.elicitations[0]!;
  assert.equal(el.key, "0");
  assert.equal(el.mode, "form");
  assert.equal(el.action, "accept");
  assert.deepEqual(el.content, { ok: true });
  assert.equal(el.completed, true);
  assert.equal(el.round, 1);
  assert.equal(el.askPointer, "/params");
  assert.equal(el.answerPointer, "/result");
  // Timings follow the record clock: the user's share is question → answer; the rest of the flow is the server's.
  assert.equal(el.askedAt, timeOf(b.records, el.askRecord));
  assert.equal(el.answeredAt, timeOf(b.records, el.answerRecord!));
  assert.ok(flow.userMs > 0 && flow.serverMs > 0);
  assert.equal(flow.userMs, el.answeredAt! - el.askedAt);
  assert.ok(flow.userMs >= 2_000 && flow.userMs < 2_100, `userMs ${flow.userMs}`);
  assert.ok(flow.serverMs >= 150 && flow.serverMs < 300, `serverMs ${flow.serverMs}`);
  assert.equal(flow.userMs + flow.serverMs, flow.endedAt! - flow.startedAt);
  assert.equal(flow.startedAt, timeOf(b.records, flow.rounds[0]!.requestRecord));
  assert.deepEqual(flow.records.slice(0, 3), [flow.rounds[0]!.requestRecord, el.askRecord, el.answerRecord]);
  assert.equal(r.problems.length, 0);
  assert.deepEqual(r.findings, []);
});

test("two elicitations in one call make one flow with two elicitations", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form({ team: { type: "string" } }, "Which team owns this?")));
  b.accepted(result(0, accept({ team: "billing" })), h);
  b.sse(x, request(1, "elicitation/create", form({ ok: { type: "boolean" } }, "Deploy to billing now?")));
  b.accepted(result(1, { action: "decline" }), h);
  b.sse(x, result(1, done(true)));
  b.end(x);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.deepEqual(
    flow.elicitations.map((e) => [e.key, e.action, e.completed]),
    [
      ["0", "accept", true],
      ["1", "decline", true],
    ],
  );
  assert.equal(flow.status, "complete");
});

test("a server id equal to a client id: separate id spaces", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(1, "elicitation/create", form()));
  b.accepted(result(1, accept()), h);
  b.sse(x, result(1, done(true)));
  b.end(x);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.rounds[0]!.requestId, 1);
  assert.equal(flow.elicitations[0]!.key, "1");
  assert.equal(flow.elicitations[0]!.action, "accept");
  assert.equal(flow.status, "complete");
  assert.deepEqual(rules(r), []);
});

test("url-required-error flow (2025-11-25): -32042 → completion notification → retry with a new id → complete", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(
    legacyToolCall(2, "connect_billing"),
    error(2, -32042, "Authorization required", {
      elicitations: [urlParams("e1", "https://billing.example.com/connect")],
    }),
    h,
  );
  const g = b.get(h);
  b.sse(g, notification("notifications/elicitation/complete", { elicitationId: "e1" }), "get-sse", h);
  b.call(legacyToolCall(3, "connect_billing"), result(3, done(true)), h);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.kind, "url-required-error");
  assert.equal(flow.revision, "2025-11-25");
  assert.equal(flow.target, "connect_billing");
  assert.deepEqual(
    flow.rounds.map((rd) => [rd.requestId, rd.outcome]),
    [
      [2, "error"],
      [3, "complete"],
    ],
  );
  assert.equal(flow.status, "complete");
  assert.equal(flow.elicitations.length, 1);
  const el = flow.elicitations[0]!;
  assert.equal(el.mode, "url");
  assert.equal(el.elicitationId, "e1");
  assert.equal(el.url, "https://billing.example.com/connect");
  assert.equal(el.action, null);
  assert.equal(el.completed, true);
  assert.equal(el.askPointer, "/error/data/elicitations/0");
  assert.deepEqual(rules(r), []);
});

test("url-required-error flow: before the notification and the retry the URL elicitation is not completed", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(
    legacyToolCall(2, "connect_billing"),
    error(2, -32042, "Authorization required", { elicitations: [urlParams("e1")] }),
    h,
  );
  const r = b.analyze();
  assert.equal(r.flows[0]!.status, "pending");
  assert.equal(r.flows[0]!.elicitations[0]!.completed, false);
});

test("MRTR over 3 rounds chained by requestState", () => {
  const b = captureBuilder();
  b.call(
    toolCall(1, "create_ticket", { title: "Broken" }),
    result(1, irr({ team: ask(form({ team: { type: "string" } }, "Which team owns it?")) }, "R1")),
    H("create_ticket"),
  );
  b.call(
    toolCall(
      2,
      "create_ticket",
      { title: "Broken" },
      { inputResponses: { team: accept({ team: "billing" }) }, requestState: "R1" },
    ),
    result(
      2,
      irr(
        {
          who: ask(form({ who: { type: "string" } }, "Who in billing should get it?")),
          conf: ask(form({ ok: { type: "boolean" } }, "Notify them by email?")),
        },
        "R2",
      ),
    ),
    H("create_ticket"),
  );
  b.call(
    toolCall(
      3,
      "create_ticket",
      { title: "Broken" },
      { inputResponses: { who: accept({ who: "ada" }), conf: { action: "decline" } }, requestState: "R2" },
    ),
    result(3, done()),
    H("create_ticket"),
  );
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.kind, "mrtr");
  assert.equal(flow.revision, "2026-07-28");
  assert.equal(flow.target, "create_ticket");
  assert.deepEqual(
    flow.rounds.map((rd) => [rd.index, rd.requestId, rd.outcome, rd.requestState, rd.echoedState]),
    [
      [1, 1, "input_required", "R1", undefined],
      [2, 2, "input_required", "R2", "R1"],
      [3, 3, "complete", undefined, "R2"],
    ],
  );
  assert.deepEqual(
    flow.elicitations.map((e) => [e.key, e.round, e.action, e.completed]),
    [
      ["team", 1, "accept", true],
      ["who", 2, "accept", true],
      ["conf", 2, "decline", true],
    ],
  );
  assert.equal(flow.elicitations[0]!.answerPointer, "/params/inputResponses/team");
  assert.equal(flow.status, "complete");
  assert.ok(flow.userMs > 0 && flow.serverMs > 0);
  assert.deepEqual(rules(r), ["adv-concurrent-elicitations"]);
});

test("MRTR chained by the request tuple when there is no requestState", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", { env: "prod", region: "eu" }), result(1, irr({ ok: ask() })), H());
  b.call(toolCall(9, "other"), result(9, done()), H("other"));
  b.call(
    toolCall(2, "deploy", { region: "eu", env: "prod" }, { inputResponses: { ok: accept() } }),
    result(2, done()),
    H(),
  );
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.deepEqual(
    flow.rounds.map((rd) => rd.requestId),
    [1, 2],
  );
  assert.equal(flow.elicitations[0]!.action, "accept");
  assert.equal(flow.status, "complete");
  assert.deepEqual(rules(r), []);
});

test("prompts/get and resources/read MRTR flows", () => {
  const b = captureBuilder();
  b.call(
    request(1, "prompts/get", { name: "greet", arguments: { tone: "warm" }, _meta: meta() }),
    result(1, irr({ who: ask(form({ who: { type: "string" } }, "Who should be greeted?")) })),
    modernHeaders("prompts/get", "greet"),
  );
  b.call(
    request(2, "prompts/get", {
      name: "greet",
      arguments: { tone: "warm" },
      inputResponses: { who: accept({ who: "Ada" }) },
      _meta: meta(),
    }),
    result(2, { resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "Hi Ada" } }] }),
    modernHeaders("prompts/get", "greet"),
  );
  b.call(
    request(3, "resources/read", { uri: "file:///secret.txt", _meta: meta() }),
    result(3, irr({ ok: ask(form({ ok: { type: "boolean" } }, "Allow reading secret.txt?")) }, "RS")),
    modernHeaders("resources/read", "file:///secret.txt"),
  );
  b.call(
    request(4, "resources/read", {
      uri: "file:///secret.txt",
      inputResponses: { ok: accept() },
      requestState: "RS",
      _meta: meta(),
    }),
    result(4, { resultType: "complete", contents: [{ uri: "file:///secret.txt", text: "x" }] }),
    modernHeaders("resources/read", "file:///secret.txt"),
  );
  const r = b.analyze();
  assert.deepEqual(
    r.flows.map((f) => [f.kind, f.method, f.target, f.rounds.length, f.status]),
    [
      ["mrtr", "prompts/get", "greet", 2, "complete"],
      ["mrtr", "resources/read", "file:///secret.txt", 2, "complete"],
    ],
  );
  assert.deepEqual(rules(r), []);
});

test("fallback-tool flow: elicitationPending → sendElicitationResult → result", () => {
  const b = captureBuilder();
  const schema = { type: "object", properties: { ok: { type: "boolean" } } };
  b.call(
    toolCall(1, "deploy", {}, {}, {}),
    result(1, {
      resultType: "complete",
      content: [{ type: "text", text: "Waiting for input" }],
      _meta: { elicitationPending: { elicitId: "el-1", message: "Please confirm the deployment", schema } },
    }),
    H(),
  );
  b.call(
    toolCall(2, "sendElicitationResult", { elicitId: "el-1", action: "accept", content: { ok: true } }, {}, {}),
    result(2, done()),
    H("sendElicitationResult"),
  );
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.kind, "fallback-tool");
  assert.equal(flow.method, "tools/call");
  assert.equal(flow.target, "deploy");
  assert.deepEqual(
    flow.rounds.map((rd) => [rd.requestId, rd.outcome]),
    [
      [1, "input_required"],
      [2, "complete"],
    ],
  );
  const el = flow.elicitations[0]!;
  assert.equal(el.key, "el-1");
  assert.equal(el.message, "Please confirm the deployment");
  assert.deepEqual(el.schema, schema);
  assert.equal(el.askPointer, "/result/_meta/elicitationPending");
  assert.equal(el.action, "accept");
  assert.deepEqual(el.content, { ok: true });
  assert.equal(el.answerPointer, "/params/arguments");
  assert.equal(el.completed, true);
  assert.equal(flow.status, "complete");
});

test("url-accept-is-consent (2025-11-25): accept on a URL elicitation is not completion until the final result", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1, "connect_billing"), h);
  b.sse(x, request(0, "elicitation/create", urlParams("e1")));
  b.accepted(result(0, { action: "accept" }), h);
  const afterAccept = b.records.length;
  b.sse(x, result(1, done(true)));
  b.end(x);
  const mid = analyze(b.records.slice(0, afterAccept)).flows[0]!;
  assert.equal(mid.elicitations[0]!.action, "accept");
  assert.equal(mid.elicitations[0]!.completed, false);
  assert.equal(mid.status, "pending");
  const end = b.analyze().flows[0]!;
  assert.equal(end.elicitations[0]!.completed, true);
  assert.equal(end.status, "complete");
});

test("url-accept-is-consent (2026-07-28): accept is not completion; a second IRR keeps it open; the final result completes it", () => {
  const b = captureBuilder();
  const connect = ask({
    mode: "url",
    url: "https://billing.example.com/connect?state=abc",
    message: "Sign in to billing",
  });
  b.call(toolCall(1, "connect_billing"), result(1, irr({ c: connect }, "S1")), H("connect_billing"));
  b.call(
    toolCall(2, "connect_billing", {}, { inputResponses: { c: { action: "accept" } }, requestState: "S1" }),
    result(2, irr(undefined, "S2")),
    H("connect_billing"),
  );
  const afterSecond = b.records.length;
  b.call(toolCall(3, "connect_billing", {}, { requestState: "S2" }), result(3, done()), H("connect_billing"));
  const mid = analyze(b.records.slice(0, afterSecond)).flows[0]!;
  assert.equal(mid.elicitations[0]!.action, "accept");
  assert.equal(mid.elicitations[0]!.completed, false);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  assert.equal(r.flows[0]!.elicitations[0]!.completed, true);
  assert.equal(r.flows[0]!.rounds.length, 3);
});

test("a declined URL elicitation never completes", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1, "connect_billing"), h);
  b.sse(x, request(0, "elicitation/create", urlParams("e1")));
  b.accepted(result(0, { action: "decline" }), h);
  b.sse(x, result(1, done(true)));
  b.end(x);
  const el = b.analyze().flows[0]!.elicitations[0]!;
  assert.equal(el.action, "decline");
  assert.equal(el.completed, false);
});

test("abandoned: the POST stream ends, or fails, without the response", () => {
  for (const failure of [undefined, "abort"]) {
    const b = captureBuilder();
    const h = legacySession(b);
    const x = streamCall(b, legacyToolCall(1), h);
    b.sse(x, request(0, "elicitation/create", form()));
    b.accepted(result(0, accept()), h);
    b.end(x, failure);
    const flow = b.analyze().flows[0]!;
    assert.equal(flow.status, "abandoned", `end ${failure ?? "(clean)"}`);
    assert.equal(flow.endedAt, b.records[b.records.length - 1]!.time);
  }
});

test("a POST stream resumed with Last-Event-ID: the flow is pending again and completes on the resumed stream", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, "", "post-sse", undefined, "s1-ev0");
  b.sse(x, request(0, "elicitation/create", form()), "post-sse", undefined, "s1-ev1");
  // 2025-11-25 § "Sending Messages to the Server": the server may close the stream early; the client polls with GET.
  b.end(x);
  const closed = analyze(b.records).flows[0]!;
  assert.equal(closed.status, "abandoned");
  const resumed = { ...h, "last-event-id": "s1-ev1" };
  const g = b.get(resumed);
  b.accepted(result(0, accept()), h);
  // A replay of an event the client already had is no broadcast.
  b.sse(g, request(0, "elicitation/create", form()), "get-sse", resumed, "s1-ev1");
  b.sse(
    g,
    request(2, "elicitation/create", form({ why: { type: "string" } }, "Why deploy on a Friday?")),
    "get-sse",
    resumed,
    "s1-ev2",
  );
  b.accepted(result(2, accept({ why: "hotfix" })), h);
  b.sse(g, result(1, done(true)), "get-sse", resumed, "s1-ev3");
  b.end(g);
  const r = b.analyze();
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.equal(flow.status, "complete");
  assert.equal(
    flow.endedAt,
    b.records.find((rec) => rec.kind === "message" && rec.text.includes('"id":1,"result"'))!.time,
  );
  assert.deepEqual(
    flow.elicitations.map((e) => [e.key, e.action]),
    [
      ["0", "accept"],
      ["2", "accept"],
    ],
  );
  assert.equal(flow.userMs + flow.serverMs, flow.endedAt! - flow.startedAt);
  assert.deepEqual(rules(r), []);
});

test("a POST stream closed right after its priming event and resumed from it (SEP-1699 polling)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, "", "post-sse", undefined, "p-0");
  b.end(x);
  const resumed = { ...h, "last-event-id": "p-0" };
  const g = b.get(resumed);
  b.sse(g, request(0, "elicitation/create", form()), "get-sse", resumed, "p-1");
  b.accepted(result(0, accept()), h);
  b.sse(g, result(1, done(true)), "get-sse", resumed, "p-2");
  b.end(g);
  const r = b.analyze();
  assert.deepEqual(
    r.flows.map((f) => [f.kind, f.target, f.status, f.elicitations.length]),
    [["server-request", "deploy", "complete", 1]],
  );
  expectNone(r, "del-r12-standalone-stream");
  expectNone(r, "del-r12-related-request");
  assert.deepEqual(r.problems, []);
});

test("pending: the question is open and nothing ended", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form()));
  const flow = b.analyze().flows[0]!;
  assert.equal(flow.status, "pending");
  assert.equal(flow.elicitations[0]!.action, null);
  assert.equal(flow.elicitations[0]!.completed, false);
  assert.equal(flow.endedAt, undefined);
  const m = captureBuilder();
  m.call(toolCall(1), result(1, irr({ ok: ask() })), H());
  assert.equal(m.analyze().flows[0]!.status, "pending");
});

test("two sessions with the same ids stay apart", () => {
  const b = captureBuilder();
  const ha = legacySession(b, "2025-11-25", { elicitation: {} }, "A");
  const hb = legacySession(b, "2025-11-25", { elicitation: {} }, "B");
  const xa = streamCall(b, legacyToolCall(1, "deploy"), ha);
  const xb = streamCall(b, legacyToolCall(1, "rollback"), hb);
  b.sse(xa, request(0, "elicitation/create", form()));
  b.sse(xb, request(0, "elicitation/create", form({ sure: { type: "boolean" } }, "Roll back the release?")));
  b.accepted(result(0, { action: "decline" }), hb);
  b.accepted(result(0, accept()), ha);
  b.sse(xb, result(1, done(true)));
  b.end(xb);
  const r = b.analyze();
  assert.deepEqual(
    r.flows.map((f) => [f.session, f.target, f.elicitations[0]!.action, f.status]),
    [
      ["A", "deploy", "accept", "pending"],
      ["B", "rollback", "decline", "complete"],
    ],
  );
  expectNone(r, "del-r12-response-correlation");
  expectNone(r, "adv-concurrent-elicitations");
});

test("two stateless clients on one endpoint stay apart (same ids, same tool, same arguments)", () => {
  const b = captureBuilder();
  b.useClient("https://a.example");
  b.call(toolCall(1), result(1, irr({ ok: ask() })), H());
  b.useClient("https://b.example");
  b.call(toolCall(1), result(1, irr({ ok: ask() })), H());
  b.call(toolCall(2, "deploy", {}, { inputResponses: { ok: { action: "decline" } } }), result(2, done()), H());
  b.useClient("https://a.example");
  b.call(toolCall(2, "deploy", {}, { inputResponses: { ok: accept() } }), result(2, done()), H());
  const r = b.analyze();
  assert.equal(r.flows.length, 2);
  assert.deepEqual(
    r.flows.map((f) => [f.elicitations[0]!.action, f.rounds.length, f.status]),
    [
      ["accept", 2, "complete"],
      ["decline", 2, "complete"],
    ],
  );
  assert.deepEqual(rules(r), []);
});

test("batch JSON-RPC messages: pointers are prefixed with the batch index", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", form()));
  b.accepted(
    [
      notification("notifications/progress", { progressToken: 1, progress: 1 }),
      result(8, { action: "cancel" }),
      result(7, accept()),
    ],
    h,
  );
  const m = captureBuilder();
  m.call(
    [toolCall(1), request(2, "tools/call", { name: "deploy", arguments: {} })],
    [result(1, done()), result(2, done())],
    H(),
  );
  const r = b.analyze();
  expectFinding(r, "del-r12-response-correlation", { pointer: "/1/id" });
  assert.equal(r.flows[0]!.elicitations[0]!.answerPointer, "/2/result");
  assert.equal(r.flows[0]!.elicitations[0]!.action, "accept");
  expectFinding(m.analyze(), "rev-meta-required", { pointer: "/1/params", violator: "client" });
  expectFinding(m.analyze(), "rev-meta-required", { pointer: "/1/result", violator: "server" });
});

test("invalid JSON, truncated messages and odd shapes become problems and never throw", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const invalid = b.records.length;
  b.post("{not json", h);
  const x = streamCall(b, legacyToolCall(1), h);
  const cut = b.records.length;
  b.sse(x, '{"jsonrpc":"2.0","id":3,"method":"elicitation/cr');
  (b.records[cut] as MessageRecord).truncated = 48;
  const odd: unknown[] = [
    42,
    null,
    [],
    [1, "x"],
    { jsonrpc: "2.0" },
    { jsonrpc: "2.0", id: 1 },
    { jsonrpc: "2.0", id: 5, method: "elicitation/create", params: null },
    { jsonrpc: "2.0", id: 6, method: "elicitation/create", params: "x" },
    { jsonrpc: "2.0", id: {}, method: "elicitation/create" },
    { jsonrpc: "2.0", id: 1, result: null },
    { jsonrpc: "2.0", id: 1, error: "boom" },
    { jsonrpc: "2.0", id: 2, error: { code: -32042, data: { elicitations: [null, 3, { mode: "url" }] } } },
    { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: [] },
    { jsonrpc: "2.0", id: 2, result: { resultType: "input_required", inputRequests: [1, 2] } },
    {
      jsonrpc: "2.0",
      id: 2,
      result: { resultType: "input_required", inputRequests: { a: null, b: { method: 5 } }, requestState: 7 },
    },
  ];
  for (const m of odd) b.sse(x, m);
  const y = b.post(
    request(20, "tools/call", { name: "deploy", inputResponses: [null], requestState: { x: 1 }, _meta: "x" }),
    H(),
  );
  b.status(y, 200, { "content-type": "application/json" });
  b.json(y, {
    jsonrpc: "2.0",
    id: 20,
    result: {
      resultType: "input_required",
      inputRequests: { q: { method: "elicitation/create", params: { message: 1 } } },
    },
  });
  b.post(toolCall(21, "deploy", {}, { inputResponses: { q: null }, requestState: null }), H());
  b.records.push({ v: 1, seq: b.records.length, time: 20_000, transport: "http", kind: "response", status: 500 });
  b.records.push({
    v: 1,
    seq: b.records.length,
    time: 20_001,
    transport: "http",
    kind: "end",
    exchange: "nope",
    error: "network",
  });
  b.records.push({
    v: 1,
    seq: b.records.length,
    time: 20_002,
    transport: "stdio",
    kind: "message",
    direction: "s2c",
    stream: "stdio",
    text: "",
  });
  let r: ReturnType<typeof analyze> | undefined;
  assert.doesNotThrow(() => {
    r = analyze(b.records);
  });
  const problems = r!.problems;
  assert.ok(
    problems.some((p) => p.record === invalid && /Invalid JSON/.test(p.message)),
    JSON.stringify(problems),
  );
  assert.deepEqual(
    problems.filter((p) => p.record === cut).map((p) => p.message),
    ["Message was cut at 48 characters by the capture's size cap; it is not analysed."],
  );
  assert.ok(problems.some((p) => /Not a JSON-RPC message/.test(p.message)));
  assert.deepEqual(
    problems.filter((p) => /Internal error/.test(p.message)),
    [],
    "the engine must survive hostile shapes without an internal error",
  );
  // The engine fed one record at a time never throws either.
  const engine = createEngine();
  for (const rec of b.records) assert.doesNotThrow(() => engine.push(rec));
});

test("the disable option drops a rule", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "deploy", {}, {}, { sampling: {} }), result(1, irr({ q: ask() })), H());
  expectFinding(b.analyze(), "cap-elicitation-undeclared");
  const r = b.analyze({ disable: ["cap-elicitation-undeclared"] });
  expectNone(r, "cap-elicitation-undeclared");
  assert.equal(r.flows.length, 1);
});
