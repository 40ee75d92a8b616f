// `npm run bench:tap`: the page tap's cost as the page feels it, in headless Chromium, measured the way
// ../shared/benchmarking.md prescribes for these noisy 2-core VMs, beside the peers that matter:
//   - five browsers alive at once, each on the same bench page (COOP/COEP, so its clock ticks in 5 µs) served by a
//     local server (server.ts): A and C with no extension (the bare baselines), B with dist/chrome (the tap), N with
//     no extension but network recording on in the page (CDP Network.enable and setAttachDebugStack, what DevTools
//     sends when it opens), and P with a pass-through build (passthrough/: `fetch` a Proxy that only calls through,
//     the floor of any fetch tap);
//   - they take turns in short blocks — 10 MCP JSON fetches, 2 MCP SSE fetches, 10 plain JSON API fetches or one
//     chat token stream of 2,000 events — in a shuffled order, with a ~60 ms gap after each block so the tap's
//     deferred work (its batch post, the relay, the worker) lands in its own browser's turn; a turn is one block on
//     each browser, in shuffled order;
//   - every round relaunches all five browsers; per round each browser's median, the bare baseline is the mean of
//     A's and C's; across rounds geometric means (ratios) or means (differences) with 95% t-intervals, and the A/A
//     floor (C against A) beside the figures.
// Figures: page time per fetch (in the page, call → last byte read), main-thread CPU per fetch (CDP
// Performance.getMetrics ThreadTime around block + gap), process CPU of every browser process (/proc, block + gap)
// and the server-send → page-read delay of MCP SSE events. Compared: what the tap adds (B − base) against what
// network recording adds (N − base) on MCP traffic, and against what a pass-through wrapper adds (P − base) on
// traffic that is not MCP (the statistics and the report: report.ts). A benchmark: it prints, it does not assert.
// docs/benchmarks-tap.md has the method.
//
// Environment: BENCH_TAP_ROUNDS (12), BENCH_TAP_TURNS (20 turns of each of the four kinds a round), BENCH_TAP_GAP_MS
// (60), BENCH_TAP_WARMUP (2 turns of each kind), BENCH_TAP_EXTENSION (dist/chrome), BENCH_TAP_SSE_EVENTS (8),
// BENCH_TAP_SSE_SPACING_MS (4), BENCH_TAP_CHAT_EVENTS (2000), BENCH_TAP_CHAT_BURST (10 events a write),
// BENCH_TAP_CHAT_SPACING_MS (1), BENCH_TAP_JSON (path: also write the raw per-round figures there),
// BENCH_TAP_COMPARE (C loads that build instead of none; the baseline is then A alone), BENCH_TAP_KINDS (a subset
// of json,sse,plain,chat), BENCH_TAP_CLIENT (sdk: the MCP calls go through the real SDK client, pageSdk.ts).
import { createHash } from "node:crypto";
import { fork } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { launch, threadTimeMs, type Browser, type Session } from "./cdp.ts";
import { cpuMs, processTree } from "./proc.ts";
import {
  ALL_KINDS,
  createReport,
  NAMES,
  PER_BLOCK,
  type BlockFigures,
  type Kind,
  type Name,
  type RoundFigures,
  type RunConfig,
} from "./report.ts";

const ROUNDS = Number(process.env.BENCH_TAP_ROUNDS ?? 12);
const TURNS = Number(process.env.BENCH_TAP_TURNS ?? 20);
const GAP_MS = Number(process.env.BENCH_TAP_GAP_MS ?? 60);
const WARMUP = Number(process.env.BENCH_TAP_WARMUP ?? 2);
const EXTENSION = resolve(process.env.BENCH_TAP_EXTENSION ?? "dist/chrome");

/** BENCH_TAP_KINDS (development): only these kinds of blocks, e.g. `chat,plain`; the report leaves the others out. */
const KINDS: Kind[] = process.env.BENCH_TAP_KINDS
  ? ALL_KINDS.filter((kind) => process.env.BENCH_TAP_KINDS!.split(",").includes(kind))
  : [...ALL_KINDS];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const shuffle = <T>(xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};

