// `npm run bench:tap`: the page tap's cost as the page feels it, in headless Chromium, measured the way
// ../shared/benchmarking.md prescribes for these noisy 2-core VMs:
//   - three browsers alive at once, A and C without the extension and B with dist/chrome loaded, each on the same
//     bench page (COOP/COEP, so its clock ticks in 5 µs) served by a local MCP-shaped server (server.ts);
//   - they take turns in short blocks — 10 JSON tools/call fetches, or 2 SSE tools/call fetches — in a shuffled
//     order, with a ~60 ms gap after each block so the tap's deferred work (its ~50 ms batch post, the relay, the
//     worker) lands in its own browser's turn; a turn is one block on each browser, in shuffled order;
//   - every round relaunches all three browsers; per round, B's median over the mean of A's and C's medians;
//     across rounds the geometric mean with a 95% t-interval, and the A/A floor (C over A) beside every figure.
// Figures: page time per fetch (in the page, call → last byte read), main-thread CPU per fetch (CDP
// Performance.getMetrics ThreadTime around block + gap), process CPU of every browser process (/proc, block + gap)
// and the server-send → page-read delay of SSE events (first event and later events apart, p50/p90/p99; B minus
// the mean of A and C per round, mean across rounds with a t-interval). A benchmark: it prints, it does not assert.
//
// Environment: BENCH_TAP_ROUNDS (12), BENCH_TAP_TURNS (20 JSON + 20 SSE turns a round), BENCH_TAP_GAP_MS (60),
// BENCH_TAP_WARMUP (2 turns of each kind), BENCH_TAP_EXTENSION (dist/chrome), BENCH_TAP_SSE_EVENTS (8),
// BENCH_TAP_SSE_SPACING_MS (4), BENCH_TAP_JSON (path: also write the raw per-round figures there).
import { createHash } from "node:crypto";
import { fork } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, threadTimeMs, type Browser, type Session } from "./cdp.ts";
import { cpuMs, processTree } from "./proc.ts";
import { meanInterval, median, quantile, ratioInterval, verdict, type Interval } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_TAP_ROUNDS ?? 12);
const TURNS = Number(process.env.BENCH_TAP_TURNS ?? 20);
const GAP_MS = Number(process.env.BENCH_TAP_GAP_MS ?? 60);
const WARMUP = Number(process.env.BENCH_TAP_WARMUP ?? 2);
const JSON_PER_BLOCK = 10;
const SSE_PER_BLOCK = 2;
const EXTENSION = resolve(process.env.BENCH_TAP_EXTENSION ?? "dist/chrome");
const NAMES = ["A", "B", "C"] as const;
type Name = (typeof NAMES)[number];
type Kind = "json" | "sse";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const shuffle = <T>(xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};

// ---------------------------------------------------------------------------------------------------------------
// Set-up: a frozen copy of the extension (a rebuild mid-run must not change B), and the server in its own process.

if (!existsSync(join(EXTENSION, "manifest.json"))) {
  console.error(`bench:tap: no extension at ${EXTENSION} — run \`node build.mjs\` first.`);
  process.exit(1);
}
const snapshot = mkdtempSync(join(tmpdir(), "bench-tap-ext-"));
cpSync(EXTENSION, snapshot, { recursive: true });
/** Development only: C loads this extension instead of none, so that two builds of the tap meet in one run (B / C). */
const COMPARE = process.env.BENCH_TAP_COMPARE ? resolve(process.env.BENCH_TAP_COMPARE) : undefined;
const snapshotC = COMPARE ? mkdtempSync(join(tmpdir(), "bench-tap-ext-c-")) : undefined;
if (COMPARE && snapshotC) cpSync(COMPARE, snapshotC, { recursive: true });
const digest = (file: string): string => (existsSync(join(snapshot, file)) ? createHash("sha256").update(readFileSync(join(snapshot, file))).digest("hex").slice(0, 12) : "-");

const server = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
const { port, events: SSE_EVENTS, spacing: SSE_SPACING } = await new Promise<{ port: number; events: number; spacing: number }>((resolveStart, reject) => {
  server.once("message", (m) => resolveStart(m as { port: number; events: number; spacing: number }));
  server.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
});
/** BENCH_TAP_CLIENT=sdk: the page calls the tools through the real SDK client (pageSdk.ts) instead of bare fetch. */
const PAGE = `http://127.0.0.1:${port}/${process.env.BENCH_TAP_CLIENT === "sdk" ? "bench-sdk.html" : "bench.html"}`;

