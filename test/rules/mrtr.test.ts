// rules.md §3.10 MRTR (2026-07-28). A case with no findings is a valid one.
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/mrtr/index.ts";
import {
  ask,
  done,
  error,
  form,
  irr,
  meta as requestMeta,
  modernHeaders,
  request,
  result,
  toolCall,
} from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type Expected, type InvalidCase, type Outcome } from "./ruleTester.ts";

const H = (name = "deploy") => modernHeaders("tools/call", name);
const accept = (content: Record<string, unknown> = { ok: true }) => ({ action: "accept", content });
const userName = ask({
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
});
const confirm = (msg = "Close ticket T-1?") =>
  ask({ message: msg, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } });
const teamAsk = ask(form({ team: { type: "string" } }, "Which team owns it?"));
const prioAsk = ask(form({ prio: { type: "string" } }, "Which priority is it?"));

/** One MRTR round trip: tools/call `name` id 1 gets `first`; `then` continues the capture. */
const round1 =
  (first: unknown, then: (b: Builder) => void = () => {}, name = "deploy", args: Record<string, unknown> = {}) =>
  (b: Builder) => {
    b.call(toolCall(1, name, args), result(1, first), H(name));
    then(b);
  };
/** A retry of `deploy` (id `id`) with these extra params, answered with `answer`. */
const retry =
  (id: number, extra: Record<string, unknown>, answer: unknown, name = "deploy", caps?: Record<string, unknown>) =>
  (b: Builder) =>
    b.call(toolCall(id, name, {}, extra, caps), answer, H(name));
const sameFlow = ({ findings, flows }: Outcome) => assert.equal(findings[0]!.flow, flows[0]!.id);
let mark = -1;
const marked = (b: Builder) => (mark = b.records.length);