// ---------------------------------------------------------------------------------------------------------------
// Set-up: frozen copies of the extensions (a rebuild mid-run must not change B), the pass-through build, the server
// in its own process.

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
/** Seat P: the pass-through build, compiled here from passthrough/page.ts. */
const passthrough = mkdtempSync(join(tmpdir(), "bench-tap-ext-p-"));
copyFileSync(
  fileURLToPath(new URL("./passthrough/manifest.json", import.meta.url)),
  join(passthrough, "manifest.json"),
);
await esbuild.build({
  entryPoints: [fileURLToPath(new URL("./passthrough/page.ts", import.meta.url))],
  outfile: join(passthrough, "page.js"),
  bundle: true,
  format: "iife",
  target: "chrome111",
  platform: "browser",
  minify: true,
  logLevel: "warning",
});
const digest = (dir: string, file: string): string =>
  existsSync(join(dir, file))
    ? createHash("sha256")
        .update(readFileSync(join(dir, file)))
        .digest("hex")
        .slice(0, 12)
    : "-";

const EXTENSION_OF: Partial<Record<Name, string>> = { B: snapshot, P: passthrough, ...(snapshotC && { C: snapshotC }) };
/** Seats whose extension has a worker that stores records (the tap's). */
const hasWorker = (name: Name): boolean => name === "B" || (name === "C" && snapshotC !== undefined);

/**
 * What DevTools sends to a page when it opens (devtools-frontend, core/sdk/NetworkManager.ts): Network.enable with
 * the eager request-body limit (64 KiB) and the response buffer (250 MiB), then setAttachDebugStack.
 */
const NETWORK_ENABLE = {
  maxPostDataSize: 64 * 1024,
  maxTotalBufferSize: 250 * 1024 * 1024,
  reportDirectSocketTraffic: true,
};

