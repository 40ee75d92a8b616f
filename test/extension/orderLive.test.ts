import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import * as esbuild from "esbuild";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow } from "../../src/engine/index.ts";
import { orderTools, startOrderServer } from "../peers/orderServer.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { assertPanelShows, cliReport } from "./panelMatches.ts";

/**
 * Issue 10, item 4, live half: the three SDK 1.32.2 patterns of test/capture/har-order.test.ts (two elicitations on
 * one POST stream answered in reverse order; the URL completion on the GET stream while the call is open; an
 * elicitation on the GET stream without relatedRequestId), captured by the extension in Chromium instead of read
 * from Chromium's HAR. Live, the tap stamps every event, so the worker sees the order a HAR does not hold; the
 * worker's own flows and findings must be the same clean ones.
 */
let server: Awaited<ReturnType<typeof startOrderServer>>;
let browser: ExtensionBrowser;
let scratch: string;

before(async () => {
  ensureBuilt();
  const bundle = await esbuild.build({
    entryPoints: ["test/capture/orderPage.ts"],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  server = await startOrderServer(bundle.outputFiles[0]!.text);
  browser = await launchWithExtension();
  scratch = await mkdtemp(join(tmpdir(), "mcp-order-live-"));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * The tab's records once every exchange has ended and none has come for 400 ms: the tap posts a burst's records
 * up to 250 ms after it (src/page/emit.ts), and the page ends its session (DELETE closes the GET stream) last.
 */
async function settled(tabId: number): Promise<CaptureRecord[]> {
  let stable = 0;
  let seen = -1;
  for (let attempt = 0; ; attempt++) {
    const records = await browser.records(tabId);
    const open = new Set(records.map((r) => r.exchange));
    for (const r of records) if (r.kind === "end") open.delete(r.exchange);
    stable = records.length === seen ? stable + 1 : 0;
    seen = records.length;
    if ((records.length > 0 && open.size === 0 && stable >= 4) || attempt > 100) return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("the three SDK patterns whose order a HAR lacks, captured live through the extension, lint clean in the worker", {
  timeout: 120_000,
}, async () => {
  const { page, tabId } = await browser.openTab(`${server.origin}/`);
  // The page's own world gets no extension namespace: the polyfill is loaded for the relay's world only.
  assert.equal(await page.evaluate(() => typeof (globalThis as { browser?: unknown }).browser), "undefined");
  const outcome = await page.evaluate(() => (globalThis as unknown as { runOrder(): Promise<unknown> }).runOrder());
  assert.match(JSON.stringify(outcome), /two: accept accept.*sign-in: linked.*approve: accept/);

  const records = await settled(tabId);
  assert.ok(
    records.some((r) => r.kind === "message" && r.stream === "get-sse"),
    "the standalone GET stream was captured",
  );
  // What the worker's engine made of the live capture, as its panel receives it.
  const { flows, findings, stats } = await browser.command<{
    flows: Flow[];
    findings: Finding[];
    stats: { rejected: number; dropped: number; tooLarge: number };
  }>(tabId, "subscribe", {}, "snapshot");
  assert.deepEqual([stats.rejected, stats.dropped, stats.tooLarge], [0, 0, 0]);

  const loud = findings.filter((f) => f.severity !== "info");
  assert.deepEqual(
    loud.map((f) => `${f.rule}: ${f.message}`),
    [],
    "no warning or error on the SDK's own traffic",
  );
  const byTarget = new Map(flows.filter((f) => f.method === "tools/call").map((f) => [f.target, f]));
  const two = byTarget.get(orderTools.twoAtOnce);
  assert.ok(two, JSON.stringify(flows.map((f) => [f.kind, f.method, f.target, f.status])));
  assert.equal(two.status, "complete");
  assert.deepEqual(
    two.elicitations.map((e) => [e.action, e.content ?? null]),
    [
      ["accept", { project: "my-project" }],
      ["accept", { team: "my-team" }],
    ],
  );
  // Live order: the team's answer went first (the page answers the project's question 400 ms later).
  assert.ok(two.elicitations[1]!.answerRecord! < two.elicitations[0]!.answerRecord!, "answered in reverse order");
  const signIn = byTarget.get(orderTools.completeOnGet);
  assert.equal(signIn?.status, "complete");
  assert.deepEqual(
    signIn?.elicitations.map((e) => [e.mode, e.action, e.completed]),
    [["url", "accept", true]],
  );
  const completion = records.find((r) => r.kind === "message" && r.text.includes("notifications/elicitation/complete"));
  assert.equal(completion?.kind === "message" && completion.stream, "get-sse", "the completion came on the GET stream");
  const approve = byTarget.get(orderTools.askOnGet);
  assert.equal(approve?.status, "complete", "the GET-stream elicitation belongs to the one call in flight");
  assert.equal(approve?.inferred, "get-stream", "and the flow says the tie is inferred");
  assert.deepEqual(
    approve?.elicitations.map((e) => [e.action, e.content ?? null]),
    [["accept", { approver: "my-approver" }]],
  );
  assert.ok(
    findings.some((f) => f.rule === "del-r12-standalone-stream" && f.flow === approve?.id),
    "the GET stream is still reported (info)",
  );
  assert.equal(flows.filter((f) => f.method === "(none)").length, 0, "no flow without its request");

  // The CLI reads the worker's records the same way, and the panel shows exactly that.
  const report = await cliReport(records, join(scratch, "order.jsonl"));
  assert.deepEqual(
    report.flows.map((f) => [f.id, f.status]),
    flows.map((f) => [f.id, f.status]),
  );
  assert.deepEqual(report.findings.map((f) => f.rule).sort(), findings.map((f) => f.rule).sort());
  await assertPanelShows(browser, tabId, report);
});
