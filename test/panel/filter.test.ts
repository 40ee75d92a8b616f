import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Finding, Flow } from "../../src/engine/index.ts";
import type { Severity } from "../../src/engine/ruleKit/types.ts";
import { matchFlow, parseFilter, type FlowFacts } from "../../panel/model/filter.ts";
import { aiSdkAnswer, aiSdkAsk, backendFlow, byTime, run } from "../engine/relayFixtures.ts";

// The filter box's language (panel/filter.ts): parsing, then matching against a flow, its findings and its texts.

const flow = (over: Partial<Flow> = {}): Flow => ({
  id: "flow-1",
  kind: "server-request",
  revision: "2025-11-25",
  method: "tools/call",
  target: "deploy",
  server: "http://127.0.0.1:3000/mcp",
  session: "s-1",
  elicitations: [],
  rounds: [],
  status: "complete",
  startedAt: 0,
  serverMs: 0,
  userMs: 0,
  records: [],
  ...over,
});
const elicitation = (mode: string): Flow["elicitations"][number] => ({
  key: "0",
  mode,
  message: "?",
  action: "accept",
  completed: true,
  round: 1,
  askRecord: 0,
  askPointer: "",
  askedAt: 0,
});
const finding = (rule: string, severity: Severity): Finding => ({
  id: "F1",
  rule: rule as Finding["rule"],
  severity,
  violator: "server",
  flow: "flow-1",
  record: 0,
  entry: 0,
  pointer: "",
  message: "",
  spec: "",
});
const facts = (f: Partial<Flow> = {}, findings: Finding[] = [], text = ""): FlowFacts => ({
  flow: flow(f),
  findings,
  text,
});
const match = (input: string, f: FlowFacts): boolean => {
  const parsed = parseFilter(input);
  assert.deepEqual(parsed.errors, [], `errors for ${input}`);
  return matchFlow(parsed, f);
};

describe("parseFilter", () => {
  test("empty input: nothing, and every flow matches", () => {
    for (const input of ["", "   ", "\t\n"]) {
      assert.deepEqual(parseFilter(input), { tokens: [], text: [], errors: [] });
      assert.equal(matchFlow(parseFilter(input), facts()), true);
    }
  });

  test("every key, negation, quoting, free text", () => {
    const parsed = parseFilter(
      'method:tools/call status:pending -rule:url-https severity:warning server:127.0.0.1 era:2026 mode:URL "Quoted Free  Text" Deploy',
    );
    assert.deepEqual(parsed.tokens, [
      { key: "method", value: "tools/call", negate: false },
      { key: "status", value: "pending", negate: false },
      { key: "rule", value: "url-https", negate: true },
      { key: "severity", value: "warning", negate: false },
      { key: "server", value: "127.0.0.1", negate: false },
      { key: "era", value: "2026", negate: false },
      { key: "mode", value: "url", negate: false },
    ]);
    assert.deepEqual(parsed.text, ["quoted free  text", "deploy"]);
    assert.deepEqual(parsed.errors, []);
  });

  test("quoted values, escapes, an unclosed quote, keys in any case", () => {
    assert.deepEqual(parseFilter('server:"my host" Method:x').tokens, [
      { key: "server", value: "my host", negate: false },
      { key: "method", value: "x", negate: false },
    ]);
    assert.deepEqual(parseFilter('"say \\"hi\\"" "still typing').text, ['say "hi"', "still typing"]);
  });

  test("unknown keys and empty or impossible values are errors, and ignored", () => {
    const parsed = parseFilter("foo:bar status: status:done severity:loud method:ok");
    assert.deepEqual(parsed.tokens, [{ key: "method", value: "ok", negate: false }]);
    assert.equal(parsed.errors.length, 4);
    assert.match(
      parsed.errors[0]!,
      /Unknown filter "foo:"; use method:, status:, mode:, rule:, severity:, server:, era:/,
    );
    assert.match(parsed.errors[1]!, /"status:" needs a value/);
    assert.match(parsed.errors[2]!, /No status "done"/);
    assert.match(parsed.errors[3]!, /No severity "loud"/);
  });

  test("URLs, times and a leading dash are free text", () => {
    assert.deepEqual(parseFilter("https://example.com/x 12:30 -deploy").text, [
      "https://example.com/x",
      "12:30",
      "-deploy",
    ]);
    assert.deepEqual(parseFilter("https://example.com/x").errors, []);
  });
});

