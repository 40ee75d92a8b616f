// A/B CPU of the base engine and the work tree's (bundles made by check.mjs compare), interleaved in one process
// over the bench's two corpora (bench/engine.ts): the demo capture copied to ≥100k messages, and bench/corpus.ts.
//   node --import tsx scripts/diff/bench.mjs
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** DIFF_OUT: another directory, when two work trees run the check at once. */
const OUT = process.env.DIFF_OUT ?? "/tmp/engine-diff";
const engines = { old: await import(pathToFileURL(`${OUT}/old/engine.mjs`).href), new: await import(pathToFileURL(`${OUT}/new/engine.mjs`).href) };
const lines = readFileSync("demo/demo-capture.jsonl", "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const records = [];
let messages = 0;
for (let copy = 0; messages < 100_000; copy++) {
  for (const r of lines) {
    records.push({ ...r, seq: records.length, client: `client-${copy}`, ...(r.exchange === undefined ? {} : { exchange: `${copy}/${r.exchange}` }) });
    if (r.kind === "message") messages++;
  }
}
const { realShapedCorpus } = await import("../../bench/corpus.ts");
const corpora = { demo: records, real: realShapedCorpus(100_000).records };
const cpu = (f) => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
for (const [name, corpus] of Object.entries(corpora)) {
  const texts = corpus.filter((r) => r.kind === "message").map((r) => r.text);
  const runs = { old: [], new: [], parse: [] };
  let sink = 0;
  const iterations = Number(process.env.N ?? 9);
  for (let i = 0; i <= iterations; i++) {
    const order = i % 2 ? ["old", "new", "parse"] : ["new", "parse", "old"];
    for (const k of order) {
      const ms = cpu(() => {
        if (k === "parse") for (const t of texts) sink += JSON.parse(t) === null ? 0 : 1;
        else {
          const e = engines[k].createEngine();
          for (const r of corpus) e.push(r);
          sink += e.findings().length;
        }
      });
      if (i > 0) runs[k].push(ms);
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const ratio = (a, b) => median(a.map((x, i) => x / b[i]));
  console.log(`${name}: old ${median(runs.old).toFixed(0)} ms, new ${median(runs.new).toFixed(0)} ms, JSON.parse ${median(runs.parse).toFixed(0)} ms; new/old ${ratio(runs.new, runs.old).toFixed(3)}; old/parse ${ratio(runs.old, runs.parse).toFixed(2)}×, new/parse ${ratio(runs.new, runs.parse).toFixed(2)}× (${texts.length} messages, ${iterations} iterations)`);
  void sink;
}
