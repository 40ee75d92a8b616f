// `node --import tsx bench/tap/sparse.ts`: what the 44-byte message of issue 18 costs a page — a JSON-RPC object
// whose member is a sparse array of length 2³²−1 (it keeps its length through structured clone), posted to itself —
// with the tap and without: per round, the time from the post to the arrival of the next message, in a Chromium
// without the extension (A) and one with dist/chrome (B), alternately; the medians and their ratio. The tap's walk
// of page data is bounded by its 1 MiB cap (src/page/json.ts), so B pays at most that walk. A benchmark: it
// prints, it does not assert. BENCH_SPARSE_ROUNDS (30).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const ROUNDS = Number(process.env.BENCH_SPARSE_ROUNDS ?? 30);
const DIR = resolve("dist/chrome");

const server = createServer((_req, res) =>
  res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>sparse</title>"),
);
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

async function open(withExtension: boolean): Promise<{ context: BrowserContext; page: Page; profile: string }> {
  const profile = await mkdtemp(join(tmpdir(), "bench-sparse-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    ...(withExtension && { ignoreDefaultArgs: ["--disable-extensions"] }),
    args: [
      ...(withExtension ? [`--disable-extensions-except=${DIR}`, `--load-extension=${DIR}`] : []),
      "--no-sandbox",
      "--disable-gpu",
    ],
  });
  const page = await context.newPage();
  await page.goto(url);
  return { context, page, profile };
}

/** ms from posting the sparse message to the arrival of the one after it (a string: tsx would name the functions). */
const ONCE = `new Promise((done) => {
  const a = [];
  a.length = 2 ** 32 - 1;
  const start = performance.now();
  addEventListener("message", function listener(e) {
    if (!e.data || e.data.id !== 2) return;
    removeEventListener("message", listener);
    done(performance.now() - start);
  });
  postMessage({ jsonrpc: "2.0", x: a }, "*");
  postMessage({ jsonrpc: "2.0", id: 2, result: {} }, "*");
})`;
const once = (page: Page): Promise<number> => page.evaluate(ONCE) as Promise<number>;

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const a = await open(false);
const b = await open(true);
const times = { A: [] as number[], B: [] as number[] };
try {
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, side] of i % 2 === 0
      ? ([
          ["A", a],
          ["B", b],
        ] as const)
      : ([
          ["B", b],
          ["A", a],
        ] as const))
      times[name].push(await once(side.page));
    await new Promise((r) => setTimeout(r, 300)); // the tap's batch goes in its own turn
  }
} finally {
  for (const side of [a, b]) {
    await side.context.close().catch(() => undefined);
    await rm(side.profile, { recursive: true, force: true });
  }
  server.close();
}
const [ma, mb] = [median(times.A), median(times.B)];
console.log(
  `sparse 2^32-1 message, ${ROUNDS} rounds: next message after ${ma.toFixed(2)} ms without the extension (A), ${mb.toFixed(2)} ms with it (B), B/A ${(mb / ma).toFixed(2)}`,
);
console.log(
  `A p90 ${[...times.A].sort((x, y) => x - y)[Math.floor(ROUNDS * 0.9)]!.toFixed(2)} ms, B p90 ${[...times.B].sort((x, y) => x - y)[Math.floor(ROUNDS * 0.9)]!.toFixed(2)} ms`,
);
