// `node --import tsx bench/tap/trace.ts`: the page renderer's main-thread CPU, task by task, with and without the
// extension (for developing the tap; not a benchmark). It runs JSON and SSE blocks as main.ts does, with Chromium
// tracing on, and groups every top-level task of the bench page's main thread by where it was posted from and which
// scripts it ran (page.js: the tap; content.js: the relay; bench: the page), summing thread time (`tdur`, CPU
// time, so a loaded machine's waits do not count). Printed per fetch, B (extension) beside A (none): the rows
// where B spends more are the tap's cost, including work no JS profiler sees (clone, tee, IPC, event dispatch).
// Tracing itself slows every task (a trivial timer task shows ~0.1 ms): compare B with A, and count tasks.
// TRACE_BLOCKS (30 per kind), TRACE_TOP (30 rows), BENCH_TAP_EXTENSION (dist/chrome), TRACE_CATS (comma-separated
// trace categories), TRACE_DUMP=<prefix> (writes every event to <prefix>-<A|B>-<json|sse>.json).
import { fork } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openBenchPage, threadTimeMs, type Browser } from "./cdp.ts";

const BLOCKS = Number(process.env.TRACE_BLOCKS ?? 30);
const TOP = Number(process.env.TRACE_TOP ?? 30);
const EXTENSION = resolve(process.env.BENCH_TAP_EXTENSION ?? "dist/chrome");
const GAP_MS = 60;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown>;
}

const ext = mkdtempSync(join(tmpdir(), "bench-tap-trace-"));
cpSync(EXTENSION, ext, { recursive: true });
const server = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [], {
  execArgv: process.execArgv,
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const { port } = await new Promise<{ port: number }>((ok) => server.once("message", (m) => ok(m as { port: number })));
const PAGE = `http://127.0.0.1:${port}/bench.html`;

async function traced(browser: Browser, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  browser.on<{ value: TraceEvent[] }>("Tracing.dataCollected", ({ value }) => void events.push(...value));
  const done = new Promise<void>((ok) => browser.on("Tracing.tracingComplete", () => ok()));
  await browser.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: {
      recordMode: "recordAsMuchAsPossible",
      includedCategories: (
        process.env.TRACE_CATS ??
        "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,extensions,ipc,mojom"
      ).split(","),
    },
  });
  await run();
  await browser.send("Tracing.end");
  await done;
  return events;
}

const base = (url: string): string =>
  url.endsWith("/page.js")
    ? "page.js"
    : url.endsWith("/content.js")
      ? "content.js"
      : url.includes("bench.html")
        ? "bench"
        : url
          ? url.slice(0, 40)
          : "";

/** Thread time per label over the page's main thread, in µs per fetch. */
function groups(events: TraceEvent[], fetches: number): Map<string, number> {
  const out = new Map<string, number>();
  // The page's renderer: the process whose main thread received the page's DevTools session traffic most.
  const names = new Map(
    events.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}/${e.tid}`, String(e.args?.name)]),
  );
  const counts = new Map<string, number>();
  for (const e of events)
    if (e.name === "ResourceReceivedData" && names.get(`${e.pid}/${e.tid}`) === "CrRendererMain")
      counts.set(`${e.pid}/${e.tid}`, (counts.get(`${e.pid}/${e.tid}`) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return out;
  const mine = events.filter((e) => `${e.pid}/${e.tid}` === main && e.ph === "X").sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.name === "ThreadControllerImpl::RunTask");
  let j = 0;
  let total = 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    while (j < mine.length && mine[j]!.ts < task.ts) j++;
    const what = new Set<string>();
    for (let k = j; k < mine.length && mine[k]!.ts <= end; k++) {
      const e = mine[k]!;
      const info = e.args?.chrome_mojo_event_info as
        | { mojo_interface_tag?: string; watcher_notify_interface_tag?: string }
        | undefined;
      const data = e.args?.data as { url?: string; type?: string } | undefined;
      if (info?.mojo_interface_tag) what.add(info.mojo_interface_tag.replace(/^.*\//, ""));
      else if (info?.watcher_notify_interface_tag)
        what.add(`watch:${info.watcher_notify_interface_tag.replace(/^.*\//, "")}`);
      else if (e.name === "FunctionCall" || e.name === "EvaluateScript") what.add(`js:${base(data?.url ?? "") || "?"}`);
      else if (e.name === "EventDispatch" && data?.type) what.add(`event:${data.type}`);
      else if (e.name === "TimerFire") what.add("timer");
      else if (e.name === "RunMicrotasks") what.add("microtasks");
    }
    const file = String(task.args?.src_file ?? "?").replace(/^.*\//, "");
    const label = `${file}:${String(task.args?.src_func ?? "?")} | ${[...what].sort().join(", ")}`;
    const t = task.tdur ?? 0;
    total += t;
    out.set(label, (out.get(label) ?? 0) + t);
  }
  out.set("TOTAL", total);
  for (const [k, v] of out) out.set(k, v / fetches);
  return out;
}

try {
  const results: Record<string, Record<string, Map<string, number>>> = { json: {}, sse: {} };
  for (const [name, dir] of [
    ["B", ext],
    ["A", undefined],
  ] as const) {
    const browser = await launch(name, dir);
    try {
      if (dir) await sleep(1500); // the worker registers the content scripts
      const page = await openBenchPage(browser, PAGE);
      await page.send("Performance.enable");
      for (const kind of ["json", "sse"] as const) {
        const n = kind === "json" ? 10 : 2;
        const call = kind === "json" ? `jsonBlock(${n})` : `sseBlock(${n})`;
        for (let i = 0; i < 5; i++) await page.evaluate(call);
        await sleep(300);
        let thread = 0;
        const events = await traced(browser, async () => {
          for (let i = 0; i < BLOCKS; i++) {
            const t0 = await threadTimeMs(page);
            await page.evaluate(call);
            await sleep(GAP_MS);
            thread += (await threadTimeMs(page)) - t0;
          }
        });
        if (process.env.TRACE_DUMP)
          writeFileSync(`${process.env.TRACE_DUMP}-${name}-${kind}.json`, JSON.stringify(events));
        const g = groups(events, BLOCKS * n);
        g.set("ThreadTime (getMetrics)", (thread * 1000) / (BLOCKS * n));
        results[kind]![name] = g;
        await sleep(300);
      }
    } finally {
      await browser.close();
    }
  }
  for (const kind of ["json", "sse"] as const) {
    const a = results[kind]!.A!;
    const b = results[kind]!.B!;
    const labels = [...new Set([...a.keys(), ...b.keys()])].sort(
      (x, y) => (b.get(y) ?? 0) - (a.get(y) ?? 0) - ((b.get(x) ?? 0) - (a.get(x) ?? 0)),
    );
    console.log(`\n${kind}: main-thread thread time per fetch (µs), B · A · B−A`);
    for (const label of labels.slice(0, TOP)) {
      const vb = b.get(label) ?? 0;
      const va = a.get(label) ?? 0;
      console.log(
        `  ${vb.toFixed(1).padStart(8)} ${va.toFixed(1).padStart(8)} ${(vb - va).toFixed(1).padStart(8)}  ${label}`,
      );
    }
  }
} finally {
  server.disconnect();
  rmSync(ext, { recursive: true, force: true });
}
