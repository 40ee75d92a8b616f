import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";

/**
 * Private by default (docs/extension.md "Privacy"), in Chromium with dist/chrome and no site recorded without
 * DevTools: a page never inspected leaves nothing in the worker or its IndexedDB; with DevTools open on the tab (its
 * DevTools page's `inspect`), a reload is recorded from the page's first request, and an iframe's records name their
 * frame and its origin as the browser reports them; "Record on this site without DevTools" records a tab nobody
 * inspects, and stops when revoked.
 */
let server: Server;
let origin: string;
let frameOrigin: string;
let browser: ExtensionBrowser;

/** The page: its first request is an MCP `initialize`, sent by an inline script before anything else; an iframe of another host does the same. */
const page = (frameSrc: string): string => `<!doctype html><title>privacy</title><script>
  window.mcpDone = fetch("/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "privacy", version: "1" } } }) })
    .then((r) => r.text());
</script>${frameSrc ? `<iframe src="${frameSrc}"></iframe>` : ""}`;

before(async () => {
  ensureBuilt();
  server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/mcp") {
      res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            serverInfo: { name: "privacy-peer", version: "1" },
          },
        }),
      );
    } else if (req.url === "/frame") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(page(""));
    } else {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(page(`${frameOrigin}/frame`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  // Another host name, so another origin and site: Chromium resolves localhost to 127.0.0.1.
  frameOrigin = `http://localhost:${port}`;
  browser = await launchWithExtension({ recordSites: [] });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records and tab metas in the worker's IndexedDB, counted from inside the worker. */
async function stored(): Promise<{ records: number; tabs: number }> {
  const worker = await browser.worker();
  return worker.evaluate(
    () =>
      new Promise<{ records: number; tabs: number }>((resolve, reject) => {
        const open = indexedDB.open("mcp-elicitation-inspector");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(["records", "tabs"], "readonly");
          const records = tx.objectStore("records").count();
          const tabs = tx.objectStore("tabs").count();
          tx.oncomplete = () => resolve({ records: records.result, tabs: tabs.result });
        };
      }),
  );
}

async function waitFor(
  tabId: number,
  ok: (records: CaptureRecord[]) => boolean,
  what: string,
): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 80; attempt++) {
    records = await browser.records(tabId);
    if (ok(records)) return records;
    await sleep(100);
  }
  throw new Error(`${what}: ${JSON.stringify(records.map((r) => [r.kind, r.frame, r.frameOrigin, r.url]))}`);
}

const initialize = (r: CaptureRecord): boolean =>
  r.kind === "message" && r.direction === "c2s" && r.text.includes('"initialize"');

