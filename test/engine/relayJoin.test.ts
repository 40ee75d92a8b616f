import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createCapture } from "../../panel/state/capture.ts";
import { toJson } from "../../src/cli/report.ts";
import { lintFiles } from "../../src/cli/session.ts";
import { aiSdkAnswer, aiSdkAsk, backendFlow, byTime, cfFrame, message, run, schema } from "./relayFixtures.ts";

const accept = { action: "accept", content: { confirm: true, region: "eu" } };

test("an AI SDK relay and the backend's elicitation are one flow, with both relay latencies", () => {
  const { flows, findings, records, problems } = run(
    byTime([...backendFlow(1000, accept), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", accept)]),
  );
  assert.deepEqual(problems, []);
  const shown = flows.filter((f) => f.joinedInto === undefined);
  assert.equal(shown.length, 1);
  const flow = shown[0]!;
  assert.equal(flow.source, "backend");
  assert.equal(flow.status, "complete");
  const relay = flow.elicitations[0]!.relay!;
  assert.equal(relay.shape, "data-elicitation");
  assert.equal(relay.id, "e1");
  assert.equal(relay.joinedBy, "message+schema");
  assert.equal(relay.inferred, undefined);
  assert.equal(relay.askMs, 25); // the agent got it at 1005, the page at 1030
  assert.equal(relay.answerMs, 100); // the user answered at 1900, the server got it at 2000
  assert.equal(relay.action, "accept");
  // The page's records are the flow's too, in order.
  const relayRecords = records.filter((r) => r.kind === "message" && r.envelope?.startsWith("relay:"));
  assert.equal(relayRecords.length, 2);
  for (const r of relayRecords) assert.ok(flow.records.includes(r.seq));
  assert.deepEqual(
    [...flow.records],
    [...flow.records].sort((a, b) => a - b),
  );
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")),
    [],
  );
});

test("the page's ask recorded before the backend's (out of order) still joins: its relay flow points at the backend flow", () => {
  const drafts = [aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", accept), ...backendFlow(1000, accept)];
  const { flows, findings } = run(drafts);
  const relayFlow = flows.find((f) => f.kind === "relay")!;
  const backendFlow_ = flows.find((f) => f.source === "backend")!;
  assert.equal(relayFlow.joinedInto, backendFlow_.id);
  assert.equal(backendFlow_.elicitations[0]!.relay?.answerMs, 100);
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")),
    [],
  );
});

test("a page ask joined after the fact is not listed apart: the panel drops its row, the CLI report omits it", async () => {
  const drafts = [aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", accept), ...backendFlow(1000, accept)];
  const { flows, records } = run(drafts);
  const relayFlow = flows.find((f) => f.kind === "relay")!;
  const backendFlow_ = flows.find((f) => f.source === "backend")!;
  // Live, the panel got the page's flow first (pending, on its own), then the join.
  const capture = createCapture();
  capture.ingest({ flows: [{ ...relayFlow, joinedInto: undefined }], findings: [], problems: [] });
  assert.deepEqual(
    capture.flows.map((f) => f.id),
    [relayFlow.id],
  );
  const before = capture.revOf(relayFlow.id);
  capture.ingest({ flows, findings: [], problems: [] });
  assert.deepEqual(
    capture.flows.map((f) => f.id),
    [backendFlow_.id],
  );
  assert.equal(capture.has(relayFlow.id), false);
  assert.equal(capture.indexOf(backendFlow_.id), 0);
  // Revs are unique across flows: a cache by position misses for the flow that moved up.
  assert.notEqual(capture.revs[0], before);

  const dir = await mkdtemp(join(tmpdir(), "relay-join-"));
  try {
    const file = join(dir, "session.jsonl");
    await writeFile(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const { reports } = await lintFiles([file], { engine: {}, rules: [], min: "info", session: false });
    assert.deepEqual(
      reports[0]!.flows.map((f) => f.id),
      [backendFlow_.id],
    );
    assert.deepEqual(
      toJson(reports).files[0]!.flows.map((f) => f.id),
      [backendFlow_.id],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("without the backend, a relayed ask is a flow of its own with the user's answer", () => {
  const { flows, problems } = run([aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", { action: "decline" })]);
  assert.deepEqual(problems, []);
  assert.equal(flows.length, 1);
  assert.equal(flows[0]!.kind, "relay");
  assert.equal(flows[0]!.status, "complete");
  assert.equal(flows[0]!.elicitations[0]!.action, "decline");
  assert.equal(flows[0]!.userMs, 870);
});

test("Cloudflare agent frames: mcp_elicitation and elicitation_response join by their id and the message", () => {
  const drafts = byTime([
    ...backendFlow(1000, { action: "decline" }),
    cfFrame(1002, "s2c", { type: "cf_agent_identity", name: "default", agent: "my-agent" }),
    cfFrame(1040, "s2c", {
      type: "mcp_elicitation",
      id: "q1",
      serverId: "srv",
      params: { mode: "form", message, requestedSchema: schema },
    }),
    cfFrame(1500, "c2s", { type: "elicitation_response", id: "q1", result: { action: "decline" } }),
  ]);
  const { flows, findings, problems } = run(drafts);
  assert.deepEqual(problems, []);
  const flow = flows.find((f) => f.source === "backend")!;
  const relay = flow.elicitations[0]!.relay!;
  assert.equal(relay.shape, "mcp_elicitation");
  assert.equal(relay.action, "decline");
  assert.equal(relay.answerMs, 500);
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")),
    [],
  );
});

test("two alike asks join in time order, and the joins say they are a guess", () => {
  const drafts = byTime([
    ...backendFlow(1000, accept, { id: 0 }),
    ...backendFlow(1100, accept, { id: 1 }),
    aiSdkAsk(1200, "e1", { mode: "form", message, requestedSchema: schema }),
    aiSdkAsk(1250, "e2", { mode: "form", message, requestedSchema: schema }),
    aiSdkAnswer(1800, "e1", accept),
    aiSdkAnswer(1900, "e2", accept),
  ]);
  const { flows } = run(drafts);
  const backends = flows.filter((f) => f.source === "backend");
  assert.deepEqual(
    backends.map((f) => f.elicitations[0]!.relay?.id),
    ["e1", "e2"],
  );
  assert.equal(backends[0]!.elicitations[0]!.relay!.inferred, true);
});

test("an ask joined by its id (the elicitation's JSON-RPC id) is not a guess even when the message differs", () => {
  const drafts = byTime([
    ...backendFlow(1000, accept, { id: 7 }),
    aiSdkAsk(1030, "7", { mode: "form", message: "Shall we deploy?", requestedSchema: schema }),
    aiSdkAnswer(1900, "7", accept),
  ]);
  const relay = run(drafts).flows.find((f) => f.source === "backend")!.elicitations[0]!.relay!;
  assert.equal(relay.joinedBy, "id");
  assert.equal(relay.inferred, undefined);
});

test("the backend's answer may reach the engine before the page's ask (two roads): judged by time, not arrival", () => {
  const accept = { action: "accept", content: { confirm: true } };
  // The proxy's feed is quicker than the tap's batches: the backend's whole flow first, then the page's records.
  const drafts = [...backendFlow(1000, accept), aiSdkAsk(1030, "e1"), aiSdkAnswer(1990, "e1", accept)];
  const { flows, findings } = run(drafts, { pageWatched: true });
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")),
    [],
  );
  const relay = flows.find((f) => f.source === "backend")!.elicitations[0]!.relay!;
  assert.equal(relay.answerMs, 10);
});