const cleanup = (): void => {
  if (server.connected) server.disconnect();
  rmSync(snapshot, { recursive: true, force: true });
  if (snapshotC) rmSync(snapshotC, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

// ---------------------------------------------------------------------------------------------------------------
// One round: launch A, B, C together, warm up, run the shuffled turns, close.

interface Seat {
  name: Name;
  browser: Browser;
  page: Session;
  worker?: string;
}

interface BlockFigures {
  /** Page time of each fetch (ms). */
  times: number[];
  /** Main-thread CPU per fetch of each block (ms), ThreadTime over block + gap. */
  cpu: number[];
  /** CPU per fetch of all the browser's processes, each block (ms), over block + gap. */
  proc: number[];
  /** SSE only: server-send → page-read (ms). */
  first: number[];
  later: number[];
}

type RoundFigures = Record<Kind, Record<Name, BlockFigures>> & {
  records?: { stored: number | undefined; expected: number };
  /** CPU of each browser's whole process tree from the first measured turn to 300 ms after the last, per fetch (ms). */
  wholeRound?: Record<Name, number>;
};

const emptyFigures = (): BlockFigures => ({ times: [], cpu: [], proc: [], first: [], later: [] });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function open(name: Name): Promise<Seat> {
  const browser = await launch(name, name === "B" ? snapshot : name === "C" ? snapshotC : undefined);
  try {
    let worker: string | undefined;
    if (name === "B" || (name === "C" && snapshotC)) {
      // The tap is injected at document_start once the extension is registered: wait for its worker first.
      worker = await waitFor("B's extension service worker", async () => {
        const { targetInfos } = await browser.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>("Target.getTargets");
        return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://"))?.targetId;
      });
    }
    const { targetId } = await browser.send<{ targetId: string }>("Target.createTarget", { url: PAGE });
    const page = await browser.attach(targetId);
    await waitFor(`${name}'s bench page`, async () => ((await page.evaluate<boolean>("typeof window.benchReady === 'object'")) ? true : undefined));
    const isolated = await page.evaluate<boolean>("window.benchReady");
    if (!isolated) throw new Error(`${name}: the bench page is not cross-origin isolated (COOP/COEP): timers would be coarse`);
    // The tap swaps fetch for a Proxy: CDP shows its subtype. A round where B is not tapped (or A/C are) is void.
    const { result } = await page.send<{ result: { subtype?: string } }>("Runtime.evaluate", { expression: "fetch" });
    const tapped = result.subtype === "proxy";
    if (tapped !== (name === "B" || (name === "C" && snapshotC !== undefined))) throw new Error(`${name}: fetch is ${tapped ? "" : "not "}wrapped — the extension ${name === "B" ? "did not load" : "leaked into a baseline"}`);
    await page.send("Performance.enable");
    return { name, browser, page, ...(worker && { worker }) };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

async function block(seat: Seat, kind: Kind, figures: BlockFigures | undefined): Promise<void> {
  const n = kind === "json" ? JSON_PER_BLOCK : SSE_PER_BLOCK;
  const pids = processTree(seat.browser.pid);
  const thread0 = await threadTimeMs(seat.page);
  const proc0 = cpuMs(pids);
  const result = await seat.page.evaluate<number[] | { times: number[]; first: number[]; later: number[] }>(kind === "json" ? `jsonBlock(${n})` : `sseBlock(${n})`);
  await sleep(GAP_MS);
  const thread1 = await threadTimeMs(seat.page);
  const proc1 = cpuMs(pids);
  if (!figures) return;
  figures.cpu.push((thread1 - thread0) / n);
  figures.proc.push((proc1 - proc0) / n);
  if (Array.isArray(result)) figures.times.push(...result);
  else {
    figures.times.push(...result.times);
    figures.first.push(...result.first);
    figures.later.push(...result.later);
  }
}

/** How many capture records B's worker holds (its IndexedDB): a check that the tap captured the traffic. */
async function storedRecords(seat: Seat): Promise<number | undefined> {
  if (!seat.worker) return undefined;
  try {
    const session = await seat.browser.attach(seat.worker);
    return await session.evaluate<number>(`new Promise((resolve, reject) => {
      const open = indexedDB.open("mcp-elicitation-inspector");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        try {
          const count = open.result.transaction("records").objectStore("records").count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        } catch (error) { reject(error); }
      };
    })`);
  } catch {
    return undefined;
  }
}

async function round(): Promise<RoundFigures> {
  const settled = await Promise.allSettled(NAMES.map(open));
  const seats = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  try {
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const figures: RoundFigures = { json: { A: emptyFigures(), B: emptyFigures(), C: emptyFigures() }, sse: { A: emptyFigures(), B: emptyFigures(), C: emptyFigures() } };
    const kinds: Kind[] = shuffle([...Array<Kind>(TURNS).fill("json"), ...Array<Kind>(TURNS).fill("sse")]);
    const warmup: Kind[] = Array.from({ length: WARMUP }, () => ["json", "sse"] as Kind[]).flat();
    for (const kind of warmup) for (const seat of shuffle([...seats])) await block(seat, kind, undefined);
    const trees = seats.map((seat) => processTree(seat.browser.pid));
    const start = trees.map(cpuMs);
    for (const kind of kinds) for (const seat of shuffle([...seats])) await block(seat, kind, figures[kind][seat.name]);
    await sleep(300);
    const fetches = TURNS * (JSON_PER_BLOCK + SSE_PER_BLOCK);
    const used = seats.map((seat, i) => [seat.name, (cpuMs(processTree(seat.browser.pid)) - start[i]!) / fetches] as const);
    figures.wholeRound = Object.fromEntries(used) as Record<Name, number>;
    const b = seats.find((s) => s.name === "B")!;
    // The page's initialize (4 records) and initialized (3); a JSON fetch: request, response, result, end; an SSE
    // fetch: request, response, each event, end. The SDK client also asks for the standalone GET stream once (405:
    // response, end).
    const turns = WARMUP + TURNS;
    const setup = 7 + (process.env.BENCH_TAP_CLIENT === "sdk" ? 2 : 0);
    figures.records = { stored: await storedRecords(b), expected: setup + turns * (JSON_PER_BLOCK * 4 + SSE_PER_BLOCK * (3 + SSE_EVENTS)) };
    return figures;
  } finally {
    await Promise.all(seats.map((s) => s.browser.close()));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Per-round statistics, then across rounds.

interface RoundSummary {
  ratio: Record<string, { b: number; aa: number; abs: Record<Name, number> }>;
  delay: Record<string, { b: number; aa: number; abs: Record<Name, number> }>;
}

const FIGURES = {
  "page time / JSON fetch": (r: RoundFigures) => per(r.json, (f) => median(f.times)),
  "page time / SSE fetch": (r: RoundFigures) => per(r.sse, (f) => median(f.times)),
  "main-thread CPU / JSON fetch": (r: RoundFigures) => per(r.json, (f) => median(f.cpu)),
  "main-thread CPU / SSE fetch": (r: RoundFigures) => per(r.sse, (f) => median(f.cpu)),
  "process CPU / JSON fetch": (r: RoundFigures) => per(r.json, (f) => median(f.proc)),
  "process CPU / SSE fetch": (r: RoundFigures) => per(r.sse, (f) => median(f.proc)),
};
const DELAYS = {
  "SSE first event p50": (r: RoundFigures) => per(r.sse, (f) => quantile(f.first, 0.5)),
  "SSE first event p90": (r: RoundFigures) => per(r.sse, (f) => quantile(f.first, 0.9)),
  "SSE first event p99": (r: RoundFigures) => per(r.sse, (f) => quantile(f.first, 0.99)),
  "SSE later events p50": (r: RoundFigures) => per(r.sse, (f) => quantile(f.later, 0.5)),
  "SSE later events p90": (r: RoundFigures) => per(r.sse, (f) => quantile(f.later, 0.9)),
  "SSE later events p99": (r: RoundFigures) => per(r.sse, (f) => quantile(f.later, 0.99)),
};
const TARGETS: Record<string, { target: number; show: string }> = {
  "page time / JSON fetch": { target: 1.05, show: "≤1.05×" },
  "page time / SSE fetch": { target: 1.05, show: "≤1.05×" },
  "main-thread CPU / JSON fetch": { target: 1.1, show: "≤1.10×" },
  "main-thread CPU / SSE fetch": { target: 1.1, show: "≤1.10×" },
  "SSE first event p90": { target: 0.5, show: "≤+0.50 ms" },
  "SSE later events p50": { target: 0.1, show: "≤+0.10 ms" },
};

function per(byName: Record<Name, BlockFigures>, f: (x: BlockFigures) => number): Record<Name, number> {
  return { A: f(byName.A), B: f(byName.B), C: f(byName.C) };
}

function summarize(r: RoundFigures): RoundSummary {
  const out: RoundSummary = { ratio: {}, delay: {} };
  for (const [label, f] of Object.entries(FIGURES)) {
    const abs = f(r);
    out.ratio[label] = { b: abs.B / ((abs.A + abs.C) / 2), aa: abs.C / abs.A, abs };
  }
  for (const [label, f] of Object.entries(DELAYS)) {
    const abs = f(r);
    out.delay[label] = { b: abs.B - (abs.A + abs.C) / 2, aa: abs.C - abs.A, abs };
  }
  return out;
}

/** An interval needs two rounds at least: with one, say so instead of printing NaN. */
const bounds = (i: Interval, f: (x: number) => string) => (Number.isNaN(i.lo) ? "[no interval: 1 round]" : `[${f(i.lo)}, ${f(i.hi)}]`);
const fmtRatio = (i: Interval) => `${i.estimate.toFixed(3)}× ${bounds(i, (x) => x.toFixed(3))}`;
const fmtDelta = (i: Interval) => {
  const s = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
  return `${s(i.estimate)} ms ${bounds(i, s)}`;
};
/** Prints rows with every column padded to its widest cell. */
function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? "")].length)));
  for (const r of rows) console.log(r.map((cell, c) => (c === r.length - 1 ? cell : cell + " ".repeat(widths[c]! - [...cell].length))).join("  ").trimEnd());
}

