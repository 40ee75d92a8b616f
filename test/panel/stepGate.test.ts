import assert from "node:assert/strict";
import { test } from "node:test";
import "../../src/shared/jitless.ts";
import { importFile, type ImportProgress } from "../../panel/io/importFile.ts";
import { createStepGate } from "../../panel/io/stepGate.ts";
import { analyze } from "../../src/engine/index.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { demo } from "./corpus.ts";

// The import worker's flow control (panel/io/stepGate.ts): one step out until the panel says it has shown it;
// what importFile makes meanwhile goes out merged, and nothing is lost or doubled.
test("steps made while the panel has not shown the last one go out as one, with every flow's latest state and every record once", async () => {
  const big: CaptureRecord[] = [];
  for (let copy = 0; copy < 20; copy++)
    for (const r of demo)
      big.push({
        ...r,
        seq: big.length,
        client: `c${copy}`,
        ...(r.exchange ? { exchange: `${copy}/${r.exchange}` } : {}),
      } as CaptureRecord);
  const sent: ImportProgress[] = [];
  const made: ImportProgress[] = [];
  // The panel: takes a copy of each step (as postMessage does) and says it has shown it 60 ms later.
  const gate = createStepGate((step) => {
    sent.push(structuredClone(step));
    setTimeout(() => gate.shown(), 60);
  });
  const blob = Object.assign(new Blob([exportJsonl(big)]), { name: "big.jsonl" });
  let waitedForFirstRows = 0;
  const result = await importFile(
    blob,
    async (step) => {
      made.push(step);
      const before = sent.length;
      const start = performance.now();
      await gate.step(step);
      // The first rows: the import waited for the panel to show them.
      if (
        sent.length > before &&
        step.changes.flows.length > 0 &&
        sent.slice(0, before).every((s) => s.changes.flows.length === 0)
      )
        waitedForFirstRows = performance.now() - start;
      // A step per piece, however fast this machine analyses (steps are otherwise made every 40 ms of analysis).
    },
    { stepMs: 0 },
  );
  await gate.flushed();
  assert.ok(waitedForFirstRows >= 50, `waited ${waitedForFirstRows} ms for the first rows to be shown`);
  assert.ok(made.length > 6, `${made.length} steps made`);
  assert.ok(sent.length < made.length, `${sent.length} sent of ${made.length}`);
  assert.equal(sent.at(-1)!.done, true);
  assert.equal(sent.at(-1)!.records, result.records);
  // Applied in order, the steps sent give the engine's flows and findings, and every record once.
  const flows = new Map<string, unknown>();
  for (const step of sent) for (const flow of step.changes.flows) flows.set(flow.id, flow);
  const expected = analyze(big);
  assert.deepEqual([...flows.values()], structuredClone(expected.flows));
  assert.deepEqual(
    sent.flatMap((s) => s.changes.findings),
    structuredClone(expected.findings),
  );
  assert.deepEqual(
    sent.flatMap((s) => s.changes.records!.map((r) => r.seq)),
    big.map((r) => r.seq),
  );
});
