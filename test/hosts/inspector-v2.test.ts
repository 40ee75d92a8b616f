import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { inspectorV2Call, inspectorV2Connect, observe, type Observed } from "./drivers.ts";
import { startInspectorV2, type InspectorV2 } from "./hostProcess.ts";
import { assertPanelShowsCapture } from "./panel.ts";
import { startHostPeer, type HostPeer, type WireMessage } from "./peer.ts";
import { hostTools } from "./tools.ts";
import {
  analyze,
  capturedMessages,
  diffMessages,
  findingKeys,
  isJsonRpc,
  referenceCapture,
  summary,
  type FlowSummary,
} from "./wire.ts";

/**
 * The real MCP Inspector v2 (`@modelcontextprotocol/inspector` 2.12.0): its launcher starts its backend and web UI
 * against a real sdk 1.32.2 server; Chromium with dist/chrome opens the Inspector's page and a person's steps are
 * taken in its UI: connect, Tools, connect_service, Execute Tool, the form answered in the Inspector's own
 * "Elicitation Request" dialog — Submit with a service and an API key, then, on a second call, Decline.
 *
 * The page never talks to the server: it posts each JSON-RPC message to its backend (`/api/mcp/send`) and reads the
 * server's from an SSE stream of the backend (`/api/mcp/events`), docs/hosts-wire.md. The witness of the wire is the
 * server itself (what its transport received and sent). The extension must hold exactly those messages, unwrapped
 * from the backend's envelopes, on the upstream server; the engine and the panel must report the flows, answers and
 * findings of that traffic; and the page must run the same without the extension.
 */
const SECRET = "sk-hosts-iv2-0123456789abcdefghijKLMN"; // an OpenAI-style key: form-secret-value's heuristic
const ACCEPT = { fill: { Service: "weather", "API key": SECRET } };

let peer: HostPeer;
let inspector: InspectorV2;
let extension: ExtensionBrowser;
let plain: Browser;

interface Run {
  observed: Observed;
  wire: WireMessage[];
}

/** One person's session in the Inspector's UI: accept, then decline. */
async function session(page: import("playwright-core").Page): Promise<Observed> {
  const observed = observe(page, [inspector.origin]);
  await inspectorV2Connect(page, inspector.url, hostTools.secret);
  observed.results.push(await inspectorV2Call(page, ACCEPT, /alpha connect: accept/));
  observed.results.push(await inspectorV2Call(page, "decline", /alpha connect: decline/));
  return observed;
}

let withExtension: Run;
let withExtensionTab: number;
let withoutExtension: Run;
let captured: CaptureRecord[] = [];

/** Waits until the worker holds as many enveloped messages as the server saw (or 20 s), then returns the records. */
async function settledRecords(tabId: number, expected: number): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    records = await extension.records(tabId);
    if (capturedMessages(records).filter((m) => m.envelope === "inspector-v2").length >= expected) return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return records;
}

