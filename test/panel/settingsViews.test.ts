import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { demo } from "./corpus.ts";

// The panel's settings in Chromium through the extension: mcp-elicit.config.json imported in the Settings section
// changes the findings (the worker keeps the settings, the shown file is analysed again with them), a finding's
// context menu sets its rule's level, and a flow's context menu exports it as a capture that lints to that flow.
let browser: ExtensionBrowser;
before(async () => {
  ensureBuilt();
  browser = await launchWithExtension();
});
after(async () => {
  await browser?.close();
});

const TEAM = { rules: { "url-https": "off", "adv-message-quality": "error" } };
const demoText = exportJsonl(demo);
const expected = analyze(demo);

/** The findings listed, as [severity, rule]. */
const findings = (page: Page) =>
  page.$$eval("tr[data-finding]", (rows) =>
    rows.map((row) => [
      row.querySelector('td[data-col="severity"]')?.textContent ?? "",
      row.querySelector('td[data-col="rule"]')?.textContent ?? "",
    ]),
  );

async function importInto(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel("Import HAR or JSONL file")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  await page.getByRole("heading", { level: 1, name: `MCP elicitation — ${name}` }).waitFor();
  await page.waitForFunction(
    () =>
      !document.querySelector('[role="status"].source')?.textContent?.includes("importing") &&
      document.querySelectorAll("tr[data-finding]").length > 0,
  );
}

describe("panel settings in Chromium", () => {
  test("a configuration file imported in the panel changes its findings; a finding's menu sets its rule's level", async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=4242`);
    await importInto(page, "demo.jsonl", demoText);
    const before = await findings(page);
    assert.equal(before.length, expected.findings.length);
    assert.ok(before.some(([, rule]) => rule === "url-https"));
    assert.ok(before.some(([severity, rule]) => rule === "adv-message-quality" && severity === "info"));

    await page.getByRole("button", { name: "Settings…" }).click();
    await page.getByLabel("Import configuration file").setInputFiles({
      name: "mcp-elicit.config.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(TEAM)),
    });
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('tr[data-finding] td[data-col="rule"]')].some(
          (td) => td.textContent === "url-https",
        ),
    );
    await page.waitForFunction(() => document.querySelectorAll("tr[data-finding]").length > 0);
    const after = await findings(page);
    const raised = before.filter(([, rule]) => rule === "adv-message-quality").length;
    assert.deepEqual(
      after.filter(([severity]) => severity === "error"),
      Array(raised).fill(["error", "adv-message-quality"]),
    );
    assert.equal(after.length, before.length - before.filter(([, rule]) => rule === "url-https").length);
    await page.getByRole("table", { name: "Rule levels" }).getByLabel("Level of url-https").waitFor();

    // The worker keeps them: another panel gets them.
    const stored = await browser.command<{ config: unknown }>(4242, "settings", {}, "settings");
    assert.deepEqual(stored.config, { rules: { "adv-message-quality": "error", "url-https": "off" } });

    // A finding's context menu: adv-message-quality back to its default level.
    await page.locator("tr[data-finding]", { hasText: "adv-message-quality" }).first().click({ button: "right" });
    const menu = page.getByRole("menu", { name: "Level of rule adv-message-quality" });
    await menu.getByRole("menuitemradio", { name: "adv-message-quality: error" }).waitFor();
    assert.equal(
      await menu.getByRole("menuitemradio", { name: "adv-message-quality: error" }).getAttribute("aria-checked"),
      "true",
    );
    await menu.getByRole("menuitemradio", { name: /adv-message-quality: default level/ }).click();
    // The findings come back re-graded from the worker: wait for them, not merely for the errors to go (the list is
    // empty for a moment while it is replaced).
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll("tr[data-finding]")].map((row) => [
        row.querySelector('td[data-col="severity"]')?.textContent,
        row.querySelector('td[data-col="rule"]')?.textContent,
      ]);
      return (
        !rows.some(([severity]) => severity === "error") &&
        rows.some(([severity, rule]) => rule === "adv-message-quality" && severity === "info")
      );
    });
    assert.ok((await findings(page)).some(([severity, rule]) => rule === "adv-message-quality" && severity === "info"));

    // Export configuration writes what the worker holds.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export configuration" }).click();
    const saved = await (await download).path();
    assert.deepEqual(JSON.parse(await readFile(saved!, "utf8")), { rules: { "url-https": "off" } });
    assert.deepEqual(errors, []);

    // Back to the defaults, for the next test.
    await browser.command(4242, "setSettings", { config: {} }, "settings");
    await page.close();
  });

  test("Export flow as JSONL from a flow's context menu: a capture that lints to that one flow", async () => {
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=4243`);
    await importInto(page, "demo.jsonl", demoText);
    const flow = expected.flows.find((f) => f.rounds.length > 1) ?? expected.flows[0]!;
    await page.getByRole("row", { name: `flow ${flow.id}`, exact: true }).click({ button: "right" });
    const download = page.waitForEvent("download");
    await page
      .getByRole("menu", { name: `Flow ${flow.id}` })
      .getByRole("menuitem", { name: "Export flow as JSONL", exact: true })
      .click();
    const file = await download;
    assert.match(file.suggestedFilename(), new RegExp(`^demo-${flow.id}-tools_call\\.jsonl$`));
    const text = await readFile((await file.path())!, "utf8");
    const linted = analyze(importCapture(text, "flow.jsonl").records);
    assert.deepEqual(
      linted.flows.map((f) => [f.method, f.target, f.status, f.rounds.length]),
      [[flow.method, flow.target, flow.status, flow.rounds.length]],
    );
    await page.close();
  });
});
