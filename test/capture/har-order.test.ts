import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { chromium } from "playwright-core";
import { importHar } from "../../src/capture/har/import.ts";
import { analyze } from "../../src/engine/index.ts";
import { startOrderServer } from "../peers/orderServer.ts";

/**
 * Issue 10, item 4, and issue 16, item 2: order a HAR does not record is never evidence. A HAR has no time per SSE
 * event; four patterns of the real SDK 1.32.2 server and client, recorded by Chromium (Playwright's recorder), lint
 * clean: two questions on one POST stream, a completion and a question on the standalone GET stream, and a
 * question on the GET that resumes a POST stream the server closed.
 */
test("a HAR saved by Chromium of four SDK patterns whose order it does not hold lints clean", {
  timeout: 120_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "mcp-har-order-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const harPath = join(dir, "capture.har");
  const bundle = await esbuild.build({
    entryPoints: [new URL("./orderPage.ts", import.meta.url).pathname],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  const server = await startOrderServer(bundle.outputFiles[0]!.text);
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  let outcome: unknown;
  try {
    const context = await browser.newContext({ recordHar: { path: harPath, content: "embed" } });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    outcome = await page.evaluate(() => (globalThis as unknown as { runOrder(): Promise<unknown> }).runOrder());
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  const harText = await readFile(harPath, "utf8");
  if (process.env.KEEP_HAR) await writeFile(process.env.KEEP_HAR, harText);
  assert.match(JSON.stringify(outcome), /two: accept accept.*sign-in: linked.*approve: accept.*resumed: accept/);

  const { records, problems } = importHar(harText, "order.har");
  assert.deepEqual(problems, []);
  // Streamed from the first entry on (as a HAR past the import's window is): the same records in the same order.
  assert.deepEqual(importHar(harText, "order.har", { window: 0 }), { records, problems });
  const { flows, findings } = analyze(records);
  const loud = findings.filter((f) => f.severity !== "info");
  assert.deepEqual(
    loud.map((f) => `${f.rule}: ${f.message}`),
    [],
    "no warning or error on the SDK's own traffic",
  );

  const calls = flows.filter((f) => f.method === "tools/call");
  const byTarget = new Map(calls.map((f) => [f.target, f]));
  const two = byTarget.get("two_at_once");
  assert.ok(two, JSON.stringify(flows.map((f) => [f.kind, f.method, f.target, f.status])));
  assert.equal(two.status, "complete");
  assert.deepEqual(
    two.elicitations.map((e) => [e.action, (e.content as Record<string, string>) ?? null]),
    [
      ["accept", { project: "my-project" }],
      ["accept", { team: "my-team" }],
    ],
  );
  const signIn = byTarget.get("sign_in_get_completion");
  assert.equal(signIn?.status, "complete");
  assert.deepEqual(
    signIn?.elicitations.map((e) => [e.mode, e.action, e.completed]),
    [["url", "accept", true]],
  );
  const approve = byTarget.get("approve_on_get");
  assert.equal(approve?.status, "complete", "the GET-stream elicitation belongs to the one call in flight");
  assert.equal(
    (approve as { inferred?: string } | undefined)?.inferred,
    "get-stream",
    "and the flow says the tie is inferred",
  );
  assert.deepEqual(
    approve?.elicitations.map((e) => e.action),
    ["accept"],
  );
  assert.ok(
    findings.some((f) => f.rule === "del-r12-standalone-stream" && f.flow === approve?.id),
    "the GET stream is still reported (info)",
  );
  // The question and the answer of a call whose POST stream the server closed come on the GET that resumes it.
  const resumed = byTarget.get("confirm_after_reconnect");
  assert.equal(resumed?.status, "complete");
  assert.equal(
    (resumed as { inferred?: string } | undefined)?.inferred,
    undefined,
    "the resumed stream names its call",
  );
  assert.deepEqual(
    resumed?.elicitations.map((e) => e.action),
    ["accept"],
  );
  assert.equal(flows.filter((f) => f.method === "(none)").length, 0, "no flow without its request");
});
