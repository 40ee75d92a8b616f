// `npm run bench`: engine throughput over ≥100k mixed messages of both eras, measured side by side in one
// process against (i) bare JSON.parse of the same texts and (ii) the official SDK's JSON-RPC message schema, on two
// corpora; then the CLI as a user runs it, `mcp-elicit lint`, against a process that only reads and parses the same
// HAR (bench/harRead.mjs), on two HARs of real-shaped traffic: the corpus exported (MCP traffic alone), and the same
// mix as Chromium records it beside the page's own requests (bench/harCorpus.ts).
// Method (../shared/benchmarking.md, "Engine and CLI"): process.cpuUsage() around each phase, the phases
// interleaved in a shuffled order per iteration after a warm-up, medians of per-iteration ratios. JSON.parse
// runs twice per iteration (A and A'): their ratio is the noise floor of this machine, printed with the results.
// The CLI's whole processes (with its rules and with every rule off) and the plain reader run alternately after a
// warm-up round; their CPU (user + system) is bash's `times`.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { exportHar } from "../src/capture/har/export.ts";
import { importJsonl } from "../src/capture/jsonl.ts";
import type { CaptureRecord } from "../src/capture/record.ts";
import { createEngine } from "../src/engine/index.ts";
import { rules } from "../src/engine/ruleKit/rules.ts";
import { realShapedCorpus } from "./corpus.ts";
import { writeRealShapedHar } from "./harCorpus.ts";

const TARGET_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 15);
/** Pairs of whole processes (CLI, plain reader) after the warm-up pair; 0 skips the CLI bench. */
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);

const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl");
if (demo.problems.length) throw new Error(`demo capture: ${demo.problems.map((p) => p.message).join("; ")}`);

// Replicate the real capture with a distinct client per copy so every copy correlates into its own flows.
const records: CaptureRecord[] = [];
let messages = 0;
for (let copy = 0; messages < TARGET_MESSAGES; copy++) {
  for (const r of demo.records) {
    const exchange = r.exchange === undefined ? undefined : `${copy}/${r.exchange}`;
    records.push({
      ...r,
      seq: records.length,
      client: `client-${copy}`,
      ...(exchange === undefined ? {} : { exchange }),
    } as CaptureRecord);
    if (r.kind === "message") messages++;
  }
}
const demoTexts = records.flatMap((r) => (r.kind === "message" ? [r.text] : []));
const eras = {
  legacy: demoTexts.filter((t) => !t.includes("io.modelcontextprotocol/protocolVersion") && !t.includes("resultType"))
    .length,
  modern: 0,
};
eras.modern = demoTexts.length - eras.legacy;
const real = realShapedCorpus(TARGET_MESSAGES);
const realTexts = real.records.flatMap((r) => (r.kind === "message" ? [r.text] : []));

/** The two corpora, side by side: the demo capture copied (payloads repeat), and traffic shaped like real (bench/corpus.ts). */
const corpora = [
  { name: "demo", records, texts: demoTexts },
  { name: "real-shaped", records: real.records, texts: realTexts },
] as const;