const server = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [], {
  execArgv: process.execArgv,
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
interface ServerInfo {
  port: number;
  events: number;
  spacing: number;
  chat: { events: number; burst: number; spacing: number };
}
const {
  port,
  events: SSE_EVENTS,
  spacing: SSE_SPACING,
  chat: CHAT,
} = await new Promise<ServerInfo>((resolveStart, reject) => {
  server.once("message", (m) => resolveStart(m as ServerInfo));
  server.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
});
/** BENCH_TAP_CLIENT=sdk: the page calls the tools through the real SDK client (pageSdk.ts) instead of bare fetch. */
const PAGE = `http://127.0.0.1:${port}/${process.env.BENCH_TAP_CLIENT === "sdk" ? "bench-sdk.html" : "bench.html"}`;

const cleanup = (): void => {
  if (server.connected) server.disconnect();
  for (const dir of [snapshot, snapshotC, passthrough]) if (dir) rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

// ---------------------------------------------------------------------------------------------------------------
// One round: launch the five browsers together, warm up, run the shuffled turns, close.

interface Seat {
  name: Name;
  browser: Browser;
  page: Session;
  worker?: string;
  /** N: fetches the page's network recording saw end (Network.loadingFinished or loadingFailed events). */
  recorded?: { ended: number };
}

const emptyFigures = (): BlockFigures => ({ times: [], cpu: [], proc: [], first: [], later: [] });
const emptyKind = (): Record<Name, BlockFigures> => ({
  A: emptyFigures(),
  C: emptyFigures(),
  B: emptyFigures(),
  N: emptyFigures(),
  P: emptyFigures(),
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function open(name: Name): Promise<Seat> {
  const browser = await launch(name, EXTENSION_OF[name]);
  try {
    let worker: string | undefined;
    if (hasWorker(name)) {
      // The tap is injected at document_start once the extension is registered: wait for its worker first.
      worker = await waitFor(`${name}'s extension service worker`, async () => {
        const { targetInfos } = await browser.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>(
          "Target.getTargets",
        );
        return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://"))
          ?.targetId;
      });
    }
    const { targetId } = await browser.send<{ targetId: string }>("Target.createTarget", { url: PAGE });
    const page = await browser.attach(targetId);
    await waitFor(`${name}'s bench page`, async () =>
      (await page.evaluate<boolean>("typeof window.benchReady === 'object'")) ? true : undefined,
    );
    const isolated = await page.evaluate<boolean>("window.benchReady");
    if (!isolated)
      throw new Error(`${name}: the bench page is not cross-origin isolated (COOP/COEP): timers would be coarse`);
    // The tap and the pass-through swap fetch for a Proxy: CDP shows its subtype. A round where a seat's page is not
    // as it should be (B or P not wrapped, a baseline wrapped) is void.
    const { result } = await page.send<{ result: { subtype?: string } }>("Runtime.evaluate", { expression: "fetch" });
    const wrapped = result.subtype === "proxy";
    if (wrapped !== (EXTENSION_OF[name] !== undefined))
      throw new Error(
        `${name}: fetch is ${wrapped ? "" : "not "}wrapped — ${wrapped ? "an extension leaked into a baseline" : "its extension did not load"}`,
      );
    await page.send("Performance.enable");
    const seat: Seat = { name, browser, page, ...(worker && { worker }) };
    if (name === "N") {
      // The bench's own fetches only (not a favicon). A stream the page read to its end may still end in
      // loadingFailed (net::ERR_ABORTED, canceled) in Chromium.
      const recorded = { ended: 0 };
      const ours = new Set<string>();
      browser.on<{ requestId: string; request: { url: string } }>(
        "Network.requestWillBeSent",
        ({ requestId, request }) => {
          if (/\/(mcp|api\/search|v1\/chat\/completions)$/.test(new URL(request.url).pathname)) ours.add(requestId);
        },
      );
      const ended = ({ requestId }: { requestId: string }) => void (ours.delete(requestId) && recorded.ended++);
      browser.on("Network.loadingFinished", ended);
      browser.on("Network.loadingFailed", ended);
      // reportDirectSocketTraffic is newer than some Chromiums: without it if refused.
      await page.send("Network.enable", NETWORK_ENABLE).catch(() =>
        page.send("Network.enable", {
          maxPostDataSize: NETWORK_ENABLE.maxPostDataSize,
          maxTotalBufferSize: NETWORK_ENABLE.maxTotalBufferSize,
        }),
      );
      await page.send("Network.setAttachDebugStack", { enabled: true });
      seat.recorded = recorded;
    }
    return seat;
  } catch (error) {
    await browser.close();
    throw error;
  }
}

type BlockResult =
  | number[]
  | { times: number[]; first: number[]; later: number[] }
  | { times: number[]; events: number[] };

async function block(seat: Seat, kind: Kind, figures: BlockFigures | undefined): Promise<void> {
  const n = PER_BLOCK[kind];
  const pids = processTree(seat.browser.pid);
  const thread0 = await threadTimeMs(seat.page);
  const proc0 = cpuMs(pids);
  const result = await seat.page.evaluate<BlockResult>(`${kind}Block(${n})`);
  await sleep(GAP_MS);
  const thread1 = await threadTimeMs(seat.page);
  const proc1 = cpuMs(pids);
  if ("events" in result && result.events.some((e) => e !== CHAT.events))
    throw new Error(`${seat.name}: a chat stream delivered ${result.events.join(", ")} events, not ${CHAT.events}`);
  if (!figures) return;
  figures.cpu.push((thread1 - thread0) / n);
  figures.proc.push((proc1 - proc0) / n);
  if (Array.isArray(result)) figures.times.push(...result);
  else {
    figures.times.push(...result.times);
    if ("first" in result) {
      figures.first.push(...result.first);
      figures.later.push(...result.later);
    }
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
    const blocks = { json: emptyKind(), sse: emptyKind(), plain: emptyKind(), chat: emptyKind() };
    const kinds: Kind[] = shuffle(KINDS.flatMap((kind) => Array<Kind>(TURNS).fill(kind)));
    const warmup: Kind[] = Array.from({ length: WARMUP }, () => [...KINDS]).flat();
    for (const kind of warmup) for (const seat of shuffle([...seats])) await block(seat, kind, undefined);
    const trees = seats.map((seat) => processTree(seat.browser.pid));
    const start = trees.map(cpuMs);
    for (const kind of kinds) for (const seat of shuffle([...seats])) await block(seat, kind, blocks[kind][seat.name]);
    await sleep(300);
    const wholeRound = Object.fromEntries(
      seats.map((seat, i) => [seat.name, cpuMs(processTree(seat.browser.pid)) - start[i]!]),
    ) as Record<Name, number>;
    const b = seats.find((s) => s.name === "B")!;
    const n = seats.find((s) => s.name === "N")!;
    // The page's initialize (4 records) and initialized (3); an MCP JSON fetch: request, response, result, end; an
    // MCP SSE fetch: request, response, each event, end. The SDK client also asks for the standalone GET stream once
    // (405: response, end). Traffic that is not MCP: none.
    const turns = WARMUP + TURNS;
    const setup = 7 + (process.env.BENCH_TAP_CLIENT === "sdk" ? 2 : 0);
    const records = {
      stored: await storedRecords(b),
      expected:
        setup +
        turns *
          ((KINDS.includes("json") ? PER_BLOCK.json * 4 : 0) +
            (KINDS.includes("sse") ? PER_BLOCK.sse * (3 + SSE_EVENTS) : 0)),
    };
    // N's recording was switched on after the page loaded: it sees every fetch of the warm-up and measured turns.
    const recorded = { ...n.recorded!, expected: turns * KINDS.reduce((sum, kind) => sum + PER_BLOCK[kind], 0) };
    return { blocks, records, recorded, wholeRound };
  } finally {
    await Promise.all(seats.map((s) => s.browser.close()));
  }
}

// ---------------------------------------------------------------------------------------------------------------

const config = (): RunConfig => ({
  turns: TURNS,
  gapMs: GAP_MS,
  kinds: KINDS,
  sse: { events: SSE_EVENTS, spacing: SSE_SPACING },
  chat: CHAT,
  extension: EXTENSION,
  digests: {
    page: digest(snapshot, "page.js"),
    content: digest(snapshot, "content.js"),
    background: digest(snapshot, "background.js"),
    passthrough: digest(passthrough, "page.js"),
  },
  network: NETWORK_ENABLE,
  ...(COMPARE && { compare: COMPARE }),
  ...(process.env.BENCH_TAP_CLIENT && { client: process.env.BENCH_TAP_CLIENT }),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
  finished: new Date().toISOString(),
});
const { medians, progress } = createReport(config());

const raw: RoundFigures[] = [];
let failures = 0;
console.log(`bench:tap: ${ROUNDS} rounds against ${PAGE}; extension snapshot of ${EXTENSION}`);
if (COMPARE)
  console.log(
    `BENCH_TAP_COMPARE: C loads ${COMPARE}; the bare baseline is A alone, and "A/A" below is C / A (that build's cost).`,
  );
try {
  while (raw.length < ROUNDS) {
    const started = Date.now();
    let figures: RoundFigures;
    try {
      figures = await round();
    } catch (error) {
      // A browser that crashed or would not start on a loaded machine: the round is redone, not counted.
      failures++;
      console.log(`  round ${raw.length + 1} failed and is redone: ${(error as Error).message.split("\n")[0]}`);
      if (failures > Math.max(3, ROUNDS / 2)) throw error;
      continue;
    }
    raw.push(figures);
    console.log(
      `  round ${String(raw.length).padStart(2)}/${ROUNDS} ${((Date.now() - started) / 1000).toFixed(1)} s, ${progress(figures)}; records ${figures.records.stored ?? "?"}, N saw ${figures.recorded.ended}`,
    );
  }
  // The header's machine line and time are the end of the run's.
  const run = config();
  createReport(run).print(raw);
  if (process.env.BENCH_TAP_JSON)
    writeFileSync(process.env.BENCH_TAP_JSON, JSON.stringify({ config: run, medians: raw.map(medians), raw }, null, 1));
} finally {
  cleanup();
}
