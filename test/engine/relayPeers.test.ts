import assert from "node:assert/strict";
import { test } from "node:test";
import type { Draft } from "../../src/capture/envelopes/index.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { startProxy } from "../../src/cli/proxy/server.ts";
import { scenarios, startServer } from "../peers/scenarios.ts";
import { waitFor } from "../proxy/helpers.ts";
import { APP, run } from "./relayFixtures.ts";

/**
 * The join from real captures: the real SDK peers of both eras (sdk 1.32.2 elicitation/create; server/client 2.4.0
 * input_required rounds) through `mcp-elicit proxy`, whose records are the agent backend's wire; the page's side is
 * what a hosted agent's page gets and sends for each elicitation the backend saw (an AI SDK `data-elicitation`
 * part, the answer POSTed to /api/elicit/<id>), made from the backend's own records, faithfully or with a fault.
 */
async function backendRecords(name: string): Promise<CaptureRecord[]> {
  const scenario = scenarios.find((s) => s.name === name)!;
  const server = await startServer(scenario.era);
  const proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(server.url) }], warn: () => undefined });
  try {
    await scenario.run(proxy.urls[0]!.url);
    const exchanges = (ended: boolean) =>
      new Set(
        proxy.journal
          .records()
          .filter((r) => (r.kind === "end") === ended)
          .map((r) => r.exchange),
      );
    await waitFor(() => exchanges(true).size === exchanges(false).size);
    return [...proxy.journal.records()];
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** Each elicitation the backend saw (its params) and the agent's answer, in order. */
function asked(
  records: readonly CaptureRecord[],
): { params: Record<string, unknown>; askedAt: number; answer: Record<string, unknown>; answeredAt: number }[] {
  const { flows } = run(records.map(({ seq: _s, v: _v, ...r }) => r as Draft));
  return flows.flatMap((f) =>
    f.elicitations.map((e) => ({
      params: { mode: e.mode, message: e.message, requestedSchema: e.schema },
      askedAt: e.askedAt,
      answer: { action: e.action, ...(e.content !== undefined && { content: e.content }) },
      answeredAt: e.answeredAt!,
    })),
  );
}

/** The relay latencies the page side is made with: a third of the agent's own time, at most 3 ms each way. */
const latency = (a: { askedAt: number; answeredAt: number }): number => Math.min(3, (a.answeredAt - a.askedAt) / 3);

/** The page's side, as the app relays each ask and posts the user's answer (`change` alters what the user gave). */
function pageSide(
  asks: ReturnType<typeof asked>,
  change: (answer: Record<string, unknown>) => Record<string, unknown> = (a) => a,
): Draft[] {
  return asks.flatMap((a, i) => [
    {
      kind: "message",
      time: a.askedAt + latency(a),
      transport: "http",
      url: `${APP}/api/chat`,
      client: APP,
      direction: "s2c",
      stream: "post-sse",
      method: "POST",
      text: JSON.stringify({ type: "data-elicitation", id: `el-${i}`, data: { state: "pending", ...a.params } }),
    },
    {
      kind: "message",
      time: a.answeredAt - latency(a),
      transport: "http",
      url: `${APP}/api/elicit/el-${i}`,
      client: APP,
      direction: "c2s",
      stream: "body",
      method: "POST",
      text: JSON.stringify(change(a.answer)),
    },
  ]);
}

const together = (backend: readonly CaptureRecord[], page: Draft[]): Draft[] =>
  [...backend.map(({ seq: _s, v: _v, ...r }) => r as Draft), ...page].sort((a, b) => a.time - b.time);

for (const name of ["legacy-form-accept", "legacy-form-decline", "modern-form-accept", "modern-two-rounds"]) {
  test(`${name}: each backend elicitation and the page's relay are one flow, faithful: no relay finding`, async () => {
    const backend = await backendRecords(name);
    const asks = asked(backend);
    assert.ok(asks.length > 0);
    const { flows, findings, problems } = run(together(backend, pageSide(asks)));
    assert.deepEqual(problems, []);
    const shown = flows.filter((f) => f.joinedInto === undefined);
    assert.ok(
      shown.every((f) => f.source === "backend"),
      "no page-only flow is left",
    );
    const relays = shown.flatMap((f) => f.elicitations.map((e) => e.relay));
    assert.equal(relays.length, asks.length);
    relays.forEach((relay, i) => {
      assert.ok(relay && relay.joinedBy === "message+schema", JSON.stringify(relay));
      assert.ok(
        Math.abs(relay.askMs! - latency(asks[i]!)) < 0.01 && Math.abs(relay.answerMs! - latency(asks[i]!)) < 0.01,
        JSON.stringify(relay),
      );
    });
    assert.deepEqual(
      findings.filter((f) => f.rule.startsWith("relay-")),
      [],
    );
  });
}

test("legacy-form-accept with an agent that turns the user's decline into an accept: relay-answer-altered", async () => {
  const backend = await backendRecords("legacy-form-accept");
  const { findings } = run(
    together(
      backend,
      pageSide(asked(backend), () => ({ action: "decline" })),
    ),
  );
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")).map((f) => [f.rule, f.severity]),
    [["relay-answer-altered", "error"]],
  );
});

test("modern-form-decline with an ask the agent answered without relaying it: relay-ask-not-shown", async () => {
  const backend = await backendRecords("modern-form-decline");
  const { findings } = run(together(backend, []), { pageWatched: true });
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")).map((f) => f.rule),
    ["relay-ask-not-shown"],
  );
});
