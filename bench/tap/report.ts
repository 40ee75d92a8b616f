// bench:tap's figures and report (docs/benchmarks-tap.md "Figures"), apart from the driver (main.ts) so that a run
// saved with BENCH_TAP_JSON can be printed again: `node --import tsx bench/tap/report.ts saved.json`.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { fiellerInterval, meanInterval, median, quantile, ratioInterval, verdict, type Interval } from "./stats.ts";

export const ALL_KINDS = ["json", "sse", "plain", "chat"] as const;
export type Kind = (typeof ALL_KINDS)[number];
/** Fetches in one block of each kind. */
export const PER_BLOCK: Record<Kind, number> = { json: 10, sse: 2, plain: 10, chat: 1 };
export const KIND_LABEL: Record<Kind, string> = {
  json: "MCP JSON fetch",
  sse: "MCP SSE fetch",
  plain: "plain JSON fetch",
  chat: "chat stream",
};
/** MCP traffic (the tap records it) and traffic that is not MCP (the tap must leave it on its fast path). */
export const isMcp = (kind: Kind): boolean => kind === "json" || kind === "sse";

export const NAMES = ["A", "C", "B", "N", "P"] as const;
export type Name = (typeof NAMES)[number];

export interface BlockFigures {
  /** Page time of each fetch (ms). */
  times: number[];
  /** Main-thread CPU per fetch of each block (ms), ThreadTime over block + gap. */
  cpu: number[];
  /** CPU per fetch of all the browser's processes, each block (ms), over block + gap. */
  proc: number[];
  /** MCP SSE only: server-send → page-read (ms). */
  first: number[];
  later: number[];
}

export interface RoundFigures {
  blocks: Record<Kind, Record<Name, BlockFigures>>;
  /** B's stored capture records and the number the traffic should produce. */
  records: { stored: number | undefined; expected: number };
  /** N: fetches its network recording saw end, and the number it should have seen. */
  recorded: { ended: number; expected: number };
  /** CPU of each browser's whole process tree from the first measured turn to 300 ms after the last (ms). */
  wholeRound: Record<Name, number>;
}

/** What the report's header says about the run, saved beside the figures. */
export interface RunConfig {
  turns: number;
  gapMs: number;
  kinds: Kind[];
  sse: { events: number; spacing: number };
  chat: { events: number; burst: number; spacing: number };
  /** The tap's build (B) and its page.js, content.js and background.js digests; the pass-through's page.js. */
  extension: string;
  digests: { page: string; content: string; background: string; passthrough: string };
  network: Record<string, unknown>;
  /** BENCH_TAP_COMPARE: C's build; the baseline is then A alone. */
  compare?: string;
  client?: string;
  machine: string;
  /** When the last round ended (ISO). */
  finished: string;
}

type Metric = "time" | "cpu" | "proc";
const METRICS = ["time", "cpu", "proc"] as const;
const METRIC_LABEL: Record<Metric, string> = { time: "page time", cpu: "main-thread CPU", proc: "process CPU" };
/** The figures with targets; process CPU is printed for information. */
const GATED: readonly Metric[] = ["time", "cpu"];

const DELAYS = {
  "SSE first event p50": (f: BlockFigures) => quantile(f.first, 0.5),
  "SSE first event p90": (f: BlockFigures) => quantile(f.first, 0.9),
  "SSE first event p99": (f: BlockFigures) => quantile(f.first, 0.99),
  "SSE later events p50": (f: BlockFigures) => quantile(f.later, 0.5),
  "SSE later events p90": (f: BlockFigures) => quantile(f.later, 0.9),
  "SSE later events p99": (f: BlockFigures) => quantile(f.later, 0.99),
};
/** The earlier targets on the tap's ratio to the bare baselines (MCP traffic). */
const RATIO_TARGETS: Partial<Record<`${Metric}/${Kind}`, number>> = {
  "time/json": 1.05,
  "time/sse": 1.05,
  "cpu/json": 1.1,
  "cpu/sse": 1.1,
};
const DELAY_TARGETS: Record<string, number> = { "SSE first event p90": 0.5, "SSE later events p50": 0.1 };

/** An interval needs two rounds at least: with one, say so instead of printing NaN. */
const bounds = (i: Interval, f: (x: number) => string) =>
  Number.isNaN(i.lo) ? "[no interval: 1 round]" : `[${f(i.lo)}, ${f(i.hi)}]`;
