import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { demo } from "./corpus.ts";

/**
 * The panel's import worker (importer.js) in Chromium through the extension: a large file imports in a worker
 * of its own while the panel shows how far it is, and Cancel stops that worker; a file then imports to its end.
 */
let browser: ExtensionBrowser;
let scratch: string;

before(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), "mcp-import-worker-"));
  await mkdir("test-artifacts", { recursive: true });
  browser = await launchWithExtension();
});
after(async () => {
  await browser?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The demo capture copied `copies` times (each copy its own client and exchanges), seqs in order. */
function copiesOfDemo(copies: number): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  for (let copy = 0; copy < copies; copy++)
    for (const r of demo)
      out.push({
        ...r,
        seq: out.length,
        client: `c${copy}`,
        ...(r.exchange ? { exchange: `${copy}/${r.exchange}` } : {}),
      } as CaptureRecord);
  return out;
}

async function openPanel(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  await page.setViewportSize({ width: 1400, height: 700 });
  await page.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  return { page, errors };
}

const recordCount = async (page: Page): Promise<number> =>
  Number((await page.getByLabel("record count").innerText()).replace(/\D/g, ""));
const counts = (page: Page) => page.getByLabel("import counts").innerText();
const heading = (page: Page, section: "flows" | "findings") =>
  page.locator(`section[aria-label="${section} section"] h2`).evaluate((h) => h.textContent ?? "");

describe("panel import worker in Chromium", { timeout: 240_000 }, () => {
  test("a large import shows its progress while the worker reads it; Cancel terminates the worker and says the import was cancelled", async () => {
    // About 320,000 records (120 MiB): seconds of work, so the test sees it under way and cancels it before its end.
    const big = copiesOfDemo(1000);
    const path = join(scratch, "big.jsonl");
    await writeFile(path, exportJsonl(big));
    const { page, errors } = await openPanel();
    assert.equal(page.workers().length, 0);
    const started = page.waitForEvent("worker");
    await page.getByLabel("Import HAR or JSONL file").setInputFiles(path);
    const worker = await started;
    assert.match(worker.url(), new RegExp(`^chrome-extension://${browser.extensionId}/importer\\.js$`));
    const closed = new Promise<void>((resolve) => worker.once("close", () => resolve()));

    // Under way: the status says so, the counts and the progress bar move, the first flows are already listed.
    await page.getByRole("heading", { level: 1, name: "MCP elicitation — big.jsonl" }).waitFor();
    assert.equal(await page.locator('[role="status"].source').innerText(), "importing…");
    await page.waitForFunction(
      () => Number(document.querySelector('[aria-label="record count"]')?.textContent?.replace(/\D/g, "")) > 0,
    );
    // The panel's own thread answers meanwhile: the filter box takes a query while the worker runs.
    await page.getByLabel("Filter flows").fill("status:complete");
    assert.equal(await page.getByLabel("Filter flows").inputValue(), "status:complete");
    await page.getByLabel("Filter flows").fill("");
    const first = {
      records: await recordCount(page),
      bar: await page.getByLabel("import progress").evaluate((p: HTMLProgressElement) => p.value / p.max),
    };
    await page.waitForFunction(
      (n) => Number(document.querySelector('[aria-label="record count"]')?.textContent?.replace(/\D/g, "")) > n,
      first.records,
    );
    const second = {
      records: await recordCount(page),
      text: await counts(page),
      bar: await page.getByLabel("import progress").evaluate((p: HTMLProgressElement) => p.value / p.max),
    };
    await page.screenshot({ path: "test-artifacts/panel-import-progress.png" });
    await page.getByRole("button", { name: "Cancel import" }).click();
    assert.ok(
      second.records > first.records && second.records < big.length,
      `${first.records} then ${second.records} of ${big.length}`,
    );
    assert.match(second.text, /^[\d,]+ records, [\d.]+ of 1\d\d MiB read$/);
    assert.ok(second.bar > 0 && second.bar < 1 && second.bar >= first.bar, `progress ${first.bar} then ${second.bar}`);
    assert.notEqual(await heading(page, "flows"), "Flows (0)");
    await closed; // the worker is terminated, not left running
    assert.equal(page.workers().length, 0);
    assert.equal(await page.locator('[role="status"].source').innerText(), "import cancelled");
    const kept = await recordCount(page);
    const note = await page.getByRole("status", { name: "import cancelled" }).innerText();
    assert.equal(
      note,
      `Import of big.jsonl cancelled: only the first ${kept} records are shown, and their flows and findings are those of that part of the file.`,
    );
    assert.ok(kept >= second.records && kept < big.length, `${kept} of ${big.length} kept`);
    assert.equal(await page.getByLabel("import progress").count(), 0);
    assert.equal(await page.getByRole("button", { name: "Cancel import" }).count(), 0);
    await page.screenshot({ path: "test-artifacts/panel-import-cancelled.png" });
    // Nothing more arrives: the counts stay where Cancel left them.
    await page.waitForTimeout(1000);
    assert.equal(await recordCount(page), kept);

    // The next import runs to its end in a fresh worker: the engine's flows and findings, the note gone.
    const har = exportHar(copiesOfDemo(2));
    const { records } = importCapture(har, "small.har");
    const expected = analyze(records);
    await page
      .getByLabel("Import HAR or JSONL file")
      .setInputFiles({ name: "small.har", mimeType: "application/json", buffer: Buffer.from(har) });
    await page.getByRole("heading", { level: 1, name: "MCP elicitation — small.har" }).waitFor();
    await page.waitForFunction(() => document.querySelector('[role="status"].source')?.textContent === "file");
    assert.equal(await recordCount(page), records.length);
    assert.equal(await heading(page, "flows"), `Flows (${expected.flows.length})`);
    assert.equal(await heading(page, "findings"), `Findings (${expected.findings.length})`);
    assert.equal(await page.getByRole("status", { name: "import cancelled" }).count(), 0);
    await page.waitForTimeout(200); // the worker's close is reported a moment after its last message
    assert.equal(page.workers().length, 0, "the finished import's worker is gone too");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
