import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { assertPanelShows as panelShows, cliReport, type CliFile } from "./panelMatches.ts";
import { BROKEN_ANSWER, startFixtureHost, type FixtureHost } from "./fixtures/host.ts";

/**
 * The whole pipe in real Chromium: dist/chrome loaded, pages on 127.0.0.1 making MCP traffic against the real SDK
 * servers of both eras (raw JSON-RPC with SSE and JSON responses, and the real SDK clients), over a WebSocket and
 * over postMessage; then the panel, opened as a page for each tab, must show what the CLI reports for the
 * records the worker holds, and those records must be exactly what the page sent and received.
 */
const AUTHORIZATION = "Bearer tap-DO-NOT-LEAK-4417";
const COOKIE = "tap-cookie-DO-NOT-LEAK-9902";

type Logged = { direction: "c2s" | "s2c"; text: string };
/** What fixtures/client.js (and the SDK page) put on window. */
interface FixtureWindow {
  mcpLegacy(base: string, calls: unknown[]): Promise<unknown>;
  mcpModern(base: string, calls: unknown[]): Promise<unknown>;
  mcpWebSocket(url: string, answer: unknown): Promise<unknown>;
  mcpPostMessage(answer: unknown): Promise<unknown>;
  mcpReadWays(base: string): Promise<Record<string, { id: number; seen: unknown }>>;
  runLegacy(url: string, authorization: string): Promise<unknown>;
  runModern(url: string, authorization: string): Promise<unknown>;
  mcpLog: Logged[];
  mcpPaused: boolean;
  mcpRelease(): void;
  done?: Promise<unknown>;
}

let host: FixtureHost;
let browser: ExtensionBrowser;
let scratch: string;

