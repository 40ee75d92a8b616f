import { readFileSync } from "node:fs";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";

/**
 * A large capture made of the demo's real SDK traffic (demo/demo-capture.jsonl), copied until it holds `messages`
 * message records. Each copy is another client with its own exchanges (so it correlates into flows of its own)
 * and starts where the previous one ended (so the timeline spreads as a long session would).
 */
export function replicateDemo(messages: number): { records: CaptureRecord[]; copies: number } {
  const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;
  const start = demo[0]!.time;
  const span = demo[demo.length - 1]!.time - start + 50;
  const records: CaptureRecord[] = [];
  let count = 0;
  let copy = 0;
  for (; count < messages; copy++) {
    for (const r of demo) {
      const exchange = r.exchange === undefined ? {} : { exchange: `${copy}/${r.exchange}` };
      records.push({
        ...r,
        seq: records.length,
        time: r.time + copy * span,
        client: `client-${copy}`,
        ...exchange,
      } as CaptureRecord);
      if (r.kind === "message") count++;
    }
  }
  return { records, copies: copy };
}