type MrtrCase = Case & { findings: readonly Expected[] };
const cases: MrtrCase[] = [
  {
    name: "mrtr-supported-methods: an InputRequiredResult in reply to tools/list (catalogue example)",
    capture: (b) =>
      b.call(
        request(1, "tools/list", { _meta: requestMeta() }),
        result(1, {
          ...irr({ bogus: ask({ message: "x", requestedSchema: { type: "object", properties: {} } }) }),
          tools: [],
        }),
        modernHeaders("tools/list"),
      ),
    findings: [
      { rule: "mrtr-supported-methods", severity: "error", pointer: "/result/resultType", violator: "server" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-supported-methods: tools/call, prompts/get and resources/read",
    capture: (b) => {
      b.call(toolCall(1), result(1, irr({ q: ask() })), H());
      b.call(
        request(2, "prompts/get", { name: "greet", arguments: {}, _meta: requestMeta() }),
        result(2, irr({ q: ask() })),
        modernHeaders("prompts/get", "greet"),
      );
      b.call(
        request(3, "resources/read", { uri: "file:///a.txt", _meta: requestMeta() }),
        result(3, irr({ q: ask() })),
        modernHeaders("resources/read", "file:///a.txt"),
      );
    },
    findings: [],
  },
  {
    name: "mrtr-result-type-required: a result carrying inputRequests without resultType (catalogue example)",
    capture: round1({ inputRequests: { user_name: userName } }),
    findings: [{ rule: "mrtr-result-type-required", severity: "error", pointer: "/result", violator: "server" }],
    also: ({ findings }) => {
      assert.equal(findings[0]!.flow, null);
      assert.match(findings[0]!.message, /treat it as complete/);
    },
  },
  {
    name: "mrtr-result-type-required: a plain result without resultType",
    capture: round1({ content: [{ type: "text", text: "ok" }] }),
    findings: [{ rule: "mrtr-result-type-required", severity: "error", pointer: "/result" }],
  },
  {
    name: "mrtr-result-type-required: resultType complete with requestState",
    capture: round1({ resultType: "complete", requestState: "S", content: [] }),
    findings: [{ rule: "mrtr-result-type-required", severity: "error", pointer: "/result/resultType" }],
  },
  { name: "mrtr-result-type-required: a result with resultType", capture: round1(done()), findings: [] },
  {
    name: "mrtr-result-type-known: an unknown resultType (catalogue example)",
    capture: round1({ resultType: "pending" }),
    findings: [
      { rule: "mrtr-result-type-known", severity: "error", pointer: "/result/resultType", violator: "server" },
    ],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "mrtr-result-type-known: task without the tasks extension",
    capture: round1({ resultType: "task", task: { taskId: "t1" } }),
    findings: [{ rule: "mrtr-result-type-known", severity: "error", pointer: "/result/resultType" }],
  },
  {
    name: "mrtr-result-type-known: task when the request advertises the tasks extension",
    capture: retry(1, {}, result(1, { resultType: "task", task: { taskId: "t1", status: "working" } }), "deploy", {
      elicitation: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    }),
    findings: [],
  },
  {
    name: "mrtr-irr-not-empty: an IRR with neither inputRequests nor requestState (catalogue example)",
    capture: round1(irr()),
    findings: [{ rule: "mrtr-irr-not-empty", severity: "error", pointer: "/result", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "mrtr-irr-not-empty: empty inputRequests is a warning",
    capture: round1(irr({})),
    findings: [{ rule: "mrtr-irr-not-empty", severity: "warning", pointer: "/result/inputRequests" }],
  },
  { name: "mrtr-irr-not-empty: requestState alone", capture: round1(irr(undefined, "S1")), findings: [] },
  {
    name: "mrtr-input-request-method: an input request that is not elicitation, sampling or roots (catalogue example)",
    capture: round1(irr({ q: { method: "tools/call", params: { name: "x" } } })),
    findings: [
      {
        rule: "mrtr-input-request-method",
        severity: "error",
        pointer: "/result/inputRequests/q/method",
        violator: "server",
      },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-input-request-method: an elicitation/create entry without params",
    capture: round1(irr({ q: { method: "elicitation/create" } })),
    findings: [{ rule: "mrtr-input-request-method", severity: "error", pointer: "/result/inputRequests/q/params" }],
  },
  {
    name: "mrtr-input-request-method: elicitation/create with params, as {method, params}",
    capture: round1(irr({ q: ask() })),
    findings: [],
  },
  {
    name: "mrtr-input-request-shape: jsonrpc and id inside an input request (catalogue example)",
    capture: round1(
      irr({
        q: {
          jsonrpc: "2.0",
          id: 5,
          method: "elicitation/create",
          params: { message: "x", requestedSchema: { type: "object", properties: {} } },
        },
      }),
    ),
    findings: [
      { rule: "mrtr-input-request-shape", severity: "info", pointer: "/result/inputRequests/q/id", violator: "server" },
    ],
    also: ({ findings }) => assert.equal(findings[0]!.flow, "flow-1"),
  },
  {
    name: "mrtr-input-request-keys-unique: a duplicate key in the raw JSON (catalogue example)",
    capture: (b) =>
      b.call(
        toolCall(1),
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"q":{"method":"roots/list","params":{}},"q":{"method":"elicitation/create","params":{"message":"x","requestedSchema":{"type":"object","properties":{}}}}}}}',
        H(),
      ),
    findings: [
      {
        rule: "mrtr-input-request-keys-unique",
        severity: "error",
        pointer: "/result/inputRequests/q",
        violator: "server",
        record: 2,
      },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-input-request-keys-unique: distinct keys, equal keys at deeper levels, and braces inside strings",
    capture: (b) =>
      b.call(
        toolCall(1),
        '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{' +
          '"a":{"method":"elicitation/create","params":{"message":"Use {curly} \\"q\\": braces } here","requestedSchema":{"type":"object","properties":{"q":{"type":"string"}}}}},' +
          '"b":{"method":"elicitation/create","params":{"message":"Second question, please","requestedSchema":{"type":"object","properties":{"q":{"type":"string"}}}}}},' +
          '"requestState":"S"}}',
        H(),
      ),
    findings: [],
    also: ({ flows }) => assert.equal(flows[0]!.elicitations.length, 2),
  },
  {
    name: "mrtr-request-state-string: the server's requestState is an object (catalogue example)",
    capture: round1(irr({ q: ask() }, { step: 2 })),
    findings: [
      { rule: "mrtr-request-state-string", severity: "error", pointer: "/result/requestState", violator: "server" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-request-state-string: the client's retry sends a number",
    capture: round1(
      irr({ q: ask() }, "S1"),
      retry(2, { inputResponses: { q: accept() }, requestState: 123 }, result(2, done())),
    ),
    findings: [
      { rule: "mrtr-request-state-string", severity: "error", pointer: "/params/requestState", violator: "client" },
      { rule: "mrtr-echo-request-state", severity: "error", pointer: "/params/requestState" },
      { rule: "mrtr-tampered-state-accepted", severity: "info", pointer: "/result" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-request-state-string: a string echoed back",
    capture: round1(
      irr({ q: ask() }, "S1"),
      retry(2, { inputResponses: { q: accept() }, requestState: "S1" }, result(2, done())),
    ),
    findings: [],
  },
  {
    name: "mrtr-retry-new-id: the retry reuses the original id (catalogue example)",
    capture: (b) => {
      b.call(
        request(1, "tools/call", { name: "close_ticket", arguments: { id: "T-1" }, _meta: requestMeta() }),
        result(1, irr({ "elicitation-1": confirm() }, "eyJyIjp7fS")),
        H("close_ticket"),
      );
      marked(b);
      b.call(
        request(1, "tools/call", {
          name: "close_ticket",
          arguments: { id: "T-1" },
          inputResponses: { "elicitation-1": accept({ confirm: true }) },
          requestState: "eyJyIjp7fS",
          _meta: requestMeta(),
        }),
        result(1, done()),
        H("close_ticket"),
      );
    },
    findings: [{ rule: "mrtr-retry-new-id", severity: "error", pointer: "/id", violator: "client" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, mark);
      sameFlow(outcome);
      assert.equal(outcome.flows.length, 1);
    },
  },
  {
    name: "mrtr-retry-new-id: a new id",
    capture: round1(
      irr({ q: confirm() }, "S"),
      retry(2, { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" }, result(2, done())),
    ),
    findings: [],
  },
  {
    name: "mrtr-retry-same-request: the retry changes the arguments (catalogue example)",
    capture: round1(
      irr({ q: confirm("Transfer 10?") }, "S"),
      (b) =>
        b.call(
          toolCall(
            2,
            "transfer",
            { amount: 10000 },
            { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" },
          ),
          result(2, done()),
          H("transfer"),
        ),
      "transfer",
      { amount: 10 },
    ),
    findings: [
      { rule: "mrtr-retry-same-request", severity: "warning", pointer: "/params/arguments", violator: "client" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-retry-same-request: only key order and _meta change",
    capture: round1(
      irr({ q: confirm("Transfer 10?") }, "S"),
      (b) =>
        b.call(
          toolCall(
            2,
            "transfer",
            { to: "acct-1", amount: 10 },
            { inputResponses: { q: accept({ confirm: true }) }, requestState: "S" },
            { elicitation: { form: {} } },
          ),
          result(2, done()),
          H("transfer"),
        ),
      "transfer",
      { amount: 10, to: "acct-1" },
    ),
    findings: [],
  },
  {
    name: "mrtr-echo-request-state: the retry omits the state (catalogue example)",
    capture: (b) => {
      b.call(
        toolCall(1, "reassign_ticket", { id: "T-2" }),
        result(
          1,
          irr({ "elicitation-1": ask(form({ team: { type: "string" } }, "Which team should own T-2?")) }, "eyJyIjp7fS"),
        ),
        H("reassign_ticket"),
      );
      b.call(
        toolCall(
          2,
          "reassign_ticket",
          { id: "T-2" },
          { inputResponses: { "elicitation-1": accept({ team: "billing" }) } },
        ),
        result(2, done()),
        H("reassign_ticket"),
      );
    },
    findings: [{ rule: "mrtr-echo-request-state", severity: "error", pointer: "/params", violator: "client" }],
    also: sameFlow,
  },
  {
    name: "mrtr-echo-request-state: the retry alters the state",
    capture: round1(
      irr({ q: ask() }, "eyJyIjp7fS=="),
      retry(2, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS" }, error(2, -32602, "bad state")),
    ),
    findings: [{ rule: "mrtr-echo-request-state", severity: "error", pointer: "/params/requestState" }],
  },
  {
    name: "mrtr-echo-request-state: reusing an earlier round's state instead of the latest IRR's",
    capture: round1(irr({ a: ask(form({ team: { type: "string" } }, "Which team owns it?")) }, "R1"), (b) => {
      retry(
        2,
        { inputResponses: { a: accept({ team: "billing" }) }, requestState: "R1" },
        result(2, irr({ b: ask(form({ prio: { type: "string" } }, "Which priority is it?")) }, "R2")),
      )(b);
      marked(b);
      retry(
        3,
        { inputResponses: { b: accept({ prio: "high" }) }, requestState: "R1" },
        error(3, -32602, "stale state"),
      )(b);
    }),
    findings: [{ rule: "mrtr-echo-request-state", severity: "error", pointer: "/params/requestState" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, mark);
      sameFlow(outcome);
      assert.equal(outcome.flows.length, 1);
      assert.equal(outcome.flows[0]!.rounds.length, 3);
    },
  },
  {
    name: "mrtr-echo-request-state: a byte-exact echo",
    capture: round1(
      irr({ q: ask() }, "eyJyIjp7fS=="),
      retry(2, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS==" }, result(2, done())),
    ),
    findings: [],
  },
  {
    name: 'mrtr-no-invented-state: the IRR had no state but the retry sends requestState "" (catalogue example)',
    capture: round1(
      irr({ confirm: confirm() }),
      retry(2, { inputResponses: { confirm: accept({ confirm: true }) }, requestState: "" }, result(2, done())),
    ),
    findings: [
      { rule: "mrtr-no-invented-state", severity: "error", pointer: "/params/requestState", violator: "client" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-no-invented-state: the retry sends no state",
    capture: round1(
      irr({ confirm: confirm() }),
      retry(2, { inputResponses: { confirm: accept({ confirm: true }) } }, result(2, done())),
    ),
    findings: [],
  },
  {
    name: "mrtr-fulfil-before-retry: the retry lacks a requested key (catalogue example)",
    capture: round1(
      irr({
        github_login: ask(form({ name: { type: "string" } }, "Your GitHub login?")),
        capital_of_france: ask(form({ city: { type: "string" } }, "Capital of France?")),
      }),
      retry(
        2,
        { inputResponses: { github_login: accept({ name: "octocat" }) } },
        result(2, irr({ capital_of_france: ask(form({ city: { type: "string" } }, "Capital of France?")) })),
      ),
    ),
    findings: [
      { rule: "mrtr-fulfil-before-retry", severity: "error", pointer: "/params/inputResponses", violator: "client" },
    ],
    also: (outcome) => {
      assert.match(outcome.findings[0]!.message, /capital_of_france/);
      sameFlow(outcome);
    },
  },
  {
    name: "mrtr-fulfil-before-retry: every key answered, a declined one included",
    capture: round1(
      irr({ a: ask(), c: ask(form({ city: { type: "string" } }, "Capital of France?")) }),
      retry(2, { inputResponses: { a: accept(), c: { action: "decline" } } }, result(2, done())),
    ),
    findings: [],
  },
  {
    name: "mrtr-fulfil-before-retry: an IRR with requestState only (the client may retry at once)",
    capture: round1(irr(undefined, "S"), retry(2, { requestState: "S" }, result(2, done()))),
    findings: [],
    also: ({ flows }) => assert.equal(flows[0]!.status, "complete"),
  },
  {
    name: "mrtr-response-type-match: a number instead of an ElicitResult (catalogue example), and a JSON-RPC-wrapped answer",
    capture: round1(
      irr({ user_name: userName, other: ask() }),
      retry(
        2,
        { inputResponses: { user_name: 12345, other: { jsonrpc: "2.0", id: 9, result: accept() } } },
        error(2, -32602, "invalid input"),
      ),
    ),
    findings: [
      {
        rule: "mrtr-response-type-match",
        severity: "error",
        pointer: "/params/inputResponses/user_name",
        violator: "client",
      },
      { rule: "mrtr-response-type-match", severity: "error", pointer: "/params/inputResponses/other" },
    ],
    also: (outcome) => {
      sameFlow(outcome);
      assert.match(outcome.findings[1]!.message, /wrapped/);
    },
  },
  {
    name: "mrtr-response-type-match: a roots/list answer that is not a ListRootsResult",
    capture: round1(
      irr({ r: { method: "roots/list", params: {} } }),
      retry(2, { inputResponses: { r: { action: "accept" } } }, result(2, done())),
    ),
    findings: [
      { rule: "mrtr-deprecated-input-kinds", severity: "info", pointer: "/result/inputRequests/r/method" },
      { rule: "mrtr-response-type-match", severity: "error", pointer: "/params/inputResponses/r" },
      { rule: "mrtr-server-validate-input", severity: "warning", pointer: "/result" },
    ],
  },
  {
    name: "mrtr-response-type-match: an ElicitResult, a ListRootsResult and a CreateMessageResult",
    capture: round1(
      irr({
        e: ask(),
        r: { method: "roots/list", params: {} },
        s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } },
      }),
      retry(
        2,
        {
          inputResponses: {
            e: accept(),
            r: { roots: [{ uri: "file:///w" }] },
            s: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
          },
        },
        result(2, done()),
      ),
    ),
    findings: [
      { rule: "mrtr-deprecated-input-kinds", severity: "info", pointer: "/result/inputRequests/r/method" },
      { rule: "mrtr-deprecated-input-kinds", severity: "info", pointer: "/result/inputRequests/s/method" },
    ],
  },
  {
    name: "mrtr-input-responses-extra-keys: answers from an earlier round re-sent (catalogue example)",
    capture: round1(irr({ "elicitation-1": teamAsk }), (b) => {
      retry(
        2,
        { inputResponses: { "elicitation-1": accept({ team: "billing" }) } },
        result(2, irr({ "elicitation-2": prioAsk })),
      )(b);
      retry(
        3,
        { inputResponses: { "elicitation-1": accept({ team: "billing" }), "elicitation-2": accept({ prio: "high" }) } },
        result(3, done()),
      )(b);
    }),
    findings: [
      {
        rule: "mrtr-input-responses-extra-keys",
        severity: "info",
        pointer: "/params/inputResponses/elicitation-1",
        violator: "client",
      },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-input-responses-extra-keys: only the latest keys answered",
    capture: round1(irr({ "elicitation-1": teamAsk }), (b) => {
      retry(
        2,
        { inputResponses: { "elicitation-1": accept({ team: "billing" }) } },
        result(2, irr({ "elicitation-2": prioAsk })),
      )(b);
      retry(3, { inputResponses: { "elicitation-2": accept({ prio: "high" }) } }, result(3, done()))(b);
    }),
    findings: [],
  },
  {
    name: "mrtr-parallel-isolation: requestState of one tool presented on an unrelated tool (catalogue example)",
    capture: round1(
      irr({ q: ask() }, "S1"),
      (b) => {
        marked(b);
        b.call(
          toolCall(7, "test_mrtr_unrelated", {}, { requestState: "S1" }),
          result(7, done()),
          H("test_mrtr_unrelated"),
        );
      },
      "test_mrtr_echo_state",
    ),
    findings: [
      { rule: "mrtr-parallel-isolation", severity: "error", pointer: "/params/requestState", violator: "client" },
    ],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, mark);
      sameFlow(outcome);
    },
  },
  {
    name: "mrtr-parallel-isolation: inputResponses on tools/list",
    capture: round1(irr({ q: ask() }, "S1"), (b) =>
      b.call(
        request(5, "tools/list", { requestState: "S1", _meta: requestMeta() }),
        result(5, { resultType: "complete", tools: [] }),
        modernHeaders("tools/list"),
      ),
    ),
    findings: [{ rule: "mrtr-parallel-isolation", severity: "error", pointer: "/params" }],
    also: sameFlow,
  },
  {
    name: "mrtr-parallel-isolation: one state on two in-flight retries",
    capture: round1(irr({ q: ask() }, "S1"), (b) => {
      const x = b.post(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), H());
      b.status(x, 200, { "content-type": "text/event-stream" });
      marked(b);
      b.post(toolCall(3, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S1" }), H());
    }),
    findings: [{ rule: "mrtr-parallel-isolation", severity: "error", pointer: "/params/requestState" }],
    also: ({ findings }) => assert.equal(findings[0]!.record, mark),
  },
  {
    name: "mrtr-parallel-isolation: an unrelated call without state",
    capture: round1(
      irr({ q: ask() }, "S1"),
      (b) => {
        b.call(toolCall(7, "test_mrtr_unrelated"), result(7, done()), H("test_mrtr_unrelated"));
        b.call(
          toolCall(8, "test_mrtr_echo_state", {}, { inputResponses: { q: accept() }, requestState: "S1" }),
          result(8, done()),
          H("test_mrtr_echo_state"),
        );
      },
      "test_mrtr_echo_state",
    ),
    findings: [],
  },
  {
    name: "mrtr-unsolicited-input-responses: the first-ever request carries inputResponses (catalogue example)",
    capture: (b) =>
      b.call(
        toolCall(1, "connect_billing", {}, { inputResponses: { "elicitation-1": { action: "accept" } } }),
        result(1, done()),
        H("connect_billing"),
      ),
    findings: [
      {
        rule: "mrtr-unsolicited-input-responses",
        severity: "warning",
        pointer: "/params",
        violator: "client",
        record: 0,
      },
    ],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "mrtr-unsolicited-input-responses: after an IRR",
    capture: round1(
      irr({ "elicitation-1": ask() }),
      (b) =>
        b.call(
          toolCall(2, "connect_billing", {}, { inputResponses: { "elicitation-1": accept() } }),
          result(2, done()),
          H("connect_billing"),
        ),
      "connect_billing",
    ),
    findings: [],
  },
  {
    name: "mrtr-absent-result-type-is-complete: the client retries after a result without resultType (catalogue example)",
    capture: (b) => {
      b.call(
        toolCall(3, "test_mrtr_no_result_type"),
        result(3, { content: [{ type: "text", text: "ok" }] }),
        H("test_mrtr_no_result_type"),
      );
      marked(b);
      b.call(
        toolCall(4, "test_mrtr_no_result_type", {}, { inputResponses: { q: accept() } }),
        result(4, done()),
        H("test_mrtr_no_result_type"),
      );
    },
    findings: [
      { rule: "mrtr-result-type-required", severity: "error", pointer: "/result" },
      { rule: "mrtr-absent-result-type-is-complete", severity: "error", pointer: "/params", violator: "client" },
    ],
    also: ({ findings }) => {
      assert.equal(findings[1]!.record, mark);
      assert.equal(findings[1]!.flow, null);
    },
  },
  {
    name: "mrtr-absent-result-type-is-complete: the client treats it as complete (the missing resultType is the server's)",
    capture: (b) => {
      b.call(
        toolCall(3, "test_mrtr_no_result_type"),
        result(3, { content: [{ type: "text", text: "ok" }] }),
        H("test_mrtr_no_result_type"),
      );
      b.call(toolCall(4, "test_mrtr_no_result_type"), result(4, done()), H("test_mrtr_no_result_type"));
    },
    findings: [{ rule: "mrtr-result-type-required", severity: "error", pointer: "/result" }],
  },
  {
    name: "mrtr-server-rerequest-missing: a wrong key answered with an error instead of a new IRR (catalogue example)",
    capture: round1(
      irr({ user_name: userName }),
      retry(
        2,
        { inputResponses: { wrong_key: { action: "accept", content: { data: "x" } } } },
        error(2, -32602, "missing user_name"),
      ),
    ),
    findings: [
      { rule: "mrtr-fulfil-before-retry", severity: "error", pointer: "/params/inputResponses" },
      { rule: "mrtr-input-responses-extra-keys", severity: "info", pointer: "/params/inputResponses/wrong_key" },
      { rule: "mrtr-server-rerequest-missing", severity: "warning", pointer: "/error", violator: "server" },
    ],
    also: ({ findings, flows }) => assert.equal(findings[2]!.flow, flows[0]!.id),
  },
  {
    name: "mrtr-server-rerequest-missing: the server asks again",
    capture: round1(
      irr({ user_name: userName }),
      retry(
        2,
        { inputResponses: { wrong_key: { action: "accept", content: { data: "x" } } } },
        result(2, irr({ user_name: userName })),
      ),
    ),
    findings: [
      { rule: "mrtr-fulfil-before-retry", severity: "error", pointer: "/params/inputResponses" },
      { rule: "mrtr-input-responses-extra-keys", severity: "info", pointer: "/params/inputResponses/wrong_key" },
    ],
    also: ({ flows }) => assert.equal(flows[0]!.rounds.length, 2),
  },
  {
    name: "mrtr-server-ignore-extra: every key plus an unknown one, answered with -32602 (catalogue example)",
    capture: round1(
      irr({ user_name: userName }),
      retry(
        2,
        { inputResponses: { user_name: accept({ name: "Alice" }), unknown_extra_key: accept({ foo: "bar" }) } },
        error(2, -32602, "unexpected key"),
      ),
    ),
    findings: [
      {
        rule: "mrtr-input-responses-extra-keys",
        severity: "info",
        pointer: "/params/inputResponses/unknown_extra_key",
      },
      { rule: "mrtr-server-ignore-extra", severity: "warning", pointer: "/error", violator: "server" },
    ],
    also: ({ findings, flows }) => assert.equal(findings[1]!.flow, flows[0]!.id),
  },
  {
    name: "mrtr-server-ignore-extra: the server completes",
    capture: round1(
      irr({ user_name: userName }),
      retry(
        2,
        { inputResponses: { user_name: accept({ name: "Alice" }), unknown_extra_key: accept({ foo: "bar" }) } },
        result(2, done()),
      ),
    ),
    findings: [
      {
        rule: "mrtr-input-responses-extra-keys",
        severity: "info",
        pointer: "/params/inputResponses/unknown_extra_key",
      },
    ],
  },
  {
    name: "mrtr-server-validate-input: inputResponses null accepted with a complete result (catalogue example)",
    capture: round1(irr({ user_name: userName }), retry(2, { inputResponses: null }, result(2, done()))),
    findings: [
      { rule: "mrtr-fulfil-before-retry", severity: "error", pointer: "/params" },
      { rule: "mrtr-server-validate-input", severity: "warning", pointer: "/result", violator: "server" },
    ],
    also: ({ findings, flows }) => assert.equal(findings[1]!.flow, flows[0]!.id),
  },
  {
    name: "mrtr-server-validate-input: a number for an ElicitResult accepted",
    capture: round1(
      irr({ user_name: userName }),
      retry(2, { inputResponses: { user_name: 12345 } }, result(2, done())),
    ),
    findings: [
      { rule: "mrtr-response-type-match", severity: "error", pointer: "/params/inputResponses/user_name" },
      { rule: "mrtr-server-validate-input", severity: "warning", pointer: "/result" },
    ],
  },
  {
    name: "mrtr-server-validate-input: malformed input rejected with an error (and that is no rerequest-missing)",
    capture: round1(
      irr({ user_name: userName }),
      retry(2, { inputResponses: null }, error(2, -32602, "inputResponses must be an object")),
    ),
    findings: [{ rule: "mrtr-fulfil-before-retry", severity: "error", pointer: "/params" }],
  },
  {
    name: "mrtr-tampered-state-accepted: an altered requestState still completes (catalogue example)",
    capture: round1(
      irr({ q: ask() }, "eyJyIjp7fS"),
      retry(2, { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS-TAMPERED" }, result(2, done())),
    ),
    findings: [
      { rule: "mrtr-echo-request-state", severity: "error", pointer: "/params/requestState" },
      { rule: "mrtr-tampered-state-accepted", severity: "info", pointer: "/result", violator: "server" },
    ],
    also: ({ findings, flows }) => assert.equal(findings[1]!.flow, flows[0]!.id),
  },
  {
    name: "mrtr-tampered-state-accepted: the server rejects the altered state",
    capture: round1(
      irr({ q: ask() }, "eyJyIjp7fS"),
      retry(
        2,
        { inputResponses: { q: accept() }, requestState: "eyJyIjp7fS-TAMPERED" },
        error(2, -32602, "invalid requestState"),
      ),
    ),
    findings: [{ rule: "mrtr-echo-request-state", severity: "error", pointer: "/params/requestState" }],
  },
  {
    name: "mrtr-state-replay: one requestState completes two retries",
    capture: round1(irr({ q: ask() }, "S1"), (b) => {
      retry(2, { inputResponses: { q: accept() }, requestState: "S1" }, result(2, done()))(b);
      marked(b);
      retry(3, { inputResponses: { q: accept() }, requestState: "S1" }, result(3, done()))(b);
    }),
    findings: [{ rule: "mrtr-state-replay", severity: "info", pointer: "/result", violator: "server" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, mark + 2);
      sameFlow(outcome);
    },
  },
  {
    name: "mrtr-state-replay: one completion, and a replay the server rejects",
    capture: round1(irr({ q: ask() }, "S1"), (b) => {
      retry(2, { inputResponses: { q: accept() }, requestState: "S1" }, result(2, done()))(b);
      retry(3, { inputResponses: { q: accept() }, requestState: "S1" }, error(3, -32602, "state already used"))(b);
    }),
    findings: [],
  },
  {
    name: "mrtr-irr-mixed-payload: an IRR that also carries content (catalogue example)",
    capture: round1({ ...irr({ q: ask() }), content: [{ type: "text", text: "partial" }] }),
    findings: [{ rule: "mrtr-irr-mixed-payload", severity: "info", pointer: "/result/content", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "mrtr-irr-mixed-payload: a prompts/get IRR with messages",
    capture: (b) =>
      b.call(
        request(1, "prompts/get", { name: "greet", _meta: requestMeta() }),
        result(1, { ...irr({ q: ask() }), messages: [] }),
        modernHeaders("prompts/get", "greet"),
      ),
    findings: [{ rule: "mrtr-irr-mixed-payload", severity: "info", pointer: "/result/messages" }],
  },
  {
    name: "mrtr-deprecated-input-kinds: roots/list (catalogue example) and sampling/createMessage",
    capture: round1(
      irr({
        r: { method: "roots/list", params: {} },
        s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
      }),
    ),
    findings: [
      {
        rule: "mrtr-deprecated-input-kinds",
        severity: "info",
        pointer: "/result/inputRequests/r/method",
        violator: "server",
      },
      { rule: "mrtr-deprecated-input-kinds", severity: "info", pointer: "/result/inputRequests/s/method" },
    ],
    also: sameFlow,
  },
  {
    name: "mrtr-retry-headers: the retry's Mcp-Name differs from the body (catalogue example)",
    capture: round1(
      irr({ q: ask(form({ city: { type: "string" } }, "Which city do you mean?")) }, "S"),
      (b) => {
        marked(b);
        b.call(
          toolCall(2, "get_forecast", {}, { inputResponses: { q: accept({ city: "Paris" }) }, requestState: "S" }),
          result(2, done()),
          modernHeaders("tools/call", "get_weather"),
        );
      },
      "get_forecast",
    ),
    findings: [{ rule: "mrtr-retry-headers", severity: "error", pointer: "", violator: "client" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, mark);
      assert.match(outcome.findings[0]!.message, /get_weather/);
      sameFlow(outcome);
    },
  },
  {
    name: "mrtr-retry-headers: headers missing",
    capture: round1(irr({ q: ask() }, "S"), (b) =>
      b.call(toolCall(2, "deploy", {}, { inputResponses: { q: accept() }, requestState: "S" }), result(2, done()), {
        "mcp-protocol-version": "2026-07-28",
      }),
    ),
    findings: [{ rule: "mrtr-retry-headers", severity: "error", pointer: "" }],
    also: ({ findings }) => {
      assert.match(findings[0]!.message, /Mcp-Method is missing/);
      assert.match(findings[0]!.message, /Mcp-Name is missing/);
    },
  },
  {
    name: "mrtr-retry-headers: the retry carries its own matching headers",
    capture: round1(
      irr({ q: ask() }, "S"),
      (b) =>
        b.call(
          toolCall(2, "get_forecast", {}, { inputResponses: { q: accept() }, requestState: "S" }),
          result(2, done()),
          modernHeaders("tools/call", "get_forecast"),
        ),
      "get_forecast",
    ),
    findings: [],
  },
  {
    name: "MRTR rules stay out of 2025-xx traffic",
    capture: (b) => b.call(request(1, "tools/call", { name: "deploy", arguments: {} }), result(1, { content: [] })),
    findings: [],
  },
];

ruleTester("mrtr", meta, {
  valid: cases.filter((c) => c.findings.length === 0),
  invalid: cases.filter((c): c is InvalidCase => c.findings.length > 0),
});