describe("Chromium: recording only what is inspected", { timeout: 120_000 }, () => {
  test("a page never inspected leaves 0 records in the worker and in IndexedDB", async () => {
    const { page: tab, tabId } = await browser.openTab(`${origin}/`);
    await tab.waitForLoadState("load");
    await tab.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await tab.frames()[1]!.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await sleep(1500); // the tap's batch (≤ 250 ms), the relay and the worker
    assert.deepEqual(await stored(), { records: 0, tabs: 0 });
    assert.deepEqual(await browser.records(tabId), []);
    await tab.close();
  });

  test("a page never inspected: after the worker's first ack the tap sends nothing more; DevTools opening starts it again", async () => {
    // Counts, in the worker, the relays' messages that carry records, per tab: a second listener on the same ports.
    const worker = await browser.worker();
    await worker.evaluate(() => {
      const counts: Record<number, number> = ((
        globalThis as { __relayBatches?: Record<number, number> }
      ).__relayBatches = {});
      chrome.runtime.onConnect.addListener((port) => {
        const tabId = port.sender?.tab?.id;
        if (port.name !== "mcp-elicit/content" || tabId === undefined) return;
        port.onMessage.addListener((m: { records?: unknown[] }) => {
          if (Array.isArray(m.records) && m.records.length > 0) counts[tabId] = (counts[tabId] ?? 0) + 1;
        });
      });
    });
    const sent = async (tabId: number): Promise<number> =>
      worker.evaluate(
        (id) => (globalThis as { __relayBatches?: Record<number, number> }).__relayBatches?.[id] ?? 0,
        tabId,
      );
    const { page: tab, tabId } = await browser.openTab(`${origin}/`);
    await tab.waitForLoadState("load");
    await tab.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await tab.frames()[1]!.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await sleep(2500); // the first batches, their acks (at most one a second per port), the taps told to stop
    const first = await sent(tabId);
    assert.ok(first <= 2, `${first} batches before the first acks (one per frame at most)`);
    const call = (id: number) =>
      fetch("/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }),
      }).then((r) => r.text());
    for (let i = 0; i < 5; i++) {
      await tab.evaluate(call, 10 + i);
      await tab.frames()[1]!.evaluate(call, 20 + i);
      await tab.evaluate((id) => window.postMessage({ jsonrpc: "2.0", id, method: "ping" }, "*"), 30 + i);
      await sleep(100);
    }
    await sleep(1500);
    assert.equal(await sent(tabId), first, "the taps sent more after the worker said the tab is not recorded");
    assert.deepEqual(await browser.records(tabId), []);
    // DevTools opens: the worker tells the tab's relays, the taps send again, without a reload.
    const close = await browser.inspect(tabId);
    await sleep(300);
    await tab.evaluate(call, 99);
    const records = await waitFor(
      tabId,
      (rs) => rs.some((r) => r.kind === "message" && r.text.includes('"id":99')),
      "the call after DevTools opened",
    );
    // The test server answers every call with id 1: the page's own calls tell what was recorded.
    const calls = records.filter((r) => r.kind === "message" && r.direction === "c2s");
    assert.deepEqual(
      calls.map((r) => r.kind === "message" && JSON.parse(r.text).id),
      [99],
      "nothing from before DevTools opened",
    );
    assert.ok((await sent(tabId)) > first);
    await close();
    await tab.close();
  });

  test("with DevTools open, a reload is recorded from its first request; the iframe's records name their frame", async () => {
    const { page: tab, tabId } = await browser.openTab(`${origin}/`);
    await tab.waitForLoadState("load");
    await sleep(1000); // the first load's batches come and go unrecorded
    const opened = Date.now();
    const close = await browser.inspect(tabId);
    await tab.reload();
    await tab.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    const records = await waitFor(
      tabId,
      (rs) => rs.filter(initialize).length >= 2 && rs.filter((r) => r.kind === "end").length >= 2,
      "both documents' exchanges",
    );
    const top = records.filter((r) => r.frame === 0);
    const framed = records.filter((r) => r.frame !== 0);
    // The first record of the top document is its first request.
    assert.ok(initialize(top[0]!), JSON.stringify(top[0]));
    assert.ok(top.every((r) => r.frameOrigin === origin && r.client === origin));
    assert.ok(framed.length >= 3, JSON.stringify(framed));
    const frameId = framed[0]!.frame!;
    assert.ok(frameId > 0);
    assert.ok(
      framed.every(
        (r) => r.frame === frameId && r.frameOrigin === frameOrigin && r.client === `${frameOrigin}#frame-${frameId}`,
      ),
      JSON.stringify(framed.map((r) => [r.frame, r.frameOrigin, r.client])),
    );
    assert.ok((await stored()).records >= records.length);
    const stats = await browser.stats(tabId);
    assert.equal(stats.recordingReason, "devtools");
    assert.ok(
      stats.recordingSince! >= opened - 1000 && stats.recordingSince! <= Date.now(),
      String(stats.recordingSince),
    );
    assert.equal(stats.site, "http://127.0.0.1");
    assert.equal(stats.siteRecorded, false);
    // The panel's banner says since when, and why earlier traffic is not there; the site choice is offered.
    const panel = await browser.context.newPage();
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${tabId}`);
    const banner = panel.getByRole("note", { name: "recording" });
    await banner.filter({ hasText: "earlier traffic was never recorded" }).waitFor({ timeout: 10_000 });
    assert.ok((await banner.innerText()).includes("Recording since"));
    assert.equal(await banner.getByRole("button").innerText(), "Record on this site without DevTools");
    await panel.close();
    await close();
    // DevTools closed: the next reload is not recorded (the records so far stay until the tab goes).
    await sleep(200);
    const before = (await browser.records(tabId)).length;
    await tab.reload();
    await tab.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await sleep(1500);
    assert.equal((await browser.records(tabId)).length, before);
    await tab.close();
  });

  test("Record on this site without DevTools: a tab nobody inspects is recorded, until the choice is revoked", async () => {
    const { page: first, tabId: firstId } = await browser.openTab(`${origin}/`);
    await first.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await sleep(500); // the top frame's hello names the tab's site to the worker
    await browser.send(firstId, "recordSite", { on: true });
    assert.equal((await browser.stats(firstId)).siteRecorded, true);
    const { page: second, tabId } = await browser.openTab(`${origin}/`);
    const records = await waitFor(tabId, (rs) => rs.some(initialize), "the site's traffic");
    assert.ok(
      records.every((r) => r.frameOrigin === origin),
      "the iframe of another site is not recorded",
    );
    await browser.send(firstId, "recordSite", { on: false });
    assert.equal((await browser.stats(firstId)).siteRecorded, false);
    const { page: third, tabId: thirdId } = await browser.openTab(`${origin}/`);
    await third.evaluate(() => (window as unknown as { mcpDone: Promise<string> }).mcpDone);
    await sleep(1500);
    assert.deepEqual(await browser.records(thirdId), []);
    await Promise.all([first.close(), second.close(), third.close()]);
  });
});
