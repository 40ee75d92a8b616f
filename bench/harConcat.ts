// A HAR of any size made as a merge of several recordings is: real SDK sessions (the demo's traffic,
// demo/demo-capture.jsonl, recorded from the SDK 1.32.2 and 2.x peers with sub-millisecond timings, written as HAR
// by exportHar) concatenated again and again, each repetition on its own endpoint path (`/mcp` → `/r<k>/mcp`) and
// with its own session ids, its entries' `startedDateTime` unchanged: every repetition goes back in time to where
// the first began. HAR 1.2 does not require entries in time order; this file is what such a merge looks like.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { exportHar } from "../src/capture/har/export.ts";
import { importJsonl } from "../src/capture/jsonl.ts";

export interface ConcatHar {
  bytes: number;
  entries: number;
  /** Repetitions of the demo's sessions. */
  copies: number;
}

/** The demo's HAR, cut into its head, its entries' texts and its tail. */
function demoHar(): { head: string; entries: string[]; tail: string } {
  const records = importJsonl(
    readFileSync(new URL("../demo/demo-capture.jsonl", import.meta.url), "utf8"),
    "demo-capture.jsonl",
  ).records;
  const har = JSON.parse(exportHar(records)) as { log: Record<string, unknown> & { entries: unknown[] } };
  const entries = har.log.entries.map((e) => JSON.stringify(e, null, 2).replace(/\n/g, "\n      "));
  const text = JSON.stringify({ log: { ...har.log, entries: ["\u0000"] } }, null, 2);
  const [head, tail] = text.split(/\n\s*"\\u0000"\n/) as [string, string];
  return { head, entries, tail: `\n${tail}` };
}

/** Writes the concatenation to `path` until it holds at least `targetBytes`. */
export function writeConcatenatedHar(path: string, targetBytes: number): ConcatHar {
  const demo = demoHar();
  const fd = openSync(path, "w");
  let bytes = writeSync(fd, demo.head);
  let entries = 0;
  let copies = 0;
  let out = "";
  while (bytes + out.length < targetBytes) {
    const r = `r${copies++}`;
    for (const entry of demo.entries) {
      // Its own endpoint, and session ids of its own (a merge of recordings of different runs).
      const text = entry
        .replace(/(:\/\/[^/"]+)\/mcp/g, `$1/${r}/mcp`)
        .replace(/("mcp-session-id",\s*"value": ")/gi, `$1${r}-`);
      out += `${entries++ === 0 ? "\n      " : ",\n      "}${text}`;
      if (out.length >= 1 << 20) {
        bytes += writeSync(fd, out);
        out = "";
      }
    }
  }
  bytes += writeSync(fd, out + demo.tail);
  closeSync(fd);
  return { bytes, entries, copies };
}
