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
const texts = records.flatMap((r) => (r.kind === "message" ? [r.text] : []));
const eras = { legacy: texts.filter((t) => !t.includes("io.modelcontextprotocol/protocolVersion") && !t.includes("resultType")).length, modern: 0 };
eras.modern = texts.length - eras.legacy;

let sink = 0;
const phases = {
  "JSON.parse": () => {
    for (const t of texts) sink += JSON.parse(t) === null ? 0 : 1;
  },
  "JSON.parse (A/A)": () => {
    for (const t of texts) sink += JSON.parse(t) === null ? 0 : 1;
  },
  "SDK JSONRPCMessageSchema": () => {
    for (const t of texts) sink += JSONRPCMessageSchema.safeParse(JSON.parse(t)).success ? 1 : 0;
  },
  engine: () => {
    const engine = createEngine();
    for (const r of records) engine.push(r);
    sink += engine.flows().length + engine.findings().length;
  },
};
type Phase = keyof typeof phases;

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

console.log(`engine bench: ${texts.length} messages (${eras.legacy} 2025-xx, ${eras.modern} 2026-07-28) in ${records.length} records, ${ITERATIONS} iterations + warm-up`);
for (const fn of Object.values(phases)) fn(); // warm-up: JIT and caches
const times = Object.fromEntries(Object.keys(phases).map((name) => [name, [] as number[]])) as Record<Phase, number[]>;
const ratioParse: number[] = [];
const ratioSdk: number[] = [];
const ratioNoise: number[] = [];
for (let i = 0; i < ITERATIONS; i++) {
  const t = {} as Record<Phase, number>;
  for (const name of shuffle(Object.keys(phases) as Phase[])) t[name] = cpu(phases[name]);
  for (const name of Object.keys(t) as Phase[]) times[name].push(t[name]);
  ratioParse.push(t.engine / t["JSON.parse"]);
  ratioSdk.push(t["SDK JSONRPCMessageSchema"] / t.engine);
  ratioNoise.push(t["JSON.parse (A/A)"] / t["JSON.parse"]);
}
const perMessage = (ms: number) => ((ms * 1000) / texts.length).toFixed(2);
for (const name of Object.keys(times) as Phase[]) {
  const m = median(times[name]);
  console.log(`  ${name.padEnd(26)} median ${m.toFixed(1).padStart(8)} ms CPU  (${perMessage(m)} µs/message; range ${perMessage(Math.min(...times[name]))}–${perMessage(Math.max(...times[name]))})`);
}
function ratioSdkOverParse(): number[] {
  return times["SDK JSONRPCMessageSchema"].map((sdk, i) => sdk / times["JSON.parse"][i]!);
}
const range = (xs: number[]) => `range ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
const r1 = median(ratioParse);
const r2 = median(ratioSdk);
console.log(`A/A noise: JSON.parse / JSON.parse  ${median(ratioNoise).toFixed(2)}×  (${range(ratioNoise)})`);
console.log(`engine / JSON.parse            ${r1.toFixed(2)}×  (target ≤ 2×: ${r1 <= 2 ? "met" : "NOT met"}; ${range(ratioParse)})`);
console.log(`SDK schema / engine            ${r2.toFixed(2)}×  (target ≥ 3× faster: ${r2 >= 3 ? "met" : "NOT met"}; ${range(ratioSdk)})`);
// An engine must parse every message, so it can never cost less than JSON.parse: this is the best (ii) can be.
const ceiling = ratioSdkOverParse();
console.log(`  ceiling of (ii), SDK schema / JSON.parse: ${median(ceiling).toFixed(2)}× (${range(ceiling)})`);
if (sink < 0) console.log(sink);
