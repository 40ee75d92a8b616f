import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { mcpbCall, observe, type Observed } from "./drivers.ts";
import { startMcpbPages, type McpbPages } from "./mcpb/pages.ts";
import type { WireEntry } from "./mcpb/ui.ts";
import { assertPanelShowsCapture } from "./panel.ts";
import { hostTools } from "./tools.ts";
import {
  analyze,
  capturedMessages,
  diffMessages,
  findingKeys,
  isJsonRpc,
  referenceCapture,
  summary,
  type Witnessed,
} from "./wire.ts";

/**
 * The real @mcp-b/transports 5.1.0 in Chromium with dist/chrome: a real sdk 1.32.2 McpServer and Client on its
 * transports, bundled with esbuild (test/hosts/mcpb/), their messages carried as
 * `postMessage({channel, type: "mcp", direction, payload})` (docs/hosts-wire.md):
 * - tab: TabServerTransport and TabClientTransport in one window, so every envelope arrives at both ends and only
 *   its `direction` tells who sent it;
 * - iframe: IframeParentTransport (the client, in the page) and IframeChildTransport (the server, in an iframe of
 *   another origin); client→server envelopes arrive only in the iframe, server→client only in the page.
 * A person clicks connect_service and accepts the page's dialog with a service and an API key, then clicks
 * confirm_action and declines. The witness is each window's own log of the envelopes that reached it.
 */
const SECRET = "sk-hosts-mcpb-0123456789abcdefghijKLMN";
const ACCEPT = { fill: { Service: "weather", "API key": SECRET } };

let pages: McpbPages;
let extension: ExtensionBrowser;
let plain: Browser;

interface Run {
  observed: Observed;
  /** Every envelope that reached each window (the page; the iframe too in the iframe case). */
  envelopes: WireEntry[][];
  /** The page's text once done. */
  text: string;
}

/**
 * The JSON-RPC messages of the envelopes (handshake strings dropped), with the envelope's direction, in the order
 * they arrived across the windows (the page's and the iframe's clocks share the time origin of one browser).
 */
const witnessed = (envelopes: readonly WireEntry[][]): Witnessed[] =>
  envelopes
    .flat()
    .sort((a, b) => a.at - b.at)
    .flatMap((e) =>
      isJsonRpc(e.payload)
        ? [{ direction: e.direction === "client-to-server" ? ("c2s" as const) : ("s2c" as const), message: e.payload }]
        : [],
    );

async function session(page: Page, url: string, name: string): Promise<Run> {
  const observed = observe(page, [pages.hostOrigin, pages.frameOrigin]);
  await page.goto(url);
  await page.evaluate(() => window.mcpbReady);
  observed.results.push(await mcpbCall(page, hostTools.secret, ACCEPT, new RegExp(`${name} connect: accept`)));
  observed.results.push(await mcpbCall(page, hostTools.confirm, "decline", new RegExp(`${name} confirm: decline`)));
  const envelopes: WireEntry[][] = [];
  for (const frame of page.frames()) envelopes.push(await frame.evaluate(() => window.mcpbWire));
  return { observed, envelopes, text: await page.locator("body").innerText() };
}

async function settledRecords(tabId: number, expected: number): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    records = await extension.records(tabId);
    if (capturedMessages(records).filter((m) => m.envelope === "mcp-b").length >= expected) return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return records;
}

