import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { analyze, type Flow } from "../../src/engine/index.ts";
import { userIntervals } from "../../panel/model/flowFacts.ts";
import { flowOutcome, outcomeOf } from "../../panel/model/outcome.ts";
import { createFlowStore } from "../../panel/state/store.ts";
import {
  captureBuilder,
  error,
  form,
  legacySession,
  legacyToolCall,
  request,
  result,
  streamCall,
} from "../helpers/capture.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { demo } from "./corpus.ts";

/** A store showing `records` as an imported file, as the panel's import leaves it. */
function storeOf(records: readonly CaptureRecord[]) {
  const store = createFlowStore();
  const r = analyze(records);
  store.openFile("t.jsonl");
  store.ingestFile({ flows: r.flows, findings: r.findings, problems: r.problems, records }, true);
  return store;
}
const outcomes = (store: ReturnType<typeof createFlowStore>) =>
  store.flows.value.map((f) => flowOutcome(f, store.record).text);

/** use-mcp's answer: it declares no elicitation, so a forced elicitation/create gets -32601. */
function errorAnswerCapture(answered = true) {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", {});
  const x = streamCall(b, legacyToolCall(1, "deploy"), h);
  b.sse(x, request(0, "elicitation/create", form({ api_key: { type: "string" } })));
  b.wait(800);
  if (!answered) return b.records;
  b.accepted(error(0, -32601, "Method not found"), h);
  b.sse(x, result(1, { content: [{ type: "text", text: "This client cannot ask" }], isError: true }));
  b.end(x);
  return b.records;
}

describe("panel outcome column", () => {
  test("the demo capture: each flow's answers as the engine read them, a run of equal ones counted, -32042 completed", () => {
    const store = storeOf(demo);
    const flows = analyze(demo).flows;
    const want = flows.map((f) => {
      if (f.kind === "url-required-error") return "completed";
      const actions = f.elicitations.map((e) => e.action!);
      return actions.every((a) => a === actions[0]) && actions.length > 1
        ? `${actions[0]} ×${actions.length}`
        : actions.join(", ");
    });
    assert.deepEqual(outcomes(store), want);
    assert.equal(outcomes(store)[1], "decline");
    assert.equal(outcomes(store)[2], "cancel");
    assert.equal(outcomes(store)[12], "accept ×3");
    const declined = store.flows.value[1]!;
    assert.equal(flowOutcome(declined, store.record).className, "action decline");
  });

  test("a client's error answer reads `error <code>` from its record, is not user time, and outranks other outcomes", () => {
    const store = storeOf(errorAnswerCapture());
    const flow = store.flows.value[0]!;
    const o = outcomeOf(flow.elicitations[0]!, flow, store.record);
    assert.deepEqual(o, { kind: "error", code: -32601, message: "Method not found", text: "error -32601" });
    assert.equal(flowOutcome(flow, store.record).className, "outcome-error");
    assert.equal(flow.userMs, 0);
    assert.deepEqual(userIntervals(flow, Date.now()), [], "no user time drawn on the timeline");
    // Without its record (a live snapshot still loading), it still says error.
    assert.equal(outcomeOf(flow.elicitations[0]!, flow, () => undefined).text, "error");
    const mixed: Flow = {
      ...flow,
      elicitations: [{ ...flow.elicitations[0]!, action: "accept", answerPointer: "/result" }, flow.elicitations[0]!],
    };
    assert.deepEqual(
      [flowOutcome(mixed, store.record).text, flowOutcome(mixed, store.record).className],
      ["accept, error -32601", "outcome-error"],
    );
  });

  test("an open question is `waiting`; once the flow ended without an answer, `no answer`", () => {
    const store = storeOf(errorAnswerCapture(false));
    const flow = store.flows.value[0]!;
    assert.equal(flow.status, "pending");
    assert.equal(flowOutcome(flow, store.record).text, "waiting");
    assert.equal(flowOutcome(flow, store.record).className, "outcome-waiting");
    assert.equal(flowOutcome({ ...flow, status: "abandoned" }, store.record).text, "no answer");
    // A file's open flow ends where its records do (the timeline's clock for a file), not at the wall clock.
    assert.equal(store.lastTime.value, Math.max(...errorAnswerCapture(false).map((r) => r.time)));
  });
});
