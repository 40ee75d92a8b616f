import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyze } from "../src/engine/index.ts";
import type { Finding, Flow } from "../src/engine/index.ts";
import { mergeCaptures, runAll, runScenario, scenarios } from "./peers/scenarios.ts";

// The engine over real SDK traffic: each scenario gives the flows it should, and clean peers earn no error.

interface Expected {
  kind: Flow["kind"];
  method: string;
  target: string;
  rounds: number;
  status: Flow["status"];
  /** [key, mode, action, completed, round] */
  elicitations: [string, string, string | null, boolean, number][];
}

const legacy = (target: string, elicitations: Expected["elicitations"], more: Partial<Expected> = {}): Expected => ({
  kind: "server-request",
  method: "tools/call",
  target,
  rounds: 1,
  status: "complete",
  elicitations,
  ...more,
});
const mrtr = (
  target: string,
  rounds: number,
  elicitations: Expected["elicitations"],
  method = "tools/call",
): Expected => ({
  kind: "mrtr",
  method,
  target,
  rounds,
  status: "complete",
  elicitations,
});

const expected: Record<string, Expected[]> = {
  "legacy-form-accept": [legacy("confirm_action", [["0", "form", "accept", true, 1]])],
  "legacy-form-decline": [legacy("confirm_action", [["0", "form", "decline", true, 1]])],
  "legacy-form-cancel": [legacy("confirm_action", [["0", "form", "cancel", true, 1]])],
  "legacy-form-multi-field": [legacy("register_user", [["0", "form", "accept", true, 1]])],
  "legacy-url-complete": [legacy("sign_in", [["0", "url", "accept", true, 1]])],
  // -32042 entries carry no answer on the wire; the notification and the successful retry complete it.
  "legacy-url-required-retry": [
    legacy("list_repositories", [["consent-1", "url", null, true, 1]], { kind: "url-required-error", rounds: 2 }),
  ],
  "legacy-no-elicitation-capability": [],
  "legacy-two-sequential": [
    legacy("plan_trip", [
      ["0", "form", "accept", true, 1],
      ["1", "form", "accept", true, 1],
    ]),
  ],
  "legacy-get-stream": [legacy("background_approval", [["0", "form", "accept", true, 1]])],
  "modern-form-accept": [mrtr("confirm_action", 2, [["confirm", "form", "accept", true, 1]])],
  "modern-form-decline": [mrtr("confirm_action", 2, [["confirm", "form", "decline", true, 1]])],
  "modern-form-cancel": [mrtr("confirm_action", 2, [["confirm", "form", "cancel", true, 1]])],
  "modern-two-rounds": [
    mrtr("plan_trip", 3, [
      ["city", "form", "accept", true, 1],
      ["nights", "form", "accept", true, 2],
    ]),
  ],
  "modern-three-rounds": [
    mrtr("deploy", 4, [
      ["env", "form", "accept", true, 1],
      ["confirm", "form", "accept", true, 2],
      ["reason", "form", "accept", true, 3],
    ]),
  ],
  "modern-two-keyed": [
    mrtr("book_meeting", 2, [
      ["date", "form", "accept", true, 1],
      ["room", "form", "accept", true, 1],
    ]),
  ],
  // No completion notification in 2026-07-28: the successful retry completes the URL elicitation.
  "modern-url": [mrtr("sign_in", 2, [["signin", "url", "accept", true, 1]])],
  "modern-prompt": [mrtr("draft_reply", 2, [["tone", "form", "accept", true, 1]], "prompts/get")],
  "modern-resource": [mrtr("notes://private/today", 2, [["reveal", "form", "accept", true, 1]], "resources/read")],
  "modern-no-elicitation-capability": [],
  "modern-mixed-session": [
    mrtr("confirm_action", 2, [["confirm", "form", "accept", true, 1]]),
    mrtr("draft_reply", 2, [["tone", "form", "accept", true, 1]], "prompts/get"),
  ],
};

const shape = (flow: Flow) => ({
  kind: flow.kind,
  method: flow.method,
  target: flow.target,
  rounds: flow.rounds.length,
  status: flow.status,
  elicitations: flow.elicitations.map((e) => [e.key, e.mode, e.action, e.completed, e.round]),
});
const errors = (findings: Finding[]): string[] =>
  findings.filter((f) => f.severity === "error").map((f) => `${f.rule} @${f.record}: ${f.message}`);
const limit = { timeout: 20_000 };

describe("engine on real SDK traffic", () => {
  for (const scenario of scenarios) {
    test(scenario.name, limit, async () => {
      const { records } = await runScenario(scenario);
      const { flows, findings, problems } = analyze(records);
      const want = expected[scenario.name];
      assert.ok(want, `no expectation for ${scenario.name}`);
      assert.deepEqual(flows.map(shape), want);
      for (const flow of flows) assert.equal(flow.revision, scenario.era === "legacy" ? "2025-11-25" : "2026-07-28");
      assert.deepEqual(errors(findings), []);
      assert.deepEqual(problems, []);
    });
  }

  test("all scenarios in one capture, one server per era (as in the demo)", limit, async () => {
    const { flows, findings, problems } = analyze(mergeCaptures(await runAll()));
    const want = scenarios.flatMap((s) => expected[s.name] ?? []);
    // Keys of -32042 entries come from the shared server's counter, so compare without them.
    const withoutKeys = (list: ReturnType<typeof shape>[] | Expected[]) =>
      list.map((f) => ({ ...f, elicitations: f.elicitations.map((e) => e.slice(1)) }));
    assert.deepEqual(withoutKeys(flows.map(shape)), withoutKeys(want));
    assert.deepEqual(errors(findings), []);
    assert.deepEqual(problems, []);
  });
});
