import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import puppeteer, { type Browser, type Frame, type Page } from "puppeteer-core";
import { startDemoHost, type DemoHost } from "../../demo/host.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "./built.ts";
import { driveDemo } from "./firefox/demoDriver.ts";

/**
 * The panel where a person meets it: inside Chromium's real DevTools, opened for a tab of the demo host
 * (`--auto-open-devtools-for-tabs`), not as panel.html in a tab of its own. DevTools must list the panel, the panel
 * must know the inspected tab without `?tabId=`, show that tab's flows live, and follow DevTools' theme when it
 * is switched while the panel is open. puppeteer-core drives it: unlike Playwright it reaches DevTools' own page.
 */
const ARTIFACTS = "test-artifacts";
const LEGACY = "2025-11-25";

let host: DemoHost;
let browser: Browser;
let profile: string;

before(async () => {
  ensureBuilt();
  host = await startDemoHost({ port: 0 });
  profile = await mkdtemp(join(tmpdir(), "mcp-devtools-"));
  const dir = resolve("dist/chrome");
  browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    pipe: true,
    userDataDir: profile,
    defaultViewport: null,
    ignoreDefaultArgs: ["--disable-extensions"],
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--auto-open-devtools-for-tabs",
      "--window-size=1400,1000",
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
    ],
  });
});

after(async () => {
  await browser?.close();
  await host?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** DevTools' front end is ES modules; these run inside its page, where the relative imports resolve. */
async function showExtensionPanel(devtools: Page): Promise<string> {
  let lastError: unknown;
  for (let i = 0; i < 150; i++) {
    try {
      const id = await devtools.evaluate(async () => {
        // @ts-expect-error DevTools' own module, resolved inside its page
        const legacy = await import("./ui/legacy/legacy.js");
        const view = legacy.InspectorView.InspectorView.instance();
        const ids: string[] = view.tabbedPane.tabIds
          ? view.tabbedPane.tabIds()
          : view.tabbedPane.tabs.map((t: { id: string }) => t.id);
        const id = ids.find((i) => i.startsWith("chrome-extension://"));
        if (!id) return "";
        await view.showPanel(id);
        return id;
      });
      if (id) return id;
    } catch (error) {
      lastError = error; // DevTools is still starting up (its settings are not there yet)
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`DevTools never listed the extension's panel: ${String(lastError)}`);
}

const setDevtoolsTheme = (devtools: Page, theme: "dark" | "default"): Promise<unknown> =>
  devtools.evaluate(async (theme) => {
    // @ts-expect-error DevTools' own module, resolved inside its page
    const common = await import("./core/common/common.js");
    common.Settings.Settings.instance().moduleSetting("ui-theme").set(theme);
  }, theme);

async function panelFrame(devtools: Page): Promise<Frame> {
  for (let i = 0; i < 150; i++) {
    const frame = devtools.frames().find((f) => f.url().endsWith("/panel.html"));
    if (frame) return frame;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the panel's frame never loaded in DevTools");
}

describe("the panel inside Chromium's DevTools", () => {
  test("DevTools lists it; it shows the inspected tab's flows live, follows DevTools' theme, and imports a file in its worker", async () => {
    const [page] = (await browser.pages()).filter((p) => !p.url().startsWith("devtools://"));
    assert.ok(page, "the first tab");
    await page.goto(host.url);

    const devtoolsTarget = await browser.waitForTarget((t) => t.url().startsWith("devtools://"), { timeout: 20_000 });
    const devtools = (await devtoolsTarget.asPage())!;
    const panelId = await showExtensionPanel(devtools);
    assert.match(panelId, /^chrome-extension:\/\/[a-p]{32}MCP ?Elicitation$/);

    const panel = await panelFrame(devtools);
    await panel.waitForSelector("h1");
    const worker = await (
      await browser.waitForTarget((t) => t.type() === "service_worker", { timeout: 15_000 })
    ).worker();
    // The extension has no "tabs" permission, so no URLs: the demo page is the browser's one tab (DevTools is not a tab).
    const tabIds = await worker!.evaluate(() => chrome.tabs.query({}).then((tabs) => tabs.map((t) => t.id)));
    assert.equal(tabIds.length, 1, "one tab");
    assert.equal(
      await panel.$eval("h1", (h) => h.textContent),
      `MCP elicitation — tab ${tabIds[0]}`,
      "the panel inspects DevTools' tab, no ?tabId= needed",
    );
    assert.equal(await panel.evaluate(() => document.documentElement.dataset.theme), "light");

    // A flow on the inspected page appears in the open panel.
    const demo = driveDemo(page);
    await demo.run(`confirm (${LEGACY})`);
    await demo.question("Delete the staging database?");
    await demo.check("Confirm");
    await demo.answer("Accept");
    assert.equal(await demo.result(`confirm (${LEGACY})`), 'confirm: accept {"confirm":true}');
    await panel.waitForFunction(
      () => {
        const row = document.querySelector('tr[aria-label="flow flow-1"]');
        return !!row?.textContent?.includes("confirm_action") && row.textContent.includes("complete");
      },
      { timeout: 15_000, polling: 100 },
    );

    // The timeline follows within its layout throttle (300 ms): the whole flow, not the 1 ms of its first record.
    await panel.waitForFunction(
      () => {
        const shown = /([\d.]+) (ms|s) shown/.exec(document.querySelector(".tl-bar")?.textContent ?? "");
        return !!shown && Number(shown[1]) * (shown[2] === "s" ? 1000 : 1) > 50;
      },
      { timeout: 5_000, polling: 50 },
    );

    // DevTools' theme switched while the panel is open: the panel follows without a reload, both ways.
    await setDevtoolsTheme(devtools, "dark");
    await panel.waitForFunction(() => document.documentElement.dataset.theme === "dark", {
      timeout: 5_000,
      polling: 50,
    });
    await mkdir(ARTIFACTS, { recursive: true });
    await devtools.screenshot({ path: join(ARTIFACTS, "devtools-dark.png") });
    await setDevtoolsTheme(devtools, "default");
    await panel.waitForFunction(() => document.documentElement.dataset.theme === "light", {
      timeout: 5_000,
      polling: 50,
    });
    await devtools.screenshot({ path: join(ARTIFACTS, "devtools-light.png") });

    // A file imported in the panel inside DevTools goes through its import worker (importer.js) there too.
    const text = await readFile("demo/demo-capture.jsonl", "utf8");
    const expected = analyze(importJsonl(text, "demo-capture.jsonl").records);
    await panel.evaluate((text) => {
      const input = document.querySelector<HTMLInputElement>(
        'input[type="file"][aria-label="Import HAR or JSONL file"]',
      )!;
      const files = new DataTransfer();
      files.items.add(new File([text], "demo-capture.jsonl", { type: "application/x-ndjson" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, text);
    await panel.waitForFunction(
      (flows, findings) =>
        document.querySelector('[role="status"].source')?.textContent === "file" &&
        document.querySelector('section[aria-label="flows section"] h2')?.textContent === `Flows (${flows})` &&
        document.querySelector('section[aria-label="findings section"] h2')?.textContent === `Findings (${findings})`,
      { timeout: 15_000, polling: 100 },
      expected.flows.length,
      expected.findings.length,
    );
  });
});
