// `npm run bench:panel-har`: the panel imports a large HAR of real-shaped traffic (bench/harCorpus.ts) in headless
// Chromium through the built extension (dist/chrome/panel.html, no tab: the import path), then exports it as JSONL
// and as HAR with the toolbar's buttons; each download is imported again in Node and must give the same records and
// flows. Issue 11, item 4: a 200 MB HAR imports with the extension's process under 1 GB, and both exports finish.
//
// Memory: the RSS of the extension's renderer processes (`--extension-process`: the panel page, its import worker
// and the service worker), from /proc by pid (bench/panel/procMem.ts), polled every 100 ms and summed; beside it
// each process's kernel high-water mark (VmHWM), which no poll can miss. The browser and GPU processes are not
// counted (they hold no capture). One fresh browser and profile per run.
//
// BENCH_HAR_MB: the file's size in MiB (default 200). BENCH_RUNS: runs (default 1). BENCH_EXT: another built
// extension folder (default dist/chrome). BENCH_HAR_SHAPE=demo: instead of bench/harCorpus.ts (whose MCP messages
// are a small part of the file, beside the page's own resources), copies of the demo's real SDK traffic written by
// exportHar, MCP from end to end (bench/panel/capture.ts). The files are written to the system's temporary directory and deleted.
import { closeSync, createReadStream, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Page } from "playwright-core";
import "../../src/shared/jitless.ts";
import { importHarStream } from "../../src/capture/har/stream.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { createEngine, type Flow } from "../../src/engine/index.ts";
import { harParts } from "../../src/capture/har/export.ts";
import { writeRealShapedHar } from "../harCorpus.ts";
import { replicateDemo } from "./capture.ts";
import { chromiumProcesses, watchExtensionMemory } from "./procMem.ts";

const MB = 2 ** 20;
const size = Number(process.env.BENCH_HAR_MB ?? 200);
const runs = Number(process.env.BENCH_RUNS ?? 1);
const dir = resolve(process.env.BENCH_EXT ?? "dist/chrome");
const mib = (bytes: number): string => `${(bytes / MB).toFixed(0)} MiB`;

/** What a flow is, for comparing two imports (ids are given in order, so equal captures give equal ids). */
const flowKey = (f: Flow): string =>
  `${f.id} ${f.kind} ${f.status} ${f.method} ${f.target} r${f.rounds.length} e${f.elicitations.length}`;

interface Analysis {
  records: number;
  flows: string[];
  findings: number;
}

function analyse(feed: (push: (batch: readonly CaptureRecord[]) => void) => Promise<void>): Promise<Analysis> {
  const engine = createEngine();
  let records = 0;
  return feed((batch) => {
    records += batch.length;
    for (const r of batch) engine.push(r);
  }).then(() => ({ records, flows: engine.flows().map(flowKey), findings: engine.findings().length }));
}

const harFile = (path: string): Promise<Analysis> =>
  analyse(async (push) => {
    const result = await importHarStream(createReadStream(path), path, { onRecords: push });
    if (result.problems.length)
      console.log(`    ${path}: ${result.problems.length} import problems, the first: ${result.problems[0]!.message}`);
  });
const jsonlFile = (path: string): Promise<Analysis> =>
  analyse(async (push) => {
    const result = importJsonl(readFileSync(path, "utf8"), path);
    if (result.problems.length)
      console.log(`    ${path}: ${result.problems.length} import problems, the first: ${result.problems[0]!.message}`);
    push(result.records);
  });

const same = (a: Analysis, b: Analysis): string => {
  if (a.records !== b.records) return `✗ ${b.records} records, not ${a.records}`;
  if (a.flows.length !== b.flows.length) return `✗ ${b.flows.length} flows, not ${a.flows.length}`;
  const i = a.flows.findIndex((f, k) => f !== b.flows[k]);
  return i < 0
    ? `✓ same ${a.records} records and ${a.flows.length} flows`
    : `✗ flow ${i} is "${b.flows[i]}", not "${a.flows[i]}"`;
};

const recordCount = async (page: Page): Promise<number> =>
  Number((await page.getByLabel("record count").innerText()).replace(/\D/g, ""));

