// `node --import tsx bench/tap/profile.ts`: where the tap's main-thread time goes, for developing the tap (not a
// benchmark: the profiler itself slows the page). Builds page.js and content.js unminified into a copy of
// dist/chrome (so frames keep their names), opens the bench page in one Chromium with that extension and one
// without, runs JSON and SSE blocks as main.ts does with the V8 sampling profiler on (the page's isolate: the
// MAIN-world tap, the ISOLATED-world relay and the page share it), and prints per browser and kind:
//   - ThreadTime per fetch, as main.ts measures it;
//   - self time by script (page.js, content.js, the bench page, V8/Blink natives with no script) per fetch;
//   - for samples under a page.js or content.js frame (the innermost one owns the sample), the leaf functions by
//     self time (natives included: `decode`, `parse`, `stringify`, `clone`… are called from there).
// The profiler's own sampling inflates native calls (2–3× here): read the shares, not the absolute times; trace.ts
// gives thread time task by task.
// PROFILE_BLOCKS (40 per kind), PROFILE_INTERVAL_US (50), PROFILE_TOP (25 rows), BENCH_TAP_EXTENSION (dist/chrome),
// PROFILE_ALL=1 (also list the leaves outside the extension's frames, e.g. the page's own `fetch`),
// PROFILE_KEEP_BUILD=1 (profile the extension's own page.js and content.js as they are).
import { fork } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { launch, openBenchPage, threadTimeMs } from "./cdp.ts";

const BLOCKS = Number(process.env.PROFILE_BLOCKS ?? 40);
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? 50);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
const EXTENSION = resolve(process.env.BENCH_TAP_EXTENSION ?? "dist/chrome");
const GAP_MS = 60;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const ext = mkdtempSync(join(tmpdir(), "bench-tap-profile-"));
cpSync(EXTENSION, ext, { recursive: true });
if (!process.env.PROFILE_KEEP_BUILD) {
  await esbuild.build({
    entryPoints: { page: "src/page/index.ts", content: "src/content/index.ts" },
    outdir: ext,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome111",
    minify: false,
    keepNames: false,
    legalComments: "none",
    define: { __DEBUG__: "false", __BROWSER__: '"chrome"', __TEST__: "false" },
    logLevel: "warning",
  });
}

const server = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [], {
  execArgv: process.execArgv,
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const { port } = await new Promise<{ port: number }>((ok) => server.once("message", (m) => ok(m as { port: number })));
const PAGE = `http://127.0.0.1:${port}/bench.html`;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const scriptOf = (url: string): string =>
  url === ""
    ? "(native)"
    : url.endsWith("/page.js")
      ? "page.js"
      : url.endsWith("/content.js")
        ? "content.js"
        : url.includes("bench.html")
          ? "bench page"
          : url;

function analyse(profile: Profile, fetches: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const under = new Map<string, number>();
  const leaves = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000; // ms; a sample's time is the gap to the next
    const leaf = byId.get(id)!;
    const name = leaf.callFrame.functionName || "(anonymous)";
    if (name === "(idle)") return;
    total += dt;
    self.set(scriptOf(leaf.callFrame.url), (self.get(scriptOf(leaf.callFrame.url)) ?? 0) + dt);
    // The innermost extension frame decides whose work this is: a native called by the tap is the tap's, and the
    // relay's listener runs inside the tap's dispatch but is the relay's.
    let owner: string | undefined;
    for (let n: number | undefined = id; n !== undefined && !owner; n = parent.get(n)) {
      const s = scriptOf(byId.get(n)!.callFrame.url);
      if (s === "page.js" || s === "content.js") owner = s;
    }
    const key = owner ?? (["(program)", "(garbage collector)"].includes(name) ? name : "page / other");
    under.set(key, (under.get(key) ?? 0) + dt);
    if (owner || process.env.PROFILE_ALL) {
      const where = `${owner ?? "page"} ▸ ${name} (${scriptOf(leaf.callFrame.url)}${leaf.callFrame.url ? `:${leaf.callFrame.lineNumber + 1}` : ""})`;
      leaves.set(where, (leaves.get(where) ?? 0) + dt);
    }
  });
  const per = (ms: number) => `${((ms / fetches) * 1000).toFixed(1)} µs`;
  console.log(`    sampled busy time per fetch: ${per(total)}`);
  console.log(
    `    by owner (innermost extension frame): ${[...under]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${per(v)}`)
      .join(", ")}`,
  );
  console.log(
    `    self by script: ${[...self]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${per(v)}`)
      .join(", ")}`,
  );
  console.log(`    leaves under extension frames:`);
  for (const [k, v] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`      ${per(v).padStart(10)}  ${k}`);
}

try {
  for (const [name, dir] of [
    ["with extension", ext],
    ["without", undefined],
  ] as const) {
    const browser = await launch(name === "without" ? "A" : "B", dir);
    try {
      if (dir) await sleep(1500); // the worker registers the content scripts
      const page = await openBenchPage(browser, PAGE);
      await page.send("Performance.enable");
      await page.send("Profiler.enable");
      await page.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
      console.log(`${name}:`);
      for (const kind of ["json", "sse"] as const) {
        const n = kind === "json" ? 10 : 2;
        for (let i = 0; i < 5; i++) await page.evaluate(kind === "json" ? `jsonBlock(${n})` : `sseBlock(${n})`);
        // ThreadTime without the profiler first, then the profile.
        let thread = 0;
        for (let i = 0; i < BLOCKS; i++) {
          const t0 = await threadTimeMs(page);
          await page.evaluate(kind === "json" ? `jsonBlock(${n})` : `sseBlock(${n})`);
          await sleep(GAP_MS);
          thread += (await threadTimeMs(page)) - t0;
        }
        await page.send("Profiler.start");
        for (let i = 0; i < BLOCKS; i++) {
          await page.evaluate(kind === "json" ? `jsonBlock(${n})` : `sseBlock(${n})`);
          await sleep(GAP_MS);
        }
        const { profile } = await page.send<{ profile: Profile }>("Profiler.stop");
        console.log(`  ${kind}: ThreadTime per fetch ${((thread / (BLOCKS * n)) * 1000).toFixed(1)} µs (unprofiled)`);
        analyse(profile, BLOCKS * n);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  server.disconnect();
  rmSync(ext, { recursive: true, force: true });
}
