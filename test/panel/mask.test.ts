import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { REDACTED, redactRecords } from "../../src/capture/redact.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { createFlowStore } from "../../panel/state/store.ts";
import { roundSteps } from "../../panel/model/roundDiff.ts";
import {
  captureBuilder,
  form,
  legacySession,
  legacyToolCall,
  request,
  result,
  streamCall,
} from "../helpers/capture.ts";
import { demo, SECRETS, secretCapture } from "./corpus.ts";

function storeOf(records: readonly CaptureRecord[]) {
  const store = createFlowStore();
  const r = analyze(records);
  store.openFile("t.jsonl");
  store.ingestFile({ flows: r.flows, findings: r.findings, problems: r.problems, records }, true);
  return store;
}
/** Everything a flow's views read through its view: questions, records, finding messages. */
function everything(store: ReturnType<typeof createFlowStore>, flowId: string): string {
  const view = store.view(store.flow(flowId)!);
  const records = view.flow.records.map((seq) => JSON.stringify(view.record(seq)));
  return (
    JSON.stringify(view.flow) +
    records.join("\n") +
    store
      .findingsOf(flowId)
      .map((f) => store.findingText(f))
      .join("\n")
  );
}

describe("panel masking", () => {
  test("secret form answers, URL tokens, API keys and JWTs are masked in every view of every flow; the engine's flows are untouched", () => {
    const store = storeOf(secretCapture());
    for (const flow of store.flows.value) {
      const text = everything(store, flow.id);
      for (const [name, secret] of Object.entries(SECRETS))
        assert.ok(!text.includes(secret), `${flow.id} shows the ${name}`);
    }
    const register = store.flows.value.find((f) => f.target === "register_user" && f.revision === "2025-11-25")!;
    const masked = store.view(register);
    assert.equal(masked.masked, true);
    assert.equal((masked.flow.elicitations[0]!.content as Record<string, unknown>).password, REDACTED);
    assert.equal(
      (register.elicitations[0]!.content as Record<string, unknown>).password,
      SECRETS.password,
      "the store's flow keeps the value",
    );
    // What is not secret stays as captured.
    const content = masked.flow.elicitations[0]!.content as Record<string, unknown>;
    assert.equal(content.email, "ada@example.com");
    // A record is masked as the redacted export has it.
    const answer = register.elicitations[0]!.answerRecord!;
    assert.equal(
      (masked.record(answer) as { text: string }).text,
      (redactRecords([store.record(answer)!], { secretFields: ["password"] })[0] as { text: string }).text,
    );
  });

  test("revealing a flow shows its values as captured, for that flow only; masking again hides them; a new file starts masked", () => {
    const store = storeOf(secretCapture());
    const signIn = store.flows.value.find((f) => f.target === "sign_in" && f.revision === "2025-11-25")!;
    const other = store.flows.value.find((f) => f.target === "register_user" && f.revision === "2025-11-25")!;
    assert.ok(!everything(store, signIn.id).includes(SECRETS.urlToken));
    store.toggleReveal(signIn.id);
    assert.equal(store.view(signIn).masked, false);
    assert.ok(everything(store, signIn.id).includes(SECRETS.urlToken));
    assert.equal(store.view(other).masked, true);
    store.toggleReveal(signIn.id);
    assert.ok(!everything(store, signIn.id).includes(SECRETS.urlToken));
    store.toggleReveal(signIn.id);
    store.openFile("again.jsonl");
    assert.equal(store.revealed.value.size, 0);
  });

  test("a finding that quotes a secret value is masked with its flow (result-defaults-applied quotes the default)", () => {
    const b = captureBuilder();
    const h = legacySession(b);
    const x = streamCall(b, legacyToolCall(1), h);
    b.sse(
      x,
      request(
        0,
        "elicitation/create",
        form(
          { password: { type: "string", default: "hunter2-DO-NOT-LEAK" }, name: { type: "string" } },
          "Enter your name",
        ),
      ),
    );
    b.accepted(result(0, { action: "accept", content: { name: "Ada" } }), h);
    b.sse(x, result(1, { content: [] }));
    b.end(x);
    const store = storeOf(b.records);
    const flow = store.flows.value[0]!;
    const quoting = store.findingsOf(flow.id).filter((f) => f.message.includes("hunter2"));
    assert.ok(
      quoting.length > 0,
      `a finding quotes the answer: ${store
        .findingsOf(flow.id)
        .map((f) => f.message)
        .join(" | ")}`,
    );
    for (const f of quoting) assert.ok(!store.findingText(f).includes("hunter2"), store.findingText(f));
    store.toggleReveal(flow.id);
    assert.equal(store.findingText(quoting[0]!), quoting[0]!.message);
  });

  test("Rounds compares the requests as captured and quotes them masked", () => {
    const store = storeOf(demo);
    const mrtr = store.flows.value.find((f) => f.kind === "mrtr" && f.rounds.length > 1)!;
    const view = store.view(mrtr);
    const steps = roundSteps(view.flow, store.record);
    assert.ok(steps.length > 0);
    assert.equal(view.value("sk_live_51HxYzAbCdEfGhIjKlMnOpQr"), REDACTED);
    assert.deepEqual(view.value({ note: "plain", nested: ["x"] }), { note: "plain", nested: ["x"] });
  });

  test("nothing but session ids is masked in the demo capture: it holds no other secrets", () => {
    const store = storeOf(demo);
    const noSession = (r: CaptureRecord | undefined) => {
      if (!r || (r.kind !== "message" && r.kind !== "response") || !r.headers?.["mcp-session-id"]) return r;
      const { "mcp-session-id": _id, ...headers } = r.headers;
      return { ...r, headers };
    };
    for (const flow of store.flows.value) {
      const view = store.view(flow);
      assert.deepEqual(view.flow.elicitations, flow.elicitations, flow.id);
      assert.equal(view.flow.server, flow.server);
      for (const seq of flow.records)
        assert.deepEqual(noSession(view.record(seq)), noSession(store.record(seq)), `${flow.id} record ${seq}`);
    }
  });
});