async function once(file: string, expected: Analysis, scratch: string): Promise<void> {
  const profile = await mkdtemp(join(tmpdir(), "mcp-bench-panel-har-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    acceptDownloads: true,
    ignoreDefaultArgs: ["--disable-extensions"],
    args: [
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  const memory = watchExtensionMemory(profile);
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
    const id = new URL(worker.url()).host;
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("crash", () => console.log(`  the panel's renderer crashed (${new Date().toISOString()})`));
    context.on("close", () => console.log(`  the browser closed (${new Date().toISOString()})`));
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`chrome-extension://${id}/panel.html`);
    await page.getByText("Import…", { exact: true }).hover();
    await page.waitForTimeout(300);
    const idle = memory.peak();
    memory.reset();
    const t0 = Date.now();
    await page.getByLabel("Import HAR or JSONL file").setInputFiles(file);
    const done = await page
      .waitForFunction(
        () =>
          performance.getEntriesByName("mcp:import-done").length > 0 ||
          document.querySelector(".import-error, [role=alert]") !== null,
        undefined,
        { timeout: 900_000, polling: 250 },
      )
      .then(() => page.evaluate(() => performance.getEntriesByName("mcp:import-done").length > 0));
    const importMs = Date.now() - t0;
    const marks = await page.evaluate(() =>
      Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])),
    );
    const imported = memory.peak();
    const settled = memory.sample();
    const shownRecords = await recordCount(page);
    const flows = (await page.getByRole("heading", { level: 2, name: /^Flows/ }).textContent()) ?? "";
    console.log(
      `  import: ${done ? "done" : "FAILED"} in ${(importMs / 1000).toFixed(1)} s (first rows ${(marks["mcp:first-rows"]! - marks["mcp:import-start"]!).toFixed(0)} ms); panel shows ${shownRecords} records, ${flows} ` +
        `(${shownRecords === expected.records && flows === `Flows (${expected.flows.length})` ? "= the CLI's importer" : `✗ expected ${expected.records} records, Flows (${expected.flows.length})`})`,
    );
    console.log(
      `  extension process: idle ${mib(idle.sum)}; peak during import ${mib(imported.sum)} summed RSS (${imported.processes} process${imported.processes === 1 ? "" : "es"}, high-water marks ${mib(imported.hwm)}); ` +
        `after it ${mib(settled)}`,
    );
    for (const format of ["jsonl", "har"] as const) {
      memory.reset();
      const t1 = Date.now();
      const download = page.waitForEvent("download", { timeout: 600_000 });
      await page.getByRole("button", { name: format === "har" ? "Export HAR" : "Export JSONL" }).click();
      const saved = join(scratch, `export.${format}`);
      await (await download).saveAs(saved);
      const exportMs = Date.now() - t1;
      const peak = memory.peak();
      const browserRss = chromiumProcesses(profile).find((p) => p.type === "browser")?.rss ?? 0;
      const back = format === "har" ? await harFile(saved) : await jsonlFile(saved);
      console.log(
        `  Export ${format.toUpperCase()}: ${mib(statSync(saved).size)} in ${(exportMs / 1000).toFixed(1)} s, peak ${mib(peak.sum)} summed RSS (high-water marks ${mib(peak.hwm)}; the browser process, which holds the Blob, ${mib(browserRss)}); re-imported: ${same(expected, back)}`,
      );
      await rm(saved, { force: true });
    }
    if (errors.length) console.log(`  page errors: ${errors.join("; ")}`);
    // The panel's live JS heap at the end (the import worker has ended), after a forced GC: last, so that no
    // figure above is of a heap the bench collected.
    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    console.log(
      `  the panel's live JS heap after a forced GC: ${mib((await cdp.send("Runtime.getHeapUsage")).usedSize)}, extension process ${mib(memory.sample())}`,
    );
    const overall = memory.peak();
    console.log(
      `  RESULT ${mib(statSync(file).size)} HAR: extension process peak ${mib(Math.max(imported.sum, overall.sum))} summed RSS, high-water marks ${mib(overall.hwm)} ${overall.hwm < 2 ** 30 ? "✓ under 1 GiB" : "✗ over 1 GiB"}`,
    );
  } finally {
    memory.stop();
    await context.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true });
  }
}

/** A HAR of about `bytes` of the demo's traffic copied (36 MiB per 30,000 messages), written part by part. */
function writeDemoHar(path: string, bytes: number): { bytes: number; entries: number } {
  const { records } = replicateDemo(Math.round((bytes / (36 * MB)) * 30_000));
  const fd = openSync(path, "w");
  try {
    for (const part of harParts(records)) writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  return { bytes: statSync(path).size, entries: new Set(records.map((r) => r.exchange)).size };
}

const scratch = await mkdtemp(join(tmpdir(), "mcp-bench-panel-har-data-"));
try {
  const file = join(scratch, "capture.har");
  const demoShaped = process.env.BENCH_HAR_SHAPE === "demo";
  const corpus = demoShaped ? writeDemoHar(file, size * MB) : writeRealShapedHar(file, size * MB);
  const expected = await harFile(file);
  console.log(
    `panel HAR bench: ${mib(corpus.bytes)} HAR (${corpus.bytes.toLocaleString("en")} bytes, ${demoShaped ? "copies of the demo's traffic" : "bench/harCorpus.ts"}), ${corpus.entries.toLocaleString("en")} entries, ` +
      `${expected.records.toLocaleString("en")} records, ${expected.flows.length.toLocaleString("en")} flows, ${expected.findings} findings (the CLI's importer and engine); extension ${dir}`,
  );
  for (let i = 0; i < runs; i++) {
    console.log(`run ${i + 1}:`);
    await once(file, expected, scratch);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