const minus = (s: string) => s.replace("-", "−");
const fmtRatio = (i: Interval) => `${minus(i.estimate.toFixed(3))}× ${bounds(i, (x) => minus(x.toFixed(3)))}`;
export const signed = (x: number, digits = 3) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
const fmtDelta = (i: Interval) => `${signed(i.estimate)} ms ${bounds(i, (x) => signed(x))}`;
/** Prints rows with every column padded to its widest cell. */
function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? "")].length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, c) => (c === r.length - 1 ? cell : cell + " ".repeat(widths[c]! - [...cell].length)))
        .join("  ")
        .trimEnd(),
    );
}
const label = (metric: Metric, kind: Kind) => `${METRIC_LABEL[metric]} / ${KIND_LABEL[kind]}`;

export function createReport(config: RunConfig) {
  const kinds = config.kinds;
  const mcpKinds = kinds.filter(isMcp);
  const otherKinds = kinds.filter((kind) => !isMcp(kind));
  const baseName = config.compare ? "A" : "mean(A,C)";

  /** A browser's figure in a round: the median of its fetches' page times, or of its blocks' CPU per fetch. */
  function value(r: RoundFigures, kind: Kind, metric: Metric, name: Name): number {
    const f = r.blocks[kind][name];
    return median(metric === "time" ? f.times : f[metric]);
  }
  /** The bare baseline: the mean of A and C, or A alone when C loads another build (BENCH_TAP_COMPARE). */
  function base(r: RoundFigures, kind: Kind, metric: Metric): number {
    const a = value(r, kind, metric, "A");
    return config.compare ? a : (a + value(r, kind, metric, "C")) / 2;
  }
  const added = (r: RoundFigures, kind: Kind, metric: Metric, name: Name): number =>
    value(r, kind, metric, name) - base(r, kind, metric);

  /**
   * The ratio of two seats' added costs: mean over rounds of one over the mean of the other, with Fieller's 95%
   * interval (stats.ts). When the second's added cost cannot be told from zero the ratio means nothing: its
   * interval is shown instead.
   */
  function addedRatio(raw: RoundFigures[], kind: Kind, metric: Metric, over: Name, under: Name): string {
    const ys = raw.map((r) => added(r, kind, metric, under));
    const f = fiellerInterval(
      raw.map((r) => added(r, kind, metric, over)),
      ys,
    );
    if (!f.bounded) return `— (${under} adds ${fmtDelta(meanInterval(ys))}: not above zero)`;
    return fmtRatio(f);
  }

  /** "B is no more than N (or P)" on one figure: per round B − N, met when the interval is below zero. */
  function noMore(
    raw: RoundFigures[],
    kind: Kind,
    metric: Metric,
    over: Name,
    under: Name,
  ): { diff: Interval; verdict: string } {
    const diff = meanInterval(raw.map((r) => value(r, kind, metric, over) - value(r, kind, metric, under)));
    return { diff, verdict: verdict(diff, 0) };
  }

  const addedInterval = (raw: RoundFigures[], kind: Kind, metric: Metric, name: Name) =>
    fmtDelta(meanInterval(raw.map((r) => added(r, kind, metric, name))));

  function mcpTable(raw: RoundFigures[]): void {
    console.log();
    console.log(
      `MCP traffic: the tap (B) against network recording (N) — added cost = seat − ${baseName} per round, mean over rounds, 95% t-interval;`,
    );
    console.log(
      "tap / network = mean added cost of B over N's, 95% Fieller interval; the target is tap added ≤ network added, judged on B − N per round.",
    );
    const rows = [
      [
        "figure",
        "tap adds (B − base)",
        "network recording adds (N − base)",
        "tap / network (added)",
        "B − N",
        "target",
        "verdict",
      ],
    ];
    for (const kind of mcpKinds) {
      for (const metric of METRICS) {
        const gated = GATED.includes(metric);
        const { diff, verdict: v } = noMore(raw, kind, metric, "B", "N");
        rows.push([
          label(metric, kind),
          addedInterval(raw, kind, metric, "B"),
          addedInterval(raw, kind, metric, "N"),
          addedRatio(raw, kind, metric, "B", "N"),
          fmtDelta(diff),
          gated ? "B − N ≤ 0" : "(info)",
          gated ? v : "",
        ]);
      }
    }
    table(rows);
  }

  function otherTable(raw: RoundFigures[]): void {
    console.log();
    console.log(
      `Traffic that is not MCP: the tap (B) against a pass-through wrapper (P) — added cost = seat − ${baseName}; B / P per round, geometric mean, 95% t-interval;`,
    );
    console.log(
      "the target is that the tap costs no more than the pass-through, judged on B − P (a tap does at least what P does: 'met' would need it to be cheaper).",
    );
    const rows = [
      [
        "figure",
        "tap adds (B − base)",
        "pass-through adds (P − base)",
        "tap / pass-through (added)",
        "B / P",
        "B − P",
        "target",
        "verdict",
      ],
    ];
    for (const kind of otherKinds) {
      for (const metric of METRICS) {
        const gated = GATED.includes(metric);
        const { diff, verdict: v } = noMore(raw, kind, metric, "B", "P");
        rows.push([
          label(metric, kind),
          addedInterval(raw, kind, metric, "B"),
          addedInterval(raw, kind, metric, "P"),
          addedRatio(raw, kind, metric, "B", "P"),
          fmtRatio(ratioInterval(raw.map((r) => value(r, kind, metric, "B") / value(r, kind, metric, "P")))),
          fmtDelta(diff),
          gated ? "B − P ≤ 0" : "(info)",
          gated ? v : "",
        ]);
      }
    }
    table(rows);
  }

  function ratioTable(raw: RoundFigures[]): void {
    console.log();
    console.log(
      `Ratios to the bare baseline — per round: seat / ${baseName}; across rounds: geometric mean, 95% t-interval. A/A = C / A. Targets (the tap's, earlier issues) on B.`,
    );
    const rows = [["figure", "B / base", "N / base", "P / base", "A/A: C / A", "target", "verdict"]];
    for (const kind of kinds) {
      for (const metric of METRICS) {
        const ratio = (name: Name) =>
          ratioInterval(raw.map((r) => value(r, kind, metric, name) / base(r, kind, metric)));
        const b = ratio("B");
        const target = RATIO_TARGETS[`${metric}/${kind}`];
        const aa = ratioInterval(raw.map((r) => value(r, kind, metric, "C") / value(r, kind, metric, "A")));
        rows.push([
          label(metric, kind),
          fmtRatio(b),
          fmtRatio(ratio("N")),
          fmtRatio(ratio("P")),
          fmtRatio(aa),
          target ? `≤${target.toFixed(2)}×` : "(info)",
          target ? verdict(b, target) : "",
        ]);
      }
    }
    table(rows);
  }

  function delayTable(raw: RoundFigures[]): void {
    console.log();
    console.log(
      `MCP SSE server-send → page-read — per round: seat − ${baseName} of the browsers' percentiles; across rounds: mean, 95% t-interval. A/A = C − A.`,
    );
    const rows = [
      ["figure", "A · C · B · N · P (median of rounds)", "B − base", "N − base", "A/A: C − A", "target", "verdict"],
    ];
    for (const [name, f] of Object.entries(DELAYS)) {
      const at = (r: RoundFigures, seat: Name) => f(r.blocks.sse[seat]);
      const baseAt = (r: RoundFigures) => (config.compare ? at(r, "A") : (at(r, "A") + at(r, "C")) / 2);
      const b = meanInterval(raw.map((r) => at(r, "B") - baseAt(r)));
      const target = DELAY_TARGETS[name];
      rows.push([
        name,
        NAMES.map((seat) => median(raw.map((r) => at(r, seat))).toFixed(3)).join(" · ") + " ms",
        fmtDelta(b),
        fmtDelta(meanInterval(raw.map((r) => at(r, "N") - baseAt(r)))),
        fmtDelta(meanInterval(raw.map((r) => at(r, "C") - at(r, "A")))),
        target !== undefined ? `≤+${target.toFixed(2)} ms` : name.endsWith("p99") ? "(printed, not gated)" : "(info)",
        target !== undefined ? verdict(b, target) : "",
      ]);
    }
    table(rows);
  }

  function print(raw: RoundFigures[]): void {
    const c = config;
    console.log();
    console.log(
      `bench:tap — ${raw.length} rounds; per browser per round ${c.turns} blocks of each kind: ${PER_BLOCK.json} MCP JSON fetches; ${PER_BLOCK.sse} MCP SSE fetches (${c.sse.events} events, ${c.sse.spacing} ms apart); ` +
        `${PER_BLOCK.plain} plain JSON fetches; ${PER_BLOCK.chat} chat stream (${c.chat.events} events, ${c.chat.burst} a write, ${c.chat.spacing} ms apart); gap ${c.gapMs} ms${c.client ? `; MCP client: ${c.client}` : ""}`,
    );
    console.log(
      `B = ${c.extension} (page.js ${c.digests.page}, content.js ${c.digests.content}, background.js ${c.digests.background})`,
    );
    console.log(
      `N = no extension, network recording on (CDP Network.enable ${JSON.stringify(c.network)}, Network.setAttachDebugStack)`,
    );
    console.log(
      `P = pass-through build (page.js ${c.digests.passthrough}); A = no extension; C = ${c.compare ? `${c.compare} (BENCH_TAP_COMPARE; the baseline is A alone)` : "no extension"}`,
    );
    console.log(`machine: ${c.machine}; last round ended ${c.finished}`);

    console.log();
    console.log("Each seat — median over rounds of the browser's per-round median, ms:");
    const seatRows = [["figure", ...NAMES]];
    for (const kind of kinds)
      for (const metric of METRICS)
        seatRows.push([
          label(metric, kind),
          ...NAMES.map((name) => median(raw.map((r) => value(r, kind, metric, name))).toFixed(3)),
        ]);
    table(seatRows);

    if (mcpKinds.length > 0) mcpTable(raw);
    if (otherKinds.length > 0) otherTable(raw);
    ratioTable(raw);
    if (kinds.includes("sse")) delayTable(raw);

    console.log();
    const count = (kind: Kind, f: "times" | "first" | "later") =>
      raw.reduce((a, r) => a + r.blocks[kind].A[f].length, 0);
    console.log(
      `samples per browser: MCP JSON fetches ${count("json", "times")}; MCP SSE fetches ${count("sse", "times")} (first events ${count("sse", "first")}, later events ${count("sse", "later")}); ` +
        `plain JSON fetches ${count("plain", "times")}; chat streams ${count("chat", "times")}`,
    );
    const whole = (name: Name) =>
      ratioInterval(
        raw.map((r) => r.wholeRound[name] / (c.compare ? r.wholeRound.A : (r.wholeRound.A + r.wholeRound.C) / 2)),
      );
    console.log(
      `process CPU of the whole round (all turns, idle time and late work included): ${NAMES.map((name) => `${name} ${(median(raw.map((r) => r.wholeRound[name])) / 1000).toFixed(2)} s`).join(", ")}; ` +
        `B / base ${fmtRatio(whole("B"))}, N / base ${fmtRatio(whole("N"))}, P / base ${fmtRatio(whole("P"))}`,
    );
    console.log(
      `B's worker stored ${raw.map((r) => r.records.stored ?? "?").join(", ")} capture records per round (expected ${raw[0]?.records.expected ?? "?"}: MCP traffic only)`,
    );
    console.log(
      `N's network recording saw ${raw.map((r) => r.recorded.ended).join(", ")} fetches end per round (expected ${raw[0]?.recorded.expected ?? "?"}: every warm-up and measured fetch)`,
    );
    console.log(
      "verdict rule (benchmarking.md): met when the interval's upper bound is under the target, not met when its lower bound is over it, inconclusive otherwise.",
    );
  }

  /** The per-round medians, for BENCH_TAP_JSON readers (B / C under BENCH_TAP_COMPARE and the like). */
  const medians = (r: RoundFigures) =>
    Object.fromEntries(
      kinds.map((kind) => [
        kind,
        Object.fromEntries(
          METRICS.map((metric) => [
            metric,
            Object.fromEntries(NAMES.map((name) => [name, value(r, kind, metric, name)])),
          ]),
        ),
      ]),
    );

  /** One line after each round: the added main-thread CPU of B and its peer, per kind. */
  function progress(r: RoundFigures): string {
    const d = (kind: Kind, name: Name) =>
      `${name === "B" ? "tap" : name === "N" ? "net" : "pass"} ${signed(added(r, kind, "cpu", name))}`;
    const peers = kinds
      .map((kind) => `${KIND_LABEL[kind]} ${d(kind, "B")} ${d(kind, isMcp(kind) ? "N" : "P")}`)
      .join("; ");
    const first = kinds[0]!;
    return `added main-thread CPU ms: ${peers}; A/A ${KIND_LABEL[first]} ${(value(r, first, "cpu", "C") / value(r, first, "cpu", "A")).toFixed(3)}`;
  }

  return { print, medians, progress };
}

// `node --import tsx bench/tap/report.ts saved.json`: the report of a run saved with BENCH_TAP_JSON.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node --import tsx bench/tap/report.ts <file saved with BENCH_TAP_JSON>");
    process.exit(2);
  }
  const saved = JSON.parse(readFileSync(file, "utf8")) as { config?: RunConfig; raw: RoundFigures[] };
  if (!saved.config) {
    console.error(`${file}: no "config" (the run's header): not a file saved by this bench:tap`);
    process.exit(2);
  }
  console.log(`bench:tap report of the run saved in ${file}`);
  createReport(saved.config).print(saved.raw);
}
