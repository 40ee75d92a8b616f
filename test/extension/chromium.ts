import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page, type Worker } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { TabStats } from "../../src/shared/panelProtocol.ts";
import { RECORD_SITES_KEY, settle, TEST_SITES } from "./recordSites.ts";

/** Chromium with dist/chrome loaded (testing.md's recipe): a fresh profile, removed by close(). */
export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  worker(): Promise<Worker>;
  /** Stops the extension's service worker through CDP, as Chrome does after ~30 s idle. */
  stopWorker(): Promise<void>;
  /** Every record the worker holds for the tab, through the panel's port protocol (an extension page asks). */
  records(tabId: number): Promise<CaptureRecord[]>;
  /**
   * Sends one panel command (src/shared/panelProtocol.ts) from an extension page and resolves with the first
   * worker message of kind `answer` (subscribe answers `snapshot`; the decode-rule commands answer `decoders`).
   */
  command<T>(tabId: number, kind: string, extra: object, answer: string): Promise<T>;
  /** Sends one panel command that has no answer (`recordSite`, `record`, …). */
  send(tabId: number, kind: string, extra: object): Promise<void>;
  /** The tab's counts as the worker gives them to its panel (the snapshot's stats). */
  stats(tabId: number): Promise<TabStats>;
  /** The toolbar badge text of a tab. */
  badge(tabId: number): Promise<string>;
  /** The ids of the tabs the worker holds records for, with the transports and clients of their records. */
  tabs(): Promise<{ tabId: number; transports: string[]; clients: string[] }[]>;
  /**
   * Opens DevTools on the tab, as far as the worker can tell: an extension page's port sends `inspect` for it, as
   * the DevTools page does (panel/state/transport.ts announceInspection). Resolves with the function that closes it.
   */
  inspect(tabId: number): Promise<() => Promise<void>>;
  /** Opens a page in a new tab and tells its tab id (the one new id in `tabs.query`: the test cannot see tab ids otherwise). */
  openTab(url: string): Promise<{ page: Page; tabId: number }>;
  close(): Promise<void>;
}

/**
 * `recordSites`: the sites recorded without DevTools (default TEST_SITES; [] to test recording while inspected).
 * `recordHar`: Chromium's traffic is also saved as a HAR there (content embedded) when the browser closes.
 */
