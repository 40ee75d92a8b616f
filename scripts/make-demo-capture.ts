// Regenerates demo/demo-capture.jsonl, the bundled capture `npm start` analyses: every peer scenario, real
// SDK traffic on 127.0.0.1, one record per line. Run by hand: node --import tsx scripts/make-demo-capture.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { CaptureRecord } from "../src/capture/record.ts";
import { mergeCaptures, runAll } from "../test/peers/scenarios.ts";

const out = new URL("../demo/demo-capture.jsonl", import.meta.url);

const results = await runAll();
const lines = mergeCaptures(results).map((record) => JSON.stringify(CaptureRecord.parse(record)));
mkdirSync(new URL(".", out), { recursive: true });
writeFileSync(out, lines.join("\n") + "\n");
console.log(`${out.pathname}: ${lines.length} records from ${results.length} scenarios`);