describe("@mcp-b/transports 5.1.0 in Chromium: tab and iframe transports", { timeout: 300_000 }, () => {
  before(async () => {
    ensureBuilt();
    pages = await startMcpbPages();
    extension = await launchWithExtension();
    plain = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu"],
    });
  });

  after(async () => {
    await extension?.close();
    await plain?.close();
    await pages?.close();
  });

  for (const kind of ["tab", "iframe"] as const) {
    const name = `mcpb-${kind}`;
    let withExtension: Run;
    let withExtensionTab: number;
    let withoutExtension: Run;
    let captured: CaptureRecord[] = [];
    /** Where the server runs: the page itself (tab), the iframe's origin (iframe). */
    const serverOrigin = () => (kind === "tab" ? pages.hostOrigin : pages.frameOrigin);
    const url = () => (kind === "tab" ? pages.tabUrl : pages.iframeUrl);

    test(`${kind}: the page runs the session with the extension, and without it`, async () => {
      const tab = await extension.openTab("about:blank");
      withExtensionTab = tab.tabId;
      withExtension = await session(tab.page, url(), name); // the tab stays open: the worker forgets a closed tab's records
      const page = await plain.newPage();
      withoutExtension = await session(page, url(), name);
      await page.close();
      assert.deepEqual(withExtension.observed.results, [
        `${name} connect: accept api_key,service`,
        `${name} confirm: decline`,
      ]);
      assert.equal(withExtension.envelopes.length, kind === "tab" ? 1 : 2);
    });

    test(`${kind}: the page behaves the same with and without the extension`, () => {
      assert.ok(withExtension && withoutExtension, "the runs of the first test");
      assert.deepEqual(withExtension.observed.results, withoutExtension.observed.results);
      assert.deepEqual(withExtension.observed.errors, withoutExtension.observed.errors);
      // The page and the iframe load in parallel: their responses come in either order.
      assert.deepEqual([...withExtension.observed.responses].sort(), [...withoutExtension.observed.responses].sort());
      // The same JSON-RPC messages reached each window, in the same order. The handshake strings are not compared
      // run to run: whether the page's `mcp-check-ready` reaches the iframe before its listener is up is a race of
      // the library (12 loads without the extension: `mcp-server-ready` reached the page once 5 times and twice 7
      // times, `mcp-check-ready` reached the iframe 0 or 1 times); each run's strings must be the library's own.
      const rpc = (run: Run) => run.envelopes.map((w) => witnessed([w]));
      assert.deepEqual(rpc(withExtension), rpc(withoutExtension));
      const handshake = new Set(["client-to-server mcp-check-ready", "server-to-client mcp-server-ready"]);
      for (const run of [withExtension, withoutExtension])
        for (const e of run.envelopes.flat())
          if (typeof e.payload === "string")
            assert.ok(handshake.has(`${e.direction} ${e.payload}`), `${e.direction} ${e.payload}`);
      assert.equal(withExtension.text, withoutExtension.text);
    });

    test(`${kind}: the extension holds every JSON-RPC message of the envelopes, once, with the envelope's direction`, async () => {
      assert.ok(withExtension, "the run of the first test");
      const wire = witnessed(withExtension.envelopes);
      assert.ok(wire.length >= 12, `the envelopes carried the session (${wire.length} messages)`);
      captured = await settledRecords(withExtensionTab, wire.length);
      assert.ok(captured.length > 0, "the worker holds records for the tab");
      const messages = capturedMessages(captured);
      const enveloped = messages.filter((m) => m.envelope === "mcp-b");
      assert.deepEqual(diffMessages(wire, enveloped), { missing: [], extra: [] });
      for (const m of enveloped) {
        assert.equal(m.transport, "postMessage");
        assert.equal(m.stream, "envelope");
        assert.equal(m.server ?? m.url, serverOrigin(), "the server side is where the McpServer runs");
      }
      // Numbered in causal order: an answer never gets a lower seq than the request it answers, even when the two
      // were captured in different frames (the iframe case: requests one way are recorded in the iframe, the other
      // way in the page, each frame's relay sending its own batches).
      const asked = new Map<string, number>();
      const inversions: string[] = [];
      for (const m of [...enveloped].sort((a, b) => a.seq - b.seq)) {
        const msg = m.message as { id?: unknown; method?: unknown };
        const id = JSON.stringify(msg.id);
        if (typeof msg.method === "string" && msg.id !== undefined) asked.set(`${m.direction} ${id}`, m.seq);
        else if (msg.id !== undefined && !asked.has(`${m.direction === "c2s" ? "s2c" : "c2s"} ${id}`))
          inversions.push(`seq ${m.seq} ${m.direction} answers id ${id} before its request`);
      }
      assert.deepEqual(inversions, []);
      // Handshake strings are not messages, nothing is recorded twice, nothing is an input problem.
      assert.deepEqual(
        messages.filter((m) => m.envelope !== "mcp-b").map((m) => m.text),
        [],
      );
      assert.deepEqual(analyze(captured).problems, []);
    });

    test(`${kind}: flows, answers and findings are those of the wire (accept with the key, decline; form-secret-field)`, () => {
      assert.ok(captured.length > 0, "the capture of the previous test");
      const engine = analyze(captured);
      assert.deepEqual(
        engine.flows.map((f) => ({ ...summary(f), via: undefined })),
        [
          {
            method: "tools/call",
            target: hostTools.secret,
            status: "complete",
            server: `postMessage:${serverOrigin()}`,
            via: undefined,
            elicitations: [["form", "accept", true]],
          },
          {
            method: "tools/call",
            target: hostTools.confirm,
            status: "complete",
            server: `postMessage:${serverOrigin()}`,
            via: undefined,
            elicitations: [["form", "decline", true]],
          },
        ],
      );
      const reference = analyze(referenceCapture({ wire: witnessed(withExtension.envelopes), server: serverOrigin() }));
      assert.deepEqual(findingKeys(engine), findingKeys(reference));
      assert.deepEqual(
        engine.findings.filter((f) => f.rule === "form-secret-field").map((f) => f.flow),
        [engine.flows[0]!.id],
      );
    });

    test(`${kind}: the panel shows those flows, outcomes and findings, the key masked`, async () => {
      assert.ok(captured.length > 0, "the capture of the previous tests");
      const view = await assertPanelShowsCapture(extension, withExtensionTab, SECRET);
      assert.ok(
        view.details.every((text) => text.includes("via MCP-B postMessage")),
        "each flow says it came via MCP-B postMessage",
      );
    });
  }
});