describe("MCP Inspector v2 2.12.0 in Chromium, driven through its own UI", { timeout: 300_000 }, () => {
  before(async () => {
    ensureBuilt();
    peer = await startHostPeer("alpha");
    inspector = await startInspectorV2(peer.url);
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
    await inspector?.close();
    await peer?.close();
  });

  test("the Inspector runs the session with the extension, and without it", async () => {
    let from = peer.wire.length;
    const tab = await extension.openTab("about:blank");
    withExtensionTab = tab.tabId;
    withExtension = { observed: await session(tab.page), wire: [] };
    withExtension.wire = peer.wire.slice(from);
    // The tab stays open: the worker forgets a closed tab's records.

    from = peer.wire.length;
    const page = await plain.newPage();
    withoutExtension = { observed: await session(page), wire: [] };
    withoutExtension.wire = peer.wire.slice(from);
    await page.close();

    assert.deepEqual(withExtension.observed.results, [
      "alpha connect: accept api_key,service",
      "alpha connect: decline",
    ]);
  });

  test("the page behaves the same with and without the extension: same results, same answers, same traffic", () => {
    assert.ok(withExtension && withoutExtension, "the runs of the first test");
    assert.deepEqual(withExtension.observed.results, withoutExtension.observed.results);
    assert.deepEqual(withExtension.observed.errors, withoutExtension.observed.errors);
    // Requests and answers the page got from its backend (a fetch that never ends, like the events stream, counts when its headers came).
    const api = (o: Observed) => o.responses.filter((r) => r.includes(" /api/mcp/")).sort();
    assert.deepEqual(api(withExtension.observed), api(withoutExtension.observed));
    // What the server received and sent, message for message, in the same order.
    assert.deepEqual(withExtension.wire, withoutExtension.wire);
  });

  test("the extension holds every MCP message that went over the wire, once, unwrapped from the backend's envelopes", async () => {
    assert.ok(withExtension, "the run of the first test");
    const wire = withExtension.wire;
    assert.ok(wire.length >= 12, `the server saw the session (${wire.length} messages)`);
    captured = await settledRecords(withExtensionTab, wire.length);
    assert.ok(captured.length > 0, "the worker holds records for the Inspector's tab");
    const messages = capturedMessages(captured);
    const enveloped = messages.filter((m) => m.envelope === "inspector-v2");
    assert.deepEqual(
      diffMessages(wire, enveloped),
      { missing: [], extra: [] },
      "the enveloped messages are the server's wire",
    );
    for (const m of enveloped) {
      assert.equal(m.server, peer.url, "server: the connect config's url");
      assert.equal(m.via, `${inspector.origin}/api/mcp`, "via: the backend");
      assert.equal(m.stream, "envelope");
      assert.equal(m.upstreamTransport, "streamable-http");
    }
    // No junk: the backend's wrappers and {"ok":true} answers are not messages; nothing else recorded is JSON-RPC.
    assert.deepEqual(
      messages.filter((m) => m.envelope === undefined && isJsonRpc(m.message)).map((m) => m.text),
      [],
    );
    assert.deepEqual(
      messages
        .filter((m) => m.envelope === undefined && new URL(m.url ?? "http://x/").pathname.startsWith("/api/mcp/"))
        .map((m) => m.text),
      [],
    );
    assert.deepEqual(analyze(captured).problems, []);
    assert.deepEqual(
      captured.map((r) => r.seq),
      captured.map((_, i) => i),
    );
    // The backend's API token (x-mcp-remote-auth, and in the page URL) is never captured; nor is the typed key in clear
    // outside the message that carried it.
    assert.ok(!JSON.stringify(captured).includes(inspector.token), "the Inspector's API token is not in the capture");
  });

  test("the flows and answers are those of the wire: accept with the key, then decline, on the upstream via the backend", () => {
    assert.ok(captured.length > 0, "the capture of the previous test");
    const engine = analyze(captured);
    const via = `${inspector.origin}/api/mcp`;
    const expected: FlowSummary[] = [
      {
        method: "tools/call",
        target: hostTools.secret,
        status: "complete",
        server: peer.url,
        via,
        elicitations: [["form", "accept", true]],
      },
      {
        method: "tools/call",
        target: hostTools.secret,
        status: "complete",
        server: peer.url,
        via,
        elicitations: [["form", "decline", true]],
      },
    ];
    assert.deepEqual(engine.flows.map(summary), expected);
  });

  test("the findings are those the bare wire gives (the envelope/proxy adds none and hides none), form-secret-field among them", () => {
    assert.ok(captured.length > 0, "the capture of the previous tests");
    const engine = analyze(captured);
    assert.equal(engine.flows.length, 2, "the two calls are flows");
    const reference = analyze(referenceCapture({ wire: withExtension.wire, server: peer.url }));
    assert.deepEqual(findingKeys(engine), findingKeys(reference));
    const secretFields = engine.findings.filter((f) => f.rule === "form-secret-field").map((f) => f.flow);
    assert.deepEqual(
      secretFields,
      engine.flows.map((f) => f.id),
    );
    assert.ok(
      engine.findings.some((f) => f.rule === "form-secret-value" && f.flow === engine.flows[0]!.id),
      "the typed key is credential-looking",
    );
  });

  test("the panel shows those flows (upstream server, via the backend, outcome) and findings, the key masked", async () => {
    assert.ok(captured.length > 0, "the capture of the previous tests");
    const view = await assertPanelShowsCapture(extension, withExtensionTab, SECRET);
    assert.ok(
      view.details.every((text) => text.includes("via MCP Inspector backend")),
      "each flow says it came via MCP Inspector backend",
    );
  });
});
