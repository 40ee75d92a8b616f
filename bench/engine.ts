// `npm run bench`: engine throughput over ≥100k mixed messages of both eras, measured side by side in one
// process against (i) bare JSON.parse of the same texts and (ii) the official SDK's JSON-RPC message schema.
// Method (../shared/benchmarking.md, "Engine and CLI"): process.cpuUsage() around each phase, the phases
// interleaved in a shuffled order per iteration after a warm-up, medians of per-iteration ratios. JSON.parse
// runs twice per iteration (A and A'): their ratio is the noise floor of this machine, printed with the results.
import { readFileSync } from "node:fs";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { importJsonl } from "../src/capture/jsonl.ts";
import type { CaptureRecord } from "../src/capture/record.ts";
import { createEngine } from "../src/engine/index.ts";
import { realShapedCorpus } from "./corpus.ts";

const TARGET_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 15);

const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl");
if (demo.problems.length) throw new Error(`demo capture: ${demo.problems.map((p) => p.message).join("; ")}`);

// Replicate the real capture with a distinct client per copy so every copy correlates into its own flows.
const records: CaptureRecord[] = [];
let messages = 0;
for (let copy = 0; messages < TARGET_MESSAGES; copy++) {
  for (const r of demo.records) {
    const exchange = r.exchange === undefined ? undefined : `${copy}/${r.exchange}`;
    records.push({ ...r, seq: records.length, client: `client-${copy}`, ...(exchange === undefined ? {} : { exchange }) } as CaptureRecord);
    if (r.kind === "message") messages++;
  }
}
const demoTexts = records.flatMap((r) => (r.kind === "message" ? [r.text] : []));
const eras = { legacy: demoTexts.filter((t) => !t.includes("io.modelcontextprotocol/protocolVersion") && !t.includes("resultType")).length, modern: 0 };
eras.modern = demoTexts.length - eras.legacy;
const real = realShapedCorpus(TARGET_MESSAGES);
const realTexts = real.records.flatMap((r) => (r.kind === "message" ? [r.text] : []));

/** The two corpora, side by side: the demo capture copied (payloads repeat), and traffic shaped like real (bench/corpus.ts). */
const corpora = [
  { name: "demo", records, texts: demoTexts },
  { name: "real-shaped", records: real.records, texts: realTexts },
] as const;

let sink = 0;
const phaseFns = (c: (typeof corpora)[number]) => ({
  "JSON.parse": () => {
    for (const t of c.texts) sink += JSON.parse(t) === null ? 0 : 1;
  },
  "JSON.parse (A/A)": () => {
    for (const t of c.texts) sink += JSON.parse(t) === null ? 0 : 1;
  },
  "SDK JSONRPCMessageSchema": () => {
    for (const t of c.texts) sink += JSONRPCMessageSchema.safeParse(JSON.parse(t)).success ? 1 : 0;
  },
  engine: () => {
    const engine = createEngine();
    for (const r of c.records) engine.push(r);
    sink += engine.flows().length + engine.findings().length;
  },
});
type Phase = keyof ReturnType<typeof phaseFns>;
const phases = Object.fromEntries(corpora.flatMap((c) => Object.entries(phaseFns(c)).map(([name, fn]) => [`${c.name}\u0000${name}`, fn]))) as Record<string, () => void>;

const cpu = (fn: () => void): number => {
  const start = process.cpuUsage();
  fn();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const shuffle = <T>(xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};

console.log(`engine bench, ${ITERATIONS} iterations + warm-up, phases of both corpora shuffled together:`);
console.log(`  demo:        ${demoTexts.length} messages (${eras.legacy} 2025-xx, ${eras.modern} 2026-07-28) in ${records.length} records (the demo capture copied: payloads repeat)`);
console.log(`  real-shaped: ${realTexts.length} messages in ${real.records.length} records, ${((100 * real.inFlows) / real.messages).toFixed(0)}% in elicitation flows, ${new Set(realTexts).size} distinct texts (bench/corpus.ts)`);
for (const fn of Object.values(phases)) fn(); // warm-up: JIT and caches
const times = Object.fromEntries(Object.keys(phases).map((name) => [name, [] as number[]])) as Record<string, number[]>;
for (let i = 0; i < ITERATIONS; i++) for (const name of shuffle(Object.keys(phases))) times[name]!.push(cpu(phases[name]!));
const range = (xs: number[]) => `range ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
const ratios = (c: string, a: Phase, b: Phase) => times[`${c}\u0000${a}`]!.map((x, i) => x / times[`${c}\u0000${b}`]![i]!);
for (const c of corpora) {
  console.log(`\n${c.name}:`);
  const perMessage = (ms: number) => ((ms * 1000) / c.texts.length).toFixed(2);
  for (const name of Object.keys(phaseFns(c)) as Phase[]) {
    const xs = times[`${c.name}\u0000${name}`]!;
    const m = median(xs);
    console.log(`  ${name.padEnd(26)} median ${m.toFixed(1).padStart(8)} ms CPU  (${perMessage(m)} µs/message; range ${perMessage(Math.min(...xs))}–${perMessage(Math.max(...xs))})`);
  }
  const noise = ratios(c.name, "JSON.parse (A/A)", "JSON.parse");
  const r1 = ratios(c.name, "engine", "JSON.parse");
  const r2 = ratios(c.name, "SDK JSONRPCMessageSchema", "engine");
  const ceiling = ratios(c.name, "SDK JSONRPCMessageSchema", "JSON.parse");
  console.log(`  A/A noise: JSON.parse / JSON.parse  ${median(noise).toFixed(2)}×  (${range(noise)})`);
  console.log(`  engine / JSON.parse            ${median(r1).toFixed(2)}×  (target ≤ 2×: ${median(r1) <= 2 ? "met" : "NOT met"}; ${range(r1)})`);
  console.log(`  SDK schema / engine            ${median(r2).toFixed(2)}×  (target ≥ 3× faster: ${median(r2) >= 3 ? "met" : "NOT met"}; ${range(r2)})`);
  // An engine must parse every message, so it can never cost less than JSON.parse: this is the best (ii) can be.
  console.log(`    ceiling of (ii), SDK schema / JSON.parse: ${median(ceiling).toFixed(2)}× (${range(ceiling)})`);
}
if (sink < 0) console.log(sink);
