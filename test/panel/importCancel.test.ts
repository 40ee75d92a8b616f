import assert from "node:assert/strict";
import { test } from "node:test";
import "../../src/shared/jitless.ts";
import { importFile, type ImportProgress } from "../../panel/io/importFile.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { demo } from "./corpus.ts";

// importFile's signal (the panel's Cancel terminates the import worker; a caller in-process aborts instead): the
// import stops at the next piece and rejects with the signal's reason, and no step comes after the abort.
const big: CaptureRecord[] = [];
for (let copy = 0; copy < 20; copy++)
  for (const r of demo)
    big.push({
      ...r,
      seq: big.length,
      client: `c${copy}`,
      ...(r.exchange ? { exchange: `${copy}/${r.exchange}` } : {}),
    } as CaptureRecord);

for (const [name, text] of [
  ["big.jsonl", exportJsonl(big)],
  ["big.har", exportHar(big)],
] as const) {
  test(`${name}: aborted after its first step, the import rejects with the signal's reason and makes no more steps`, async () => {
    const file = Object.assign(new Blob([text]), { name });
    const controller = new AbortController();
    const steps: ImportProgress[] = [];
    let afterAbort = 0;
    const run = importFile(
      file,
      (step) => {
        if (controller.signal.aborted) afterAbort++;
        steps.push(step);
        if (steps.length === 1) controller.abort();
      },
      { stepMs: 0, signal: controller.signal },
    );
    await assert.rejects(run, (error: Error) => error.name === "AbortError");
    assert.equal(steps.length, 1);
    assert.equal(afterAbort, 0);
    assert.ok(steps[0]!.records < big.length, `${steps[0]!.records} of ${big.length} records analysed when aborted`);
    // A HAR's bytes are those handed to the importer (a Blob's stream can give the whole file in one chunk).
    if (name.endsWith(".har"))
      assert.ok(steps[0]!.bytes < file.size, `${steps[0]!.bytes} of ${file.size} bytes imported when aborted`);
  });
}