function report(rounds: RoundSummary[], raw: RoundFigures[]): void {
  const n = rounds.length;
  console.log();
  console.log(`bench:tap — ${n} rounds; per browser per round ${TURNS} JSON blocks × ${JSON_PER_BLOCK} fetches and ${TURNS} SSE blocks × ${SSE_PER_BLOCK} fetches (${SSE_EVENTS} events, ${SSE_SPACING} ms apart), gap ${GAP_MS} ms`);
  console.log(`B = dist/chrome (page.js ${digest("page.js")}, content.js ${digest("content.js")}, background.js ${digest("background.js")}); A, C = no extension`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; ${new Date().toISOString()}`);
  console.log();
  console.log("Ratios — per round: B / mean(A,C) of the browsers' medians; across rounds: geometric mean, 95% t-interval. A/A = C / A.");
  const ratioRows = [["figure", "A · B · C (median of rounds)", "B / mean(A,C) [95% CI]", "A/A: C / A [95% CI]", "target", "verdict"]];
  for (const label of Object.keys(FIGURES)) {
    const b = ratioInterval(rounds.map((r) => r.ratio[label]!.b));
    const aa = ratioInterval(rounds.map((r) => r.ratio[label]!.aa));
    const abs = NAMES.map((name) => median(rounds.map((r) => r.ratio[label]!.abs[name])).toFixed(label.startsWith("page") ? 2 : 3)).join(" · ") + " ms";
    const t = TARGETS[label];
    ratioRows.push([label, abs, fmtRatio(b), fmtRatio(aa), t?.show ?? "(info)", t ? verdict(b, t.target) : ""]);
  }
  table(ratioRows);
  console.log();
  console.log("SSE server-send → page-read — per round: B − mean(A,C) of the browsers' percentiles; across rounds: mean, 95% t-interval. A/A = C − A.");
  const delayRows = [["figure", "A · B · C (median of rounds)", "B − mean(A,C) [95% CI]", "A/A: C − A [95% CI]", "target", "verdict"]];
  for (const label of Object.keys(DELAYS)) {
    const b = meanInterval(rounds.map((r) => r.delay[label]!.b));
    const aa = meanInterval(rounds.map((r) => r.delay[label]!.aa));
    const abs = NAMES.map((name) => median(rounds.map((r) => r.delay[label]!.abs[name])).toFixed(3)).join(" · ") + " ms";
    const t = TARGETS[label];
    delayRows.push([label, abs, fmtDelta(b), fmtDelta(aa), t?.show ?? (label.endsWith("p99") ? "(printed, not gated)" : "(info)"), t ? verdict(b, t.target) : ""]);
  }
  table(delayRows);
  const count = (k: Kind, f: "times" | "first" | "later") => NAMES.map((name) => raw.reduce((a, r) => a + r[k][name][f].length, 0)).join(" · ");
  console.log();
  console.log(`samples (A · B · C): JSON fetches ${count("json", "times")}; SSE fetches ${count("sse", "times")}; first events ${count("sse", "first")}; later events ${count("sse", "later")}`);
  const whole = NAMES.map((name) => median(raw.map((r) => r.wholeRound?.[name] ?? Number.NaN)));
  const wholeRatio = ratioInterval(raw.map((r) => r.wholeRound!.B / ((r.wholeRound!.A + r.wholeRound!.C) / 2)));
  const wholeAa = ratioInterval(raw.map((r) => r.wholeRound!.C / r.wholeRound!.A));
  console.log(
    `process CPU of the whole round (all turns, idle time and late work included) per fetch: ${whole.map((x) => x.toFixed(3)).join(" · ")} ms; ` +
      `B / mean(A,C) ${fmtRatio(wholeRatio)}, A/A ${fmtRatio(wholeAa)}`,
  );
  const stored = raw.map((r) => r.records?.stored);
  console.log(`B's worker stored ${stored.map((s) => s ?? "?").join(", ")} capture records per round (expected ${raw[0]?.records?.expected ?? "?"})`);
  console.log("verdict rule (benchmarking.md): met when the interval's upper bound is under the target, not met when its lower bound is over it, inconclusive otherwise.");
}

// ---------------------------------------------------------------------------------------------------------------

const summaries: RoundSummary[] = [];
const raw: RoundFigures[] = [];
let failures = 0;
console.log(`bench:tap: ${ROUNDS} rounds against ${PAGE}; extension snapshot of ${EXTENSION}`);
if (COMPARE) console.log(`BENCH_TAP_COMPARE: C loads ${COMPARE}, so "A/A" below is C / A (that build's cost) and B / mean(A,C) means nothing: read B / A from BENCH_TAP_JSON.`);
try {
  while (summaries.length < ROUNDS) {
    const started = Date.now();
    let figures: RoundFigures;
    try {
      figures = await round();
    } catch (error) {
      // A browser that crashed or would not start on a loaded machine: the round is redone, not counted.
      failures++;
      console.log(`  round ${summaries.length + 1} failed and is redone: ${(error as Error).message.split("\n")[0]}`);
      if (failures > Math.max(3, ROUNDS / 2)) throw error;
      continue;
    }
    const s = summarize(figures);
    summaries.push(s);
    raw.push(figures);
    const r = (label: string) => `${s.ratio[label]!.b.toFixed(3)} (A/A ${s.ratio[label]!.aa.toFixed(3)})`;
    const d = (label: string) => `${s.delay[label]!.b >= 0 ? "+" : ""}${s.delay[label]!.b.toFixed(3)}`;
    console.log(
      `  round ${String(summaries.length).padStart(2)}/${ROUNDS} ${((Date.now() - started) / 1000).toFixed(1)} s: page JSON ${r("page time / JSON fetch")}, SSE ${r("page time / SSE fetch")}; ` +
        `CPU JSON ${r("main-thread CPU / JSON fetch")}, SSE ${r("main-thread CPU / SSE fetch")}; SSE first p90 ${d("SSE first event p90")} ms, later p50 ${d("SSE later events p50")} ms; ` +
        `records ${figures.records?.stored ?? "?"}`,
    );
  }
  report(summaries, raw);
  if (process.env.BENCH_TAP_JSON) writeFileSync(process.env.BENCH_TAP_JSON, JSON.stringify({ summaries, raw }, null, 1));
} finally {
  cleanup();
}
