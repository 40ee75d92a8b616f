// A/B CPU of the base engine and the work tree's (bundles made by check.mjs compare), interleaved in one process
// over the bench's two corpora (bench/engine.ts): the demo capture copied to ≥100k messages, and bench/corpus.ts.
//   node --import tsx scripts/diff/bench.mjs
// N: iterations (default 15); MESSAGES: corpus size (default 100,000: smaller corpora allow more, shorter
// iterations, which a loaded machine disturbs less); CORPORA: "demo", "real" or both (default).
// Each iteration runs old, new and bare JSON.parse in a shuffled order. Printed per corpus: the median of the per-iteration ratios
// new/old with its 95% interval (distribution-free, from the order statistics) and range, and the ratio of the
// least CPU of each side.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** DIFF_OUT: another directory, when two work trees run the check at once. */
const OUT = process.env.DIFF_OUT ?? "/tmp/engine-diff";
const MESSAGES = Number(process.env.MESSAGES ?? 100_000);
const ITERATIONS = Number(process.env.N ?? 15);
const engines = {
  old: await import(pathToFileURL(`${OUT}/old/engine.mjs`).href),
  new: await import(pathToFileURL(`${OUT}/new/engine.mjs`).href),
};
const lines = readFileSync("demo/demo-capture.jsonl", "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const records = [];
let messages = 0;
for (let copy = 0; messages < MESSAGES; copy++) {
  for (const r of lines) {
    records.push({
      ...r,
      seq: records.length,
      client: `client-${copy}`,
      ...(r.exchange === undefined ? {} : { exchange: `${copy}/${r.exchange}` }),
    });
    if (r.kind === "message") messages++;
  }
}
const { realShapedCorpus } = await import("../../bench/corpus.ts");
const wanted = (process.env.CORPORA ?? "demo,real").split(",");
const corpora = Object.entries({ demo: () => records, real: () => realShapedCorpus(MESSAGES).records }).filter(
  ([name]) => wanted.includes(name),
);
const cpu = (f) => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
const shuffle = (xs) => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
};
const sorted = (a) => [...a].sort((x, y) => x - y);
const median = (a) => {
  const s = sorted(a);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** The median's 95% interval from the order statistics (binomial, normal approximation). */
const interval = (a) => {
  const s = sorted(a);
  const half = 0.98 * Math.sqrt(s.length);
  return [
    s[Math.max(0, Math.floor(s.length / 2 - half))],
    s[Math.min(s.length - 1, Math.ceil(s.length / 2 + half) - 1)],
  ];
};
const ratios = (a, b) => a.map((x, i) => x / b[i]);
const show = (r, digits) => {
  const [lo, hi] = interval(r);
  return `${median(r).toFixed(digits)} [${lo.toFixed(digits)}, ${hi.toFixed(digits)}] (range ${Math.min(...r).toFixed(digits)}–${Math.max(...r).toFixed(digits)})`;
};

for (const [name, make] of corpora) {
  const corpus = make();
  const texts = corpus.filter((r) => r.kind === "message").map((r) => r.text);
  const runs = { old: [], new: [], parse: [] };
  let sink = 0;
  for (let i = 0; i <= ITERATIONS; i++) {
    for (const k of shuffle(["old", "new", "parse"])) {
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
  // Load on a shared machine only ever adds CPU: the least of each side is the steadiest single figure.
  const least = (Math.min(...runs.new) / Math.min(...runs.old)).toFixed(3);
  console.log(
    `${name} (${texts.length} messages, ${ITERATIONS} iterations): old ${median(runs.old).toFixed(0)} ms, new ${median(runs.new).toFixed(0)} ms, JSON.parse ${median(runs.parse).toFixed(0)} ms CPU (medians)`,
  );
  console.log(`  new/old ${show(ratios(runs.new, runs.old), 3)}; least new / least old ${least}`);
  console.log(
    `  old/parse ${show(ratios(runs.old, runs.parse), 2)}; new/parse ${show(ratios(runs.new, runs.parse), 2)}`,
  );
  void sink;
}
