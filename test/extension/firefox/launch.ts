/// <reference types="chrome" />
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RECORD_SITES_KEY, settle, TEST_SITES } from "../recordSites.ts";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { CaptureRecord } from "../../../src/capture/record.ts";
import { prepareTestBuild } from "./testBuild.ts";

export const FIREFOX = "/usr/bin/firefox-esr";
/** Pinned with `extensions.webextensions.uuids`, so the extension's pages have a known origin. */
export const EXTENSION_UUID = "6f1d2c3b-9a8e-4e57-b1c0-5d4e3f2a1b90";

/** What a panel opened as a page for one tab shows (panel/views/FlowList.tsx, panel/views/FindingList.tsx). */
export interface PanelView {
  heading: string;
  flows: string[][];
  findings: string[][];
}

export interface PanelCounts {
  records: number;
  flows: number;
  findings: number;
}

/** Firefox ESR over WebDriver BiDi with the extension installed (testing.md's recipe), a fresh profile per run. */
export interface FirefoxWithExtension {
  browser: Browser;
  origin: string;
  /** Every record the background holds for the tab, asked over the panel port from an extension page. */
  records(tabId: number): Promise<CaptureRecord[]>;
  /** The ids of the open tabs (extension pages included). */
  tabIds(): Promise<number[]>;
  /** Opens `panel.html?tabId=N` in a tab, waits until its headings show the counts expected, and reads its tables. */
  panel(tabId: number, expect: PanelCounts): Promise<PanelView>;
  /**
   * Opens `panel.html` (no tab) in a tab, imports a file through its Import input (the file set by the page's own
   * DataTransfer, as BiDi has no file chooser here), waits for the counts expected, and reads its tables.
   */
  importInPanel(name: string, text: string, expect: PanelCounts): Promise<PanelView>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** BiDi reports moz-extension:// pages as about:blank; their own location tells them apart. */
async function hrefOf(page: Page): Promise<string> {
  return page.evaluate(() => location.href).catch(() => "");
}

async function findPage(browser: Browser, match: (href: string) => boolean, what: string, ms = 15_000): Promise<Page> {
  const until = Date.now() + ms;
  for (;;) {
    for (const page of await browser.pages()) if (match(await hrefOf(page))) return page;
    if (Date.now() > until) throw new Error(`no ${what} appeared within ${ms} ms`);
    await sleep(100);
  }
}

/** Waits until a panel page's headings show the counts expected, then reads its tables. */
async function readPanel(page: Page, expect: PanelCounts): Promise<PanelView> {
  // The snapshot, then batched deltas (or an import's steps): wait until the headings count what the test expects.
  await page
    .waitForFunction(
      (expect) =>
        document.querySelector('[aria-label="record count"]')?.textContent === `${expect.records} records` &&
        document.querySelector('section[aria-label="flows section"] h2')?.textContent === `Flows (${expect.flows})` &&
        document.querySelector('section[aria-label="findings section"] h2')?.textContent ===
          `Findings (${expect.findings})`,
      { timeout: 15_000, polling: 100 },
      expect,
    )
    .catch(async (error: unknown) => {
      const shown = await page.evaluate(() => document.body.innerText).catch(() => "(unreadable)");
      throw new Error(`the panel never showed ${JSON.stringify(expect)}; it shows:\n${shown}`, { cause: error });
    });
  // No named functions inside: tsx's keepNames would reference its `__name` helper, which the page lacks.
  return page.evaluate(() => ({
    heading: document.querySelector("h1")?.textContent ?? "",
    // The panel's columns by name (`data-col`), in the order flowRow and findingRow list them.
    flows: [...document.querySelectorAll("tr[data-flow]")].map((row) =>
      ["id", "kind", "era", "method", "target", "status", "rounds"].map(
        (c) => row.querySelector(`td[data-col="${c}"]`)?.textContent ?? "",
      ),
    ),
    findings: [...document.querySelectorAll("tr[data-finding]")].map((row) =>
      ["severity", "rule", "message", "flow", "entry"].map(
        (c) => row.querySelector(`td[data-col="${c}"]`)?.textContent ?? "",
      ),
    ),
  }));
}

export async function launchFirefoxWithExtension(): Promise<FirefoxWithExtension> {
  // A missing browser fails the test: it never skips.
  if (!existsSync(FIREFOX))
    throw new Error(`${FIREFOX} is missing: apt-get install -y --no-install-recommends firefox-esr`);
  const scratch = await mkdtemp(join(tmpdir(), "mcp-ext-firefox-"));
  let browser: Browser | undefined;
  try {
    const build = await prepareTestBuild(scratch);
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: FIREFOX,
      headless: true,
      // puppeteer makes its own temporary profile here and removes it on close; the scratch folder goes too.
      userDataDir: join(scratch, "profile"),
      extraPrefsFirefox: {
        "extensions.webextensions.uuids": JSON.stringify({ [build.geckoId]: EXTENSION_UUID }),
        "browser.shell.checkDefaultBrowser": false,
        "datareporting.policy.dataSubmissionEnabled": false,
      },
    });
    const installed = await browser.installExtension(build.dir);
    if (installed !== build.geckoId) throw new Error(`installed ${installed}, expected ${build.geckoId}`);
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  const b = browser;
  const origin = `moz-extension://${EXTENSION_UUID}/`;
  const helper = await findPage(
    b,
    (href) => href === `${origin}panel.html`,
    "extension page (the test hook opens panel.html on install)",
  );
  // The page may be found before its document has the extension's APIs.
  await helper.waitForFunction(
    () => typeof (globalThis as unknown as { browser?: typeof chrome }).browser?.storage?.local?.set === "function",
    { timeout: 15_000, polling: 100 },
  );
  await helper.evaluate(
    async (key, sites) => {
      const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
      await ext.storage.local.set({ [key]: sites });
    },
    RECORD_SITES_KEY,
    TEST_SITES,
  );
  await settle();