/** Every rule id, for the engine that only parses and correlates. */
const everyRule = rules.map((r) => r.id);
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
  // The same engine with every rule off: only parsing and correlating, the floor that rules add to.
  "engine, every rule off": () => {
    const engine = createEngine({ disable: everyRule });
    for (const r of c.records) engine.push(r);
    sink += engine.flows().length + engine.findings().length;
  },
});
type Phase = keyof ReturnType<typeof phaseFns>;
const phaseNames = Object.keys(phaseFns(corpora[0])) as Phase[];
const phases = Object.fromEntries(
  corpora.flatMap((c) => Object.entries(phaseFns(c)).map(([name, fn]) => [`${c.name}\u0000${name}`, fn])),
) as Record<string, () => void>;

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
/** A median with the range of what it summarises. */
const summary = (xs: number[], digits: number, unit = "") =>
  `${median(xs).toFixed(digits)}${unit} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

console.log(`engine bench, ${ITERATIONS} iterations + warm-up, phases of both corpora shuffled together:`);
console.log(
  `  demo:        ${demoTexts.length} messages (${eras.legacy} 2025-xx, ${eras.modern} 2026-07-28) in ${records.length} records (the demo capture copied: payloads repeat)`,
);
console.log(
  `  real-shaped: ${realTexts.length} messages in ${real.records.length} records, ${((100 * real.inFlows) / real.messages).toFixed(0)}% in elicitation flows, ${new Set(realTexts).size} distinct texts (bench/corpus.ts)`,
);
for (const fn of Object.values(phases)) fn(); // warm-up: JIT and caches
const times = Object.fromEntries(Object.keys(phases).map((name) => [name, [] as number[]])) as Record<string, number[]>;
for (let i = 0; i < ITERATIONS; i++)
  for (const name of shuffle(Object.keys(phases))) times[name]!.push(cpu(phases[name]!));
const ratios = (c: string, a: Phase, b: Phase) =>
  times[`${c}\u0000${a}`]!.map((x, i) => x / times[`${c}\u0000${b}`]![i]!);

// Medians per phase and per-iteration ratios, the corpora side by side (ranges in brackets).
const rows: [string, (c: (typeof corpora)[number]) => string][] = [
  ...phaseNames.map((name): [string, (c: (typeof corpora)[number]) => string] => [
    `${name}, µs/message`,
    (c) =>
      summary(
        times[`${c.name}\u0000${name}`]!.map((ms) => (ms * 1000) / c.texts.length),
        2,
      ),
  ]),
  ["A/A noise: JSON.parse / JSON.parse", (c) => summary(ratios(c.name, "JSON.parse (A/A)", "JSON.parse"), 2, "×")],
  ["engine / JSON.parse (target ≤ 2×)", (c) => summary(ratios(c.name, "engine", "JSON.parse"), 2, "×")],
  [
    "engine, every rule off / JSON.parse",
    (c) => summary(ratios(c.name, "engine, every rule off", "JSON.parse"), 2, "×"),
  ],
  ["SDK schema / engine (target ≥ 3×)", (c) => summary(ratios(c.name, "SDK JSONRPCMessageSchema", "engine"), 2, "×")],
  // An engine must parse every message, so it can never cost less than JSON.parse: this is the best (ii) can be.
  [
    "ceiling of (ii): SDK schema / JSON.parse",
    (c) => summary(ratios(c.name, "SDK JSONRPCMessageSchema", "JSON.parse"), 2, "×"),
  ],
];
const cells = rows.map(([label, cell]) => [label, ...corpora.map(cell)]);
const widths = [0, 1, 2].map((i) =>
  Math.max(...[["", ...corpora.map((c) => c.name)], ...cells].map((row) => row[i]!.length)),
);
const line = (row: string[]) => `  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join("   ")}`.trimEnd();
console.log(`\nmedians (ranges) of ${ITERATIONS} iterations:`);
console.log(line(["", ...corpora.map((c) => c.name)]));
for (const row of cells) console.log(line(row));
for (const c of corpora) {
  const r = median(ratios(c.name, "engine", "JSON.parse"));
  console.log(`  ${c.name}: engine / JSON.parse ${r.toFixed(2)}× — target ≤ 2× ${r <= 2 ? "met" : "NOT met"}`);
}

// The CLI as a user runs it: `mcp-elicit lint` on a HAR of the real-shaped corpus, against a process that reads the
// file and parses the HAR and every message in it (bench/harRead.mjs), and nothing else. Whole processes, alternated.
if (CLI_RUNS > 0) {
  /** User + system CPU of one process, in ms (bash's `times`: the shell's children). */
  const processCpu = (args: string[]): number => {
    const r = spawnSync(
      "bash",
      ["-c", '"$@" > /dev/null; status=$?; times; exit $status', "bash", process.execPath, ...args],
      { encoding: "utf8" },
    );
    if (r.error) throw new Error(`the CLI bench needs bash: ${r.error.message}`);
    const children = r.stdout.trim().split("\n").pop()!;
    const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(children);
    if (!m || r.status === null || r.status > 1) throw new Error(`${args.join(" ")} failed (${r.status}): ${r.stderr}`);
    return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
  };
  /** The CLI against the plain reader on one HAR file, alternated. */
  const measure = (har: string, what: string, messages: number, others = false): void => {
    const size = readFileSync(har).length;
    const cli = ["dist/cli/mcp-elicit.js", "lint", har];
    const reader = ["bench/harRead.mjs", har];
    const read = spawnSync(process.execPath, reader, { encoding: "utf8" });
    // `others`: the page's own JSON (metadata documents, API answers) is parsed too.
    const parsed = Number(read.stdout);
    if (others ? !(parsed >= messages) : parsed !== messages)
      throw new Error(
        `bench/harRead.mjs parsed ${read.stdout.trim()} JSON texts in ${what}, not ${others ? "at least " : ""}${messages}`,
      );
    // The CLI with every rule off: reading, importing, parsing and correlating, the floor that rules add to.
    const off = [...cli, "--disable", everyRule.join(",")];
    const runs = { cli: [] as number[], reader: [] as number[], off: [] as number[] };
    for (let i = 0; i <= CLI_RUNS; i++) {
      const order = i % 2 ? (["reader", "off", "cli"] as const) : (["cli", "off", "reader"] as const);
      for (const k of order) {
        const ms = processCpu(k === "cli" ? cli : k === "off" ? off : reader);
        if (i > 0) runs[k].push(ms);
      }
    }
    const paired = runs.cli.map((x, i) => x / runs.reader[i]!);
    const r = median(paired);
    console.log(
      `\nCLI, ${CLI_RUNS} alternated runs of whole processes after a warm-up, on ${what} (${(size / 2 ** 20).toFixed(0)} MB):`,
    );
    console.log(`  mcp-elicit lint                          ${summary(runs.cli, 0, " ms CPU")}`);
    console.log(`  mcp-elicit lint, every rule off          ${summary(runs.off, 0, " ms CPU")}`);
    console.log(`  read + parse (harRead.mjs)               ${summary(runs.reader, 0, " ms CPU")}`);
    console.log(
      `  CLI / read + parse                       ${summary(paired, 2, "×")} — target ≤ 2.5× ${r <= 2.5 ? "met" : "NOT met"}`,
    );
    console.log(
      `  CLI, every rule off / read + parse       ${summary(
        runs.off.map((x, i) => x / runs.reader[i]!),
        2,
        "×",
      )}`,
    );
  };
  const har = join(tmpdir(), `mcp-elicit-bench-${process.pid}.har`);
  try {
    // The corpus's records exported (the tap shapes them, so every exchange is an entry): the MCP traffic alone.
    const harText = exportHar(real.records);
    writeFileSync(har, harText);
    const { log } = JSON.parse(harText) as { log: { entries: unknown[]; _mcpRecords?: unknown[] } };
    measure(
      har,
      `the real-shaped corpus as a HAR (${log.entries.length} entries, ${log._mcpRecords?.length ?? 0} records in log._mcpRecords)`,
      realTexts.length,
    );
    // The same mix as Chromium records it (bench/harCorpus.ts): the page's own requests and Chromium's headers beside it.
    const chromium = writeRealShapedHar(har, harText.length);
    measure(
      har,
      `a Chromium-shaped HAR of that mix (bench/harCorpus.ts: ${chromium.entries} entries, ${chromium.sessions} sessions)`,
      chromium.messages,
      true,
    );
  } finally {
    rmSync(har, { force: true });
  }
}
if (sink < 0) console.log(sink);