describe("matchFlow", () => {
  test("method: the method or the tool, prompt or resource it names", () => {
    assert.equal(match("method:tools/call", facts()), true);
    assert.equal(match("method:DEPLOY", facts()), true);
    assert.equal(match("method:prompts/get", facts()), false);
  });

  test("status: by name or prefix", () => {
    assert.equal(match("status:pending", facts({ status: "pending" })), true);
    assert.equal(match("status:pend", facts({ status: "pending" })), true);
    assert.equal(match("status:pending", facts({ status: "complete" })), false);
  });

  test("mode: any elicitation of the flow in that mode", () => {
    const both = facts({ elicitations: [elicitation("form"), elicitation("url")] });
    assert.equal(match("mode:url", both), true);
    assert.equal(match("mode:form", facts({ elicitations: [elicitation("form")] })), true);
    assert.equal(match("mode:url", facts({ elicitations: [elicitation("form")] })), false);
    assert.equal(match("mode:form", facts()), false);
  });

  test("rule: a finding of the flow with that rule (or a part of its id)", () => {
    const f = facts({}, [finding("url-https", "info")]);
    assert.equal(match("rule:url-https", f), true);
    assert.equal(match("rule:url", f), true);
    assert.equal(match("rule:form-secret-field", f), false);
    assert.equal(match("rule:url-https", facts()), false);
  });

  test("severity: that severity and above", () => {
    const info = facts({}, [finding("url-https", "info")]);
    const warning = facts({}, [finding("cap-before-initialized", "warning")]);
    const error = facts({}, [finding("form-secret-field", "error")]);
    assert.deepEqual(
      [info, warning, error].map((f) => match("severity:warning", f)),
      [false, true, true],
    );
    assert.deepEqual(
      [info, warning, error].map((f) => match("severity:error", f)),
      [false, false, true],
    );
    assert.deepEqual(
      [info, warning, error].map((f) => match("severity:info", f)),
      [true, true, true],
    );
    assert.deepEqual(
      [info, warning, error].map((f) => match("severity:warn", f)),
      [false, true, true],
    );
    assert.equal(match("severity:info", facts()), false);
    assert.deepEqual(
      [info, warning, error].map((f) => match("-severity:warning", f)),
      [true, false, false],
    );
  });

  test("server: part of the endpoint", () => {
    assert.equal(match("server:127.0.0.1", facts()), true);
    assert.equal(match("server::3000/mcp", facts()), true);
    assert.equal(match("server:example.com", facts()), false);
  });

  test("era: a revision prefix, modern, legacy or unknown", () => {
    const legacy = facts();
    const modern = facts({ revision: "2026-07-28", kind: "mrtr" });
    const unknown = facts({ revision: null });
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:2026", f)),
      [false, true, false],
    );
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:2025-11-25", f)),
      [true, false, false],
    );
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:2025", f)),
      [true, false, false],
    );
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:modern", f)),
      [false, true, false],
    );
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:legacy", f)),
      [true, false, false],
    );
    assert.deepEqual(
      [legacy, modern, unknown].map((f) => match("era:unknown", f)),
      [false, false, true],
    );
  });

  test("negation excludes", () => {
    assert.equal(match("-status:complete", facts()), false);
    assert.equal(match("-status:pending", facts()), true);
    assert.equal(match("-rule:url-https", facts({}, [finding("url-https", "info")])), false);
    assert.equal(match("-rule:url-https", facts({}, [finding("url-punycode", "warning")])), true);
  });

  test("the same key repeated ORs; negated ones each exclude", () => {
    const pending = facts({ status: "pending" });
    const error = facts({ status: "error" });
    const complete = facts({ status: "complete" });
    assert.deepEqual(
      [pending, error, complete].map((f) => match("status:pending status:error", f)),
      [true, true, false],
    );
    assert.deepEqual(
      [pending, error, complete].map((f) => match("-status:pending -status:error", f)),
      [false, false, true],
    );
    assert.deepEqual(
      [pending, error, complete].map((f) => match("status:p status:e -status:error", f)),
      [true, false, false],
    );
  });

  test("different keys AND", () => {
    const f = facts({ status: "pending" }, [finding("url-https", "info")]);
    assert.equal(match("status:pending rule:url-https", f), true);
    assert.equal(match("status:pending rule:form-secret-field", f), false);
    assert.equal(match("status:complete rule:url-https", f), false);
    assert.equal(match("method:tools/call status:pending -rule:url-https", f), false);
  });

  test("free text: every word and phrase, case-insensitive, in the payload texts", () => {
    const text =
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"deploy","arguments":{"env":"production"}}}'.toLowerCase();
    const f = facts({}, [], text);
    assert.equal(match("Deploy", f), true);
    assert.equal(match("deploy PRODUCTION", f), true);
    assert.equal(match('"arguments\\":{\\"env"', f), true);
    assert.equal(match("deploy staging", f), false);
    assert.equal(match('method:tools/call "name\\":\\"deploy"', f), true);
  });

  test("unknown keys do not filter", () => {
    const parsed = parseFilter("colour:red status:complete");
    assert.equal(parsed.errors.length, 1);
    assert.equal(matchFlow(parsed, facts()), true);
  });

  test("frame: the browser's frame (top, a subframe's id, its origin); a capture that names none matches no frame:", () => {
    const top: FlowFacts = { ...facts(), frame: "top http://127.0.0.1:3000" };
    const sub: FlowFacts = { ...facts(), frame: "frame 7 http://localhost:3000" };
    assert.equal(match("frame:top", top), true);
    assert.equal(match("frame:top", sub), false);
    assert.equal(match("frame:7", sub), true);
    assert.equal(match("frame:7", top), false);
    assert.equal(match("frame:localhost", sub), true);
    assert.equal(match("-frame:top", sub), true);
    assert.equal(match("frame:top", facts()), false);
  });
});

test("source: backend flows (mcp-elicit proxy) and the page's, a joined flow being both", () => {
  const accept = { action: "accept", content: { confirm: true } };
  const joined = run(
    byTime([...backendFlow(1000, accept), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", accept)]),
  ).flows.find((f) => f.source === "backend")!;
  const backendOnly = run(backendFlow(1000, accept)).flows[0]!;
  const pageOnly = run([aiSdkAsk(1030, "e1")]).flows[0]!;
  const hit = (input: string, flow: typeof joined) => matchFlow(parseFilter(input), { flow, findings: [], text: "" });
  assert.deepEqual(
    [joined, backendOnly, pageOnly].map((f) => hit("source:backend", f)),
    [true, true, false],
  );
  assert.deepEqual(
    [joined, backendOnly, pageOnly].map((f) => hit("source:page", f)),
    [true, false, true],
  );
  assert.deepEqual(
    [joined, backendOnly, pageOnly].map((f) => hit("-source:backend", f)),
    [false, false, true],
  );
  assert.match(parseFilter("source:agent").errors[0]!, /No source "agent"/);
});