  const records = (tabId: number): Promise<CaptureRecord[]> =>
    helper.evaluate(
      (tabId) =>
        new Promise<CaptureRecord[]>((resolve, reject) => {
          const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
          const port = ext.runtime.connect({ name: "mcp-elicit/panel" });
          const timer = setTimeout(() => reject(new Error("the background sent no records")), 10_000);
          const records: CaptureRecord[] = [];
          port.onMessage.addListener(
            (message: { kind?: string; tabId?: number; records?: CaptureRecord[]; more?: boolean }) => {
              if (message.kind !== "records" || message.tabId !== tabId) return;
              records.push(...(message.records ?? []));
              if (message.more) return;
              clearTimeout(timer);
              port.disconnect();
              resolve(records);
            },
          );
          port.postMessage({ source: "mcp-elicitation-inspector/panel", v: 1, kind: "records", tabId });
        }),
      tabId,
    );

  /** Opens one of the extension's pages in a tab of its own (BiDi cannot navigate to it; the extension can). */
  const openExtensionPage = async (path: string): Promise<Page> => {
    const url = `${origin}${path}`;
    await helper.evaluate(async (url) => {
      const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
      await ext.tabs.create({ url, active: false });
    }, url);
    return findPage(b, (href) => href === url, `extension page ${path}`);
  };

  return {
    browser: b,
    origin,
    records,
    tabIds: () =>
      helper.evaluate(async () => {
        const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
        return (await ext.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
      }),
    async panel(tabId, expect) {
      const page = await openExtensionPage(`panel.html?tabId=${tabId}`);
      try {
        return await readPanel(page, expect);
      } finally {
        await page.close().catch(() => undefined);
      }
    },
    async importInPanel(name, text, expect) {
      // Not plain panel.html: that is the helper page the test hook opened.
      const page = await openExtensionPage("panel.html?import");
      try {
        await page.evaluate(
          (name, text) => {
            const input = document.querySelector<HTMLInputElement>(
              'input[type="file"][aria-label="Import HAR or JSONL file"]',
            )!;
            const files = new DataTransfer();
            files.items.add(new File([text], name, { type: "application/json" }));
            input.files = files.files;
            input.dispatchEvent(new Event("change", { bubbles: true }));
          },
          name,
          text,
        );
        await page.waitForFunction(() => document.querySelector('[role="status"].source')?.textContent === "file", {
          timeout: 15_000,
          polling: 100,
        });
        return await readPanel(page, expect);
      } finally {
        await page.close().catch(() => undefined);
      }
    },
    async close() {
      await b.close().catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
