import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RECORD_SITES_KEY, settle, TEST_SITES } from "../recordSites.ts";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { CaptureRecord } from "../../../src/capture/record.ts";
import { PANEL_PORT, PANEL_SOURCE, PROTOCOL_VERSION } from "../../../src/shared/tags.ts";
import type { Ctx, McpTraffic, Observed } from "./behaviours/index.ts";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export interface BatteryBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export interface TappedBrowser extends BatteryBrowser {
  extensionId: string;
  workerUrl: string;
  /** The records the worker holds for each open tab, asked the way the panel asks (panel port, `records`). */
  recordsOfOpenTabs(): Promise<CaptureRecord[][]>;
  /** Adds a decode rule through the panel protocol; resolves once the worker has stored it. */
  addDecoder(rule: object): Promise<void>;
}

/** A persistent context on a fresh profile (testing.md), removed by close(). */
async function launch(extraArgs: string[], withExtension: boolean): Promise<BatteryBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "mcp-transparency-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      ...(withExtension && { ignoreDefaultArgs: ["--disable-extensions"] }),
      args: [...extraArgs, ...FLAGS],
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The baseline: the same Chromium and flags as the tapped browser, without the extension. */
export const launchBaseline = (): Promise<BatteryBrowser> => launch([], false);

/** Chromium with dist/chrome loaded; its service worker (outside every page) proves the extension is there. */
export async function launchTapped(): Promise<TappedBrowser> {
  const dir = resolve("dist/chrome");
  const browser = await launch([`--disable-extensions-except=${dir}`, `--load-extension=${dir}`], true);
  const { context } = browser;
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
    const extensionId = new URL(worker.url()).host;
    await worker.evaluate(({ key, sites }) => chrome.storage.local.set({ [key]: sites }), {
      key: RECORD_SITES_KEY,
      sites: TEST_SITES,
    });
    await settle();
    let helper: Page | undefined;
    const extensionPage = async (): Promise<Page> => {
      if (!helper || helper.isClosed()) {
        helper = await context.newPage();
        await helper.goto(`chrome-extension://${extensionId}/panel.html`);
      }
      return helper;
    };
    return {
      ...browser,
      extensionId,
      workerUrl: worker.url(),
      async addDecoder(rule) {
        const page = await extensionPage();
        await page.evaluate(
          ({ port: name, message }) =>
            new Promise<void>((resolve, reject) => {
              const port = chrome.runtime.connect({ name });
              const timer = setTimeout(() => reject(new Error("the worker did not answer")), 10_000);
              port.onMessage.addListener((reply: { kind: string; error?: string }) => {
                if (reply.kind !== "decoders") return;
                clearTimeout(timer);
                port.disconnect();
                if (reply.error) reject(new Error(reply.error));
                else resolve();
              });
              port.postMessage(message);
            }),
          {
            port: PANEL_PORT,
            message: { source: PANEL_SOURCE, v: PROTOCOL_VERSION, kind: "addDecoder", tabId: 0, rule },
          },
        );
      },
      async recordsOfOpenTabs() {
        const page = await extensionPage();
        return page.evaluate(
          async ({ port: name, source, v }) => {
            // Inline only: tsx's keepNames would wrap a named inner function in a helper the page does not have.
            const ids = (await chrome.tabs.query({})).map((t) => t.id!);
            return Promise.all(
              ids.map(
                (tabId) =>
                  new Promise<CaptureRecord[]>((resolve, reject) => {
                    const port = chrome.runtime.connect({ name });
                    const timer = setTimeout(() => reject(new Error("the worker did not answer")), 10_000);
                    const records: CaptureRecord[] = [];
                    port.onMessage.addListener(
                      (message: { kind: string; records?: CaptureRecord[]; more?: boolean }) => {
                        if (message.kind !== "records") return;
                        records.push(...(message.records ?? []));
                        if (message.more) return;
                        clearTimeout(timer);
                        port.disconnect();
                        resolve(records);
                      },
                    );
                    port.postMessage({ source, v, kind: "records", tabId });
                  }),
              ),
            );
          },
          { port: PANEL_PORT, source: PANEL_SOURCE, v: PROTOCOL_VERSION },
        );
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

const RUN_TIMEOUT_MS = 30_000;

/** Runs one behaviour in a fresh page of `context`; `beforeClose` looks at the page's tab before it goes. */
export async function runBehaviour(
  context: BrowserContext,
  origin: string,
  name: string,
  ctx: Ctx,
  beforeClose?: (page: Page) => Promise<void>,
): Promise<Observed> {
  const page = await context.newPage();
  let timer: NodeJS.Timeout | undefined;
  try {
    await page.goto(`${origin}/page.html`);
    const run = page.evaluate(
      `window.__transparency.run(${JSON.stringify(name)}, ${JSON.stringify(ctx)})`,
    ) as Promise<Observed>;
    const timeout = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error(`"${name}" did not finish within ${RUN_TIMEOUT_MS} ms`)),
          RUN_TIMEOUT_MS,
        )),
    );
    const observed = await Promise.race([run, timeout]);
    await beforeClose?.(page);
    return observed;
  } finally {
    clearTimeout(timer);
    await page.close().catch(() => undefined);
  }
}

/** The worker holds no record of `url` for any open tab once the tap has had time to post (emit.ts FLUSH_MS, and the worker's hold). */
export async function tapLeftAlone(browser: TappedBrowser, url: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const records of await browser.recordsOfOpenTabs()) {
    const touched = records.filter((r) => (r.url ?? "").includes(url));
    if (touched.length > 0)
      throw new Error(`the tap recorded ${touched.length} records of ${url}: ${JSON.stringify(touched.slice(0, 3))}`);
  }
}

/**
 * Waits until the extension's worker holds a record of the behaviour's MCP traffic for some open tab: proof, from
 * outside the page, that the tap was active while the page observed nothing. Returns the records of that tab.
 */
export async function tapRecords(browser: TappedBrowser, traffic: McpTraffic, ctx: Ctx): Promise<CaptureRecord[]> {
  const url = traffic.url(ctx);
  let seen: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const records of await browser.recordsOfOpenTabs()) {
      if (records.some((r) => r.transport === traffic.transport && (r.url ?? "").includes(url))) return records;
      if (records.length > seen.length) seen = records;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `the tap recorded no ${traffic.transport} traffic to ${url} (records of the busiest tab: ${JSON.stringify(seen.map((r) => [r.transport, r.kind, r.url]))})`,
  );
}
