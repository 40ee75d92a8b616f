import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import type { Decoder } from "../../src/shared/decoders.ts";
import { analyze } from "../../src/engine/index.ts";
import type { TabStats } from "../../src/shared/panelProtocol.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { startEnvelopeHost, type EnvelopeHost } from "./fixtures/envelopes/host.ts";
import { assertPanelShows, cliReport, type CliFile } from "./panelMatches.ts";

/**
 * MCP inside envelopes, through the whole pipe in Chromium with dist/chrome: the real SDK 1.32.2 client and server
 * over MCP-B's postMessage envelope (both ends in one window; a page and its cross-origin iframe) and over a
 * made-up bridge that only a "Decode as MCP" rule, set through the worker's panel protocol, makes MCP. The worker
 * must hold exactly the MCP messages that went over the wire — each once, stamped with the envelope, with the
 * direction the envelope says — the CLI and the panel must show the same flows and findings (form-secret-field on
 * the `api_key` field), and the panel's counts must say how many messages each envelope carried.
 * (MCP Inspector v2's real backend is tested with the real Inspector in test/hosts/.) KEEP_SCRATCH=1 keeps the JSONL files
 * the CLI linted.
 */
type Logged = { direction: "c2s" | "s2c"; text: string };
interface EnvelopeWindow {
  envelopeLog: Logged[];
  runMcpBTab(): Promise<string[]>;
  runMcpBParent(frameUrl: string): Promise<string[]>;
  runBridge(): Promise<string[]>;
}

let host: EnvelopeHost;
let browser: ExtensionBrowser;
let scratch: string;
/** The decoded bridge session's records (the Decode-as test), for the pairing test after it. */
let bridgeRecords: CaptureRecord[] = [];
let bridgeTab = -1;