before(async () => {
  ensureBuilt();
  const sdk = await esbuild.build({
    entryPoints: ["test/capture/chromiumPage.ts"],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  host = await startFixtureHost(sdk.outputFiles[0]!.text);
  browser = await launchWithExtension();
  scratch = await mkdtemp(join(tmpdir(), "mcp-ext-test-"));
});

after(async () => {
  await browser?.close();
  await host?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const openTab = (path: string) => browser.openTab(`${host.origin}${path}`);

/** Waits until the worker holds as many message records for the tab as the page logged. */
async function recordsOf(tabId: number, page: Page): Promise<CaptureRecord[]> {
  const logged = await pageLog(page);
  for (let attempt = 0; ; attempt++) {
    const records = await browser.records(tabId);
    const ends = records.filter((r) => r.kind === "end").length;
    const exchanges = new Set(records.map((r) => r.exchange)).size;
    if ((records.filter((r) => r.kind === "message").length >= logged.length && ends >= exchanges) || attempt > 60)
      return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until every exchange of the tab has ended and no record has come for 400 ms (the SDK page keeps no log of
 * its own). Every exchange seen having ended is not enough: the tap posts a burst's records up to 250 ms after it
 * (src/page/emit.ts FLUSH_MS), so the last exchanges of a run may not have reached the worker yet.
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

const pageLog = (page: Page): Promise<Logged[]> => page.evaluate(() => (window as unknown as FixtureWindow).mcpLog);

/** What the page sent and received equals the message records: nothing missing, nothing twice. */
function assertSameMessages(records: CaptureRecord[], logged: Logged[]): void {
  const key = (direction: string, text: string) => `${direction} ${text}`;
  const fromRecords = records.flatMap((r) => (r.kind === "message" ? [key(r.direction, r.text)] : [])).sort();
  assert.deepEqual(fromRecords, logged.map((l) => key(l.direction, l.text)).sort());
}

function assertSeqs(records: CaptureRecord[]): void {
  assert.deepEqual(
    records.map((r) => r.seq),
    records.map((_, i) => i),
  );
}

const cli = (records: CaptureRecord[], name: string) => cliReport(records, join(scratch, `${name}.jsonl`));
const assertPanelShows = (tabId: number, expected: CliFile, prepare?: (panel: Page) => Promise<void>) =>
  panelShows(browser, tabId, expected, prepare);

describe("Chromium: dist/chrome", { timeout: 240_000 }, () => {
  test("raw JSON-RPC of both eras (SSE and JSON, form accept/decline/cancel, URL mode, MRTR over two rounds)", async () => {
    const { page, tabId } = await openTab("/");
    await page.evaluate(
      ({ legacy, modern }) => {
        const w = window as unknown as FixtureWindow;
        return Promise.all([w.mcpLegacy("/legacy/mcp", legacy), w.mcpModern("/modern/mcp", modern)]);
      },
      {
        legacy: [
          { tool: "confirm_action", answer: { action: "accept", content: { confirm: true } } },
          { tool: "confirm_action", answer: { action: "decline" } },
          { tool: "register_user", answer: { action: "cancel" } },
          { tool: "sign_in", answer: { action: "accept" } },
        ],
        modern: [
          { tool: "confirm_action", answers: { confirm: { action: "accept", content: { confirm: true } } } },
          {
            tool: "plan_trip",
            answers: {
              city: { action: "accept", content: { city: "Lisbon" } },
              nights: { action: "accept", content: { nights: 3 } },
            },
          },
          { tool: "register_user", answers: { profile: { action: "decline" } } },
        ],
      },
    );
    const records = await recordsOf(tabId, page);
    assertSeqs(records);
    assertSameMessages(records, await pageLog(page));
    // The standalone GET stream was aborted by the page: recorded as such.
    assert.ok(records.some((r) => r.kind === "end" && r.error === "abort"));
    assert.ok(records.every((r) => r.client === host.origin));

    const report = await cli(records, "raw");
    const kinds = new Set(report.flows.map((f) => `${f.revision} ${f.kind}`));
    assert.ok(kinds.has("2025-11-25 server-request"), [...kinds].join(", "));
    assert.ok(kinds.has("2026-07-28 mrtr"), [...kinds].join(", "));
    assert.ok(
      report.flows.some(
        (f) => f.kind === "mrtr" && f.target === "plan_trip" && f.rounds === 3 && f.status === "complete",
      ),
    );
    assert.ok(
      report.flows.some((f) => f.target === "sign_in" && f.elicitations.some((e) => e.mode === "url" && e.completed)),
    );
    assert.deepEqual(
      new Set(
        report.flows.filter((f) => f.revision === "2025-11-25").flatMap((f) => f.elicitations.map((e) => e.action)),
      ),
      new Set(["accept", "decline", "cancel"]),
    );
    // The worker's engine and the CLI agree; the panel shows it; the badge counts the worst severity.
    const engine = analyze(records);
    assert.deepEqual(
      report.flows.map((f) => f.id),
      engine.flows.map((f) => f.id),
    );
    await assertPanelShows(tabId, report);
    const worst = (["error", "warning", "info"] as const).find((s) => report.findings.some((f) => f.severity === s));
    assert.equal(
      await browser.badge(tabId),
      worst ? String(report.findings.filter((f) => f.severity === worst).length) : "",
    );
  });

  test("the real SDK clients of both eras, with an Authorization header and a cookie that are never captured", async () => {
    const { page, tabId } = await openTab("/sdk.html");
    await page.evaluate((cookie) => void (document.cookie = `session=${cookie}; path=/`), COOKIE);
    await page.evaluate(async (authorization) => {
      const w = window as unknown as FixtureWindow;
      await w.runLegacy("/legacy/mcp", authorization);
      await w.runModern("/modern/mcp", authorization);
    }, AUTHORIZATION);
    const records = await settled(tabId);
    assertSeqs(records);
    const all = JSON.stringify(records);
    assert.ok(!all.includes("DO-NOT-LEAK"), "an Authorization or cookie value reached a record");
    assert.ok(
      records.some((r) => r.kind === "message" && r.stream === "get-sse") ||
        records.some((r) => r.kind === "response" && r.exchange !== undefined),
      "the SDK's GET stream",
    );
    assert.ok(
      records.some((r) => r.kind === "message" && r.headers?.["mcp-session-id"]),
      "Mcp-Session-Id captured",
    );
    assert.ok(
      records.some(
        (r) =>
          r.kind === "message" && r.headers?.["mcp-method"] === "tools/call" && r.headers["mcp-name"] === "plan_trip",
      ),
      "Mcp-Method and Mcp-Name captured",
    );
    const report = await cli(records, "sdk");
    assert.ok(report.flows.some((f) => f.revision === "2025-11-25" && f.status === "complete"));
    assert.ok(report.flows.some((f) => f.kind === "mrtr" && f.status === "complete"));
    await assertPanelShows(tabId, report);
  });

  test("a JSON answer is recorded however the page reads its body, or if it never does", async () => {
    const { page, tabId } = await openTab("/");
    type Way = { id: number; seen: unknown };
    const ways = await page.evaluate(() => (window as unknown as FixtureWindow).mcpReadWays("/modern/mcp"));
    let records: CaptureRecord[] = [];
    const exchangeOf = (id: number): string | undefined =>
      records.find(
        (r) => r.kind === "message" && r.direction === "c2s" && (JSON.parse(r.text) as { id?: unknown }).id === id,
      )?.exchange;
    const ended = (way: Way): boolean => records.some((r) => r.kind === "end" && r.exchange === exchangeOf(way.id));
    for (let i = 0; i < 60 && !Object.values(ways).every(ended); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      records = await browser.records(tabId);
    }
    assertSeqs(records);
    const answer = (way: Way): string[] =>
      records.flatMap((r) =>
        r.kind === "message" && r.direction === "s2c" && r.exchange === exchangeOf(way.id) ? [r.text] : [],
      );
    const { json, formData, broken, unread, ...textual } = ways;
    // What the page read as text is the recorded text, byte for byte, once.
    for (const [name, way] of Object.entries(textual)) {
      assert.deepEqual(answer(way), [way.seen], name);
      assert.ok(ended(way), `${name}: no end record`);
    }
    // json(): the recorded text parses to the value the page got.
    assert.equal(answer(json!).length, 1);
    assert.deepEqual(JSON.parse(answer(json!)[0]!), json!.seen);
    assert.equal((json!.seen as { id?: unknown }).id, json!.id);
    // formData() of JSON rejects for the page; the record still has the answer.
    assert.equal(formData!.seen, "TypeError");
    assert.equal(answer(formData!).length, 1);
    assert.equal((JSON.parse(answer(formData!)[0]!) as { id?: unknown }).id, formData!.id);
    // A body that is not JSON: the page's json() rejects, the text is kept as it came.
    assert.equal(broken!.seen, "SyntaxError");
    assert.deepEqual(answer(broken!), [BROKEN_ANSWER]);
    // Never read by the page: recorded all the same (the tap reads its own copy), and the page can still read it.
    assert.equal(unread!.seen, 200);
    const late = await page.evaluate(() => (window as unknown as { mcpUnread: Response }).mcpUnread.text());
    assert.deepEqual(answer(unread!), [late]);
    assert.ok(ended(unread!));
  });

  test("MCP over a WebSocket (text and binary frames)", async () => {
    const { page, tabId } = await openTab("/");
    const wsUrl = `${host.origin.replace("http:", "ws:")}/ws`;
    await page.evaluate(
      (url) => (window as unknown as FixtureWindow).mcpWebSocket(url, { action: "accept", content: { confirm: true } }),
      wsUrl,
    );
    const records = await recordsOf(tabId, page);
    assertSeqs(records);
    assertSameMessages(records, await pageLog(page));
    assert.equal(records[0]?.kind, "response");
    assert.equal(records.at(-1)?.kind, "end");
    const report = await cli(records, "ws");
    assert.ok(
      report.flows.some(
        (f) => f.kind === "server-request" && f.status === "complete" && f.elicitations[0]?.action === "accept",
      ),
    );
    await assertPanelShows(tabId, report);
    // A navigation clears the tab (preserve-log is off by default, as in DevTools).
    await page.goto(`${host.origin}/sdk.html`);
    for (let i = 0; i < 50 && (await browser.records(tabId)).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await browser.records(tabId)).length, 0);
  });

  test("MCP over postMessage between a page and its iframe (both frames tapped)", async () => {
    const { page, tabId } = await openTab("/");
    await page.evaluate(() => (window as unknown as FixtureWindow).mcpPostMessage({ action: "decline" }));
    // The iframe logs nothing itself; the parent's log has both directions, the frame's tap recorded what it received.
    let records: CaptureRecord[] = [];
    for (let i = 0; i < 50 && records.filter((r) => r.kind === "message").length < 8; i++) {
      records = await browser.records(tabId);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assertSeqs(records);
    const logged = (await pageLog(page)).filter((l) => !l.text.includes('"ready"'));
    assertSameMessages(
      records.filter((r) => !(r.kind === "message" && r.text.includes('"ready"'))),
      logged,
    );
    const report = await cli(records, "pm");
    assert.ok(report.flows.some((f) => f.kind === "server-request" && f.elicitations[0]?.action === "decline"));
    await assertPanelShows(tabId, report);
  });

  test("webextension-polyfill's own wrapper, as Chrome before 152 runs it: the panel works, and so does every call of the worker and relay", async () => {
    // This Chromium has its own `browser` (Chrome 148+; 152+ with a devtools_page), so the polyfill hands it back
    // unwrapped everywhere. Hidden before the page's scripts run, the polyfill wraps `chrome` as it does in older
    // Chrome; its wrapper checks each call's argument count against its metadata, which native APIs do not.
    const hideNative = async (page: Page) =>
      void (await page.addInitScript(() => void delete (globalThis as { browser?: unknown }).browser));
    const { page, tabId } = await openTab("/");
    await page.evaluate(() =>
      (window as unknown as FixtureWindow).mcpLegacy("/legacy/mcp", [
        { tool: "confirm_action", answer: { action: "accept", content: { confirm: true } } },
      ]),
    );
    const records = await recordsOf(tabId, page);
    await assertPanelShows(tabId, await cli(records, "polyfill"), hideNative);

    const extensionPage = await browser.context.newPage();
    try {
      await hideNative(extensionPage);
      await extensionPage.goto(`chrome-extension://${browser.extensionId}/devtools.html`);
      const calls = await extensionPage.evaluate(async (tabId) => {
        const ext = (globalThis as unknown as { browser: typeof chrome }).browser;
        const wrapped = ext !== undefined && ext.runtime !== chrome.runtime;
        // The relay's and the worker's calls, in the shapes src/content/index.ts and src/background/index.ts make them.
        const changed = new Promise<unknown>((resolve) =>
          ext.storage.onChanged.addListener(
            (changes, area) => area === "local" && resolve(changes["polyfill-probe"]?.newValue),
          ),
        );
        await ext.storage.local.set({ ["polyfill-probe"]: { n: 1 } });
        const read = (await ext.storage.local.get("polyfill-probe"))["polyfill-probe"];
        await ext.action.setBadgeText({ tabId, text: "7" });
        await ext.action.setBadgeBackgroundColor({ tabId, color: "#b00020" });
        await ext.action.setTitle({ tabId, title: "probe" });
        const badge = await chrome.action.getBadgeText({ tabId });
        const goneTab = await ext.action.setBadgeText({ tabId: 2 ** 30, text: "x" }).then(
          () => "resolved",
          (error: Error) => error.message,
        );
        const created = await ext.tabs.create({ url: ext.runtime.getURL("devtools.html"), active: false });
        await chrome.tabs.remove(created.id!);
        // The panel transport's: a port to the worker, and no devtools outside DevTools.
        const snapshot = await new Promise<string>((resolve) => {
          const port = ext.runtime.connect({ name: "mcp-elicit/panel" });
          port.onMessage.addListener((message: { kind: string }) => (port.disconnect(), resolve(message.kind)));
          port.postMessage({ source: "mcp-elicitation-inspector/panel", v: 1, kind: "subscribe", tabId });
        });
        await ext.action.setBadgeText({ tabId, text: "" });
        return {
          wrapped,
          read,
          changed: await changed,
          badge,
          goneTab,
          created: typeof created.id,
          snapshot,
          devtools: typeof (ext as { devtools?: unknown }).devtools,
        };
      }, tabId);
      assert.deepEqual(calls, {
        wrapped: true,
        read: { n: 1 },
        changed: { n: 1 },
        badge: "7",
        goneTab: calls.goneTab,
        created: "number",
        snapshot: "snapshot",
        devtools: "undefined",
      });
      // A badge for a closed tab rejects (src/background/index.ts catches it) instead of throwing.
      assert.match(calls.goneTab, /tab/i);
    } finally {
      await extensionPage.close();
    }
  });

  test("the worker stopped mid-flow (CDP) loses no record: the flows complete, every message is there once", async () => {
    const { page, tabId } = await openTab("/");
    await page.evaluate(() => {
      const w = window as unknown as FixtureWindow;
      w.done = w.mcpLegacy("/legacy/mcp", [
        { tool: "confirm_action", answer: { action: "accept", content: { confirm: true } }, pause: true },
      ]);
    });
    await page.waitForFunction(() => (window as unknown as FixtureWindow).mcpPaused);
    // The elicitation/create event is in flight in the relay or the worker right now.
    await browser.stopWorker();
    await page.evaluate(() => (window as unknown as FixtureWindow).mcpRelease());
    await page.evaluate(() => (window as unknown as FixtureWindow).done);

    // Once more in the middle of an MRTR flow, between its rounds.
    await page.evaluate(() => {
      const w = window as unknown as FixtureWindow;
      w.done = w.mcpModern("/modern/mcp", [
        {
          tool: "plan_trip",
          pause: 1,
          answers: {
            city: { action: "accept", content: { city: "Porto" } },
            nights: { action: "accept", content: { nights: 2 } },
          },
        },
      ]);
    });
    await page.waitForFunction(() => (window as unknown as FixtureWindow).mcpPaused);
    await browser.stopWorker();
    await page.evaluate(() => (window as unknown as FixtureWindow).mcpRelease());
    await page.evaluate(() => (window as unknown as FixtureWindow).done);

    const records = await recordsOf(tabId, page);
    assertSeqs(records);
    assertSameMessages(records, await pageLog(page));
    const { flows } = analyze(records);
    const legacy = flows.find((f) => f.target === "confirm_action");
    const mrtr = flows.find((f) => f.target === "plan_trip");
    assert.equal(legacy?.status, "complete");
    assert.equal(mrtr?.status, "complete");
    assert.equal(mrtr?.rounds.length, 3);
    await assertPanelShows(tabId, await cli(records, "restart"));
  });
});