export async function launchWithExtension(
  options: { recordSites?: string[]; recordHar?: string } = {},
): Promise<ExtensionBrowser> {
  const dir = resolve("dist/chrome");
  const profile = await mkdtemp(join(tmpdir(), "mcp-ext-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
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
      ...(options.recordHar !== undefined && { recordHar: { path: options.recordHar, content: "embed" as const } }),
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const worker = async (): Promise<Worker> =>
    context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extensionId = new URL((await worker()).url()).host;
  const sites = options.recordSites ?? TEST_SITES;
  if (sites.length > 0) {
    await (await worker()).evaluate(({ key, sites }) => chrome.storage.local.set({ [key]: sites }), {
      key: RECORD_SITES_KEY,
      sites,
    });
    await settle();
  }
  let helper: Page | undefined;
  const extensionPage = async (): Promise<Page> => {
    if (!helper || helper.isClosed()) {
      helper = await context.newPage();
      await helper.goto(`chrome-extension://${extensionId}/panel.html`);
    }
    return helper;
  };
  const ask = async <T>(tabId: number, kind: string): Promise<T> => {
    const page = await extensionPage();
    return page.evaluate(
      ({ tabId, kind }) =>
        new Promise<T>((resolve, reject) => {
          const port = chrome.runtime.connect({ name: "mcp-elicit/panel" });
          const timer = setTimeout(() => reject(new Error(`no ${kind} answer`)), 10_000);
          // The records arrive in chunks; the last one says `more: false`.
          const records: unknown[] = [];
          port.onMessage.addListener((message: { kind: string; records?: unknown[]; more?: boolean }) => {
            if (message.kind !== kind) return;
            records.push(...(message.records ?? []));
            if (message.more) return;
            clearTimeout(timer);
            port.disconnect();
            resolve(records as T);
          });
          port.postMessage({ source: "mcp-elicitation-inspector/panel", v: 1, kind, tabId });
        }),
      { tabId, kind },
    );
  };
  const browser: ExtensionBrowser = {
    context,
    extensionId,
    worker,
    async stopWorker() {
      const page = await extensionPage();
      const cdp = await context.newCDPSession(page);
      const marker = async (): Promise<unknown> => {
        try {
          // An evaluate on a stopping service worker sometimes never settles: give up after 1 s (the worker is going).
          const read = (await worker()).evaluate(() => (globalThis as { __stopMarker?: number }).__stopMarker);
          return await Promise.race([
            read,
            new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000)),
          ]);
        } catch {
          return undefined; // its session went with it
        }
      };
      try {
        // Stopped means the realm holding this marker is gone; a relay or panel with work to do may start a fresh
        // worker at once (Playwright emits no `close` for a stopped service worker).
        await (await worker()).evaluate(() => void ((globalThis as { __stopMarker?: number }).__stopMarker = 1));
        await cdp.send("ServiceWorker.enable");
        await cdp.send("ServiceWorker.stopAllWorkers");
        for (let i = 0; i < 100 && (await marker()) === 1; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        if ((await marker()) === 1) throw new Error("the service worker did not stop");
      } finally {
        await cdp.detach().catch(() => undefined);
      }
    },
    records: (tabId) => ask<CaptureRecord[]>(tabId, "records"),
    async stats(tabId) {
      return (await browser.command<{ stats: TabStats }>(tabId, "subscribe", {}, "snapshot")).stats;
    },
    async command<T>(tabId: number, kind: string, extra: object, answer: string) {
      const page = await extensionPage();
      return page.evaluate(
        ({ message, answer }) =>
          new Promise<T>((resolve, reject) => {
            const port = chrome.runtime.connect({ name: "mcp-elicit/panel" });
            const timer = setTimeout(() => reject(new Error(`no ${answer} answer`)), 10_000);
            port.onMessage.addListener((reply: { kind: string }) => {
              if (reply.kind !== answer) return;
              clearTimeout(timer);
              port.disconnect();
              resolve(reply as T);
            });
            port.postMessage(message);
          }),
        { message: { source: "mcp-elicitation-inspector/panel", v: 1, kind, tabId, ...extra }, answer },
      );
    },
    async send(tabId, kind, extra) {
      const page = await extensionPage();
      await page.evaluate(
        async (message) => {
          const port = chrome.runtime.connect({ name: "mcp-elicit/panel" });
          port.postMessage(message);
          // The worker takes the message before the port's end: a round trip on another port orders them.
          await new Promise((resolve) => setTimeout(resolve, 100));
          port.disconnect();
        },
        { source: "mcp-elicitation-inspector/panel", v: 1, kind, tabId, ...extra },
      );
    },
    async inspect(tabId) {
      const page = await extensionPage();
      const key = await page.evaluate((tabId) => {
        const ports = ((globalThis as { __inspectors?: Map<string, chrome.runtime.Port> }).__inspectors ??= new Map());
        const port = chrome.runtime.connect({ name: "mcp-elicit/panel" });
        port.postMessage({ source: "mcp-elicitation-inspector/panel", v: 1, kind: "inspect", tabId });
        const key = `${tabId}:${ports.size}`;
        ports.set(key, port);
        return key;
      }, tabId);
      return async () => {
        await page.evaluate((key) => {
          const ports = (globalThis as { __inspectors?: Map<string, chrome.runtime.Port> }).__inspectors;
          ports?.get(key)?.disconnect();
          ports?.delete(key);
        }, key);
      };
    },
    async badge(tabId) {
      const page = await extensionPage();
      return page.evaluate((tabId) => chrome.action.getBadgeText({ tabId }), tabId);
    },
    async tabs() {
      const page = await extensionPage();
      const ids = await page.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.id!));
      const out: { tabId: number; transports: string[]; clients: string[] }[] = [];
      for (const tabId of ids) {
        const records = await ask<CaptureRecord[]>(tabId, "records");
        if (records.length)
          out.push({
            tabId,
            transports: [...new Set(records.map((r) => r.transport))],
            clients: [...new Set(records.map((r) => r.client ?? ""))],
          });
      }
      return out;
    },
    async openTab(url) {
      const helperPage = await extensionPage();
      const ids = () => helperPage.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.id!));
      const before = new Set(await ids());
      const page = await context.newPage();
      const fresh = (await ids()).filter((id) => !before.has(id));
      if (fresh.length !== 1) throw new Error(`expected one new tab, found ${fresh.length}`);
      await page.goto(url);
      return { page, tabId: fresh[0]! };
    },
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
  return browser;
}