before(async () => {
  ensureBuilt();
  const bundle = await esbuild.build({
    entryPoints: ["test/extension/fixtures/envelopes/page.ts"],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  host = await startEnvelopeHost(bundle.outputFiles[0]!.text);
  browser = await launchWithExtension();
  scratch = await mkdtemp(join(tmpdir(), "mcp-envelopes-"));
});

after(async () => {
  await browser?.close();
  await host?.close();
  if (scratch && !process.env.KEEP_SCRATCH) await rm(scratch, { recursive: true, force: true });
  else if (scratch) console.log(`scratch kept: ${scratch}`);
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const logOf = (page: Page): Promise<Logged[]> => page.evaluate(() => (window as unknown as EnvelopeWindow).envelopeLog);

/** The tab's records once `count` messages are there and nothing more came for half a second. */
async function recordsOf(tabId: number, count: number): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let i = 0; i < 80; i++) {
    records = await browser.records(tabId);
    if (records.filter((r) => r.kind === "message").length >= count) break;
    await sleep(100);
  }
  await sleep(500);
  return browser.records(tabId);
}

const stats = (tabId: number) =>
  browser.command<{ stats: TabStats }>(tabId, "subscribe", {}, "snapshot").then((s) => s.stats);

/** Exactly the messages that went over the wire, each once, with their direction. */
function assertSameMessages(records: CaptureRecord[], wire: Logged[]): void {
  const key = (direction: string, text: string) => `${direction} ${text}`;
  assert.deepEqual(
    records.flatMap((r) => (r.kind === "message" ? [key(r.direction, r.text)] : [])).sort(),
    wire.map((l) => key(l.direction, l.text)).sort(),
  );
}

function assertSeqs(records: CaptureRecord[]): void {
  assert.deepEqual(
    records.map((r) => r.seq),
    records.map((_, i) => i),
  );
}

/** Two connect_service calls: the first accepted (with an API key), the second declined; the key field is flagged. */
function assertTwoAnswers(report: CliFile): void {
  const asked = report.flows.filter((f) => f.elicitations.length > 0);
  assert.deepEqual(
    asked.map((f) => f.elicitations.map((e) => e.action)),
    [["accept"], ["decline"]],
  );
  assert.ok(
    asked.every((f) => f.status === "complete"),
    JSON.stringify(asked.map((f) => f.status)),
  );
  assert.ok(
    report.findings.some((f) => f.rule === "form-secret-field"),
    report.findings.map((f) => f.rule).join(", "),
  );
}

describe("Chromium: MCP inside envelopes", { timeout: 240_000 }, () => {
  test("MCP-B's tab envelope, both ends in one window: each message recorded once, direction from the envelope", async () => {
    const { page, tabId } = await browser.openTab(`${host.origin}/mcpb-tab.html`);
    const texts = await page.evaluate(() => (window as unknown as EnvelopeWindow).runMcpBTab());
    assert.deepEqual(texts, ["tab-server: accept api_key,service", "tab-server: decline"]);
    const wire = await logOf(page);
    const records = await recordsOf(tabId, wire.length);
    assertSeqs(records);
    assertSameMessages(records, wire);
    for (const r of records as MessageRecord[]) {
      assert.equal(r.transport, "postMessage");
      assert.equal(r.stream, "envelope");
      assert.equal(r.envelope, "mcp-b");
      assert.equal(r.exchange, "mcp-b:mcp-default");
      assert.equal(r.url, host.origin);
      assert.equal(r.client, host.origin);
    }
    assert.ok(!JSON.stringify(records).includes("mcp-check-ready"), "the handshake strings are not MCP");
    const report = await cliReport(records, join(scratch, "mcpb-tab.jsonl"));
    assertTwoAnswers(report);
    await assertPanelShows(browser, tabId, report);
    assert.deepEqual((await stats(tabId)).envelopes, { "mcp-b": wire.length });
  });

  test("MCP-B's iframe envelope between a page and its cross-origin iframe: each side's tap records what it receives", async () => {
    const { page, tabId } = await browser.openTab(`${host.origin}/mcpb-parent.html`);
    const texts = await page.evaluate(
      (url) => (window as unknown as EnvelopeWindow).runMcpBParent(url),
      `${host.frameOrigin}/mcpb-frame.html`,
    );
    assert.deepEqual(texts, ["frame-server: accept api_key,service", "frame-server: decline"]);
    const frame = page.frames().find((f) => f.url().includes("/mcpb-frame.html"))!;
    const wire = [
      ...(await logOf(page)),
      ...(await frame.evaluate(() => (window as unknown as EnvelopeWindow).envelopeLog)),
    ];
    assert.ok(wire.some((l) => l.direction === "s2c") && wire.some((l) => l.direction === "c2s"));
    const records = await recordsOf(tabId, wire.length);
    assertSeqs(records);
    assertSameMessages(records, wire);
    for (const r of records as MessageRecord[]) {
      assert.equal(r.envelope, "mcp-b");
      assert.equal(r.exchange, "mcp-b:mcp-iframe");
      // The server side's origin and the client side's, whichever frame's tap recorded the message.
      assert.equal(r.url, host.frameOrigin);
      assert.equal(r.client, host.origin);
    }
    const report = await cliReport(records, join(scratch, "mcpb-iframe.jsonl"));
    assertTwoAnswers(report);
    await assertPanelShows(browser, tabId, report);
  });

  test("a Decode-as rule set through the worker makes a made-up envelope MCP: in the open page, in new pages, until removed", async () => {
    const run = (page: Page) => page.evaluate(() => (window as unknown as EnvelopeWindow).runBridge());
    const expected = ["bridge-server: accept api_key,service", "bridge-server: decline"];
    // Without a rule the bridge is nothing the tap reads: no "jsonrpc" in its bodies, no MCP header.
    const { page, tabId } = await browser.openTab(`${host.origin}/bridge.html`);
    assert.deepEqual(await run(page), expected);
    await sleep(800);
    assert.deepEqual(await browser.records(tabId), []);

    const added = await browser.command<{ rules: Decoder[] }>(
      tabId,
      "addDecoder",
      { rule: { label: "bridge", url: `${host.origin}/bridge/*`, pointer: "/rpc", direction: "both" } },
      "decoders",
    );
    assert.deepEqual(
      added.rules.map((r) => [r.id, r.url]),
      [["d1", `${host.origin}/bridge/*`]],
    );
    await sleep(300); // storage.onChanged reaches the relays of open pages

    // The page that was already open decodes from now on.
    let mark = host.bridged.length;
    assert.deepEqual(await run(page), expected);
    let wire = host.bridged.slice(mark);
    let records = await recordsOf(tabId, wire.length);
    assertSeqs(records);
    assertSameMessages(records, wire);
    for (const r of records as MessageRecord[]) {
      assert.equal(r.envelope, "decode:d1");
      assert.equal(r.stream, "envelope");
    }
    bridgeRecords = records;
    bridgeTab = tabId;
    const report = await cliReport(records, join(scratch, "bridge.jsonl"));
    assert.ok(
      report.findings.some((f) => f.rule === "form-secret-field"),
      report.findings.map((f) => f.rule).join(", "),
    );
    await assertPanelShows(browser, tabId, report);
    assert.equal((await stats(tabId)).envelopes?.["decode:d1"], wire.length);

    // A page opened later gets the rule at document_start.
    const fresh = await browser.openTab(`${host.origin}/bridge.html`);
    mark = host.bridged.length;
    assert.deepEqual(await run(fresh.page), expected);
    wire = host.bridged.slice(mark);
    records = await recordsOf(fresh.tabId, wire.length);
    assertSameMessages(records, wire);

    // Removed: an open page stops decoding, and so does a new one.
    const removed = await browser.command<{ rules: Decoder[] }>(tabId, "removeDecoder", { id: "d1" }, "decoders");
    assert.deepEqual(removed.rules, []);
    await sleep(300);
    const before = (await browser.records(fresh.tabId)).length;
    assert.deepEqual(await run(fresh.page), expected);
    const last = await browser.openTab(`${host.origin}/bridge.html`);
    assert.deepEqual(await run(last.page), expected);
    await sleep(800);
    assert.equal((await browser.records(fresh.tabId)).length, before);
    assert.deepEqual(await browser.records(last.tabId), []);
  });

  test("the decoded bridge's answers pair with their questions (two accepted/declined flows)", async () => {
    assert.ok(bridgeRecords.length > 0, "the previous test ran");
    const report = await cliReport(bridgeRecords, join(scratch, "bridge-pairs.jsonl"));
    assertTwoAnswers(report);
    // One scope for the rule's sends and its event stream: one server, named by the host's origin and the rule's label.
    const flows = analyze(bridgeRecords).flows;
    assert.deepEqual(
      [...new Set(flows.map((f) => `${f.server} | ${f.via} | ${f.envelope}`))],
      [`${host.origin} (bridge) | ${host.origin} | decode:d1`],
    );
    // The panel's Server and Via cells say so (the rule was removed since: it is named by its id).
    const panel = await browser.context.newPage();
    try {
      await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${bridgeTab}`);
      await panel.getByRole("heading", { name: `Flows (${report.flows.length})` }).waitFor({ timeout: 10_000 });
      const shown = await panel.$$eval("tr[data-flow]", (rows) =>
        rows.map((row) =>
          ["server", "via"].map((c) => row.querySelector(`td[data-col="${c}"]`)?.textContent?.trim() ?? ""),
        ),
      );
      const hostPort = new URL(host.origin).host;
      assert.deepEqual(
        [...new Set(shown.map((r) => r.join(" | ")))],
        [`${hostPort} (bridge) | decoder d1 at ${hostPort}`],
      );
    } finally {
      await panel.close();
    }
  });
});
