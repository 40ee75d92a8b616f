import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { inspectorV1Call, inspectorV1Connect, inspectorV1Switch, observe, type Observed } from "./drivers.ts";
import { startInspectorV1, type InspectorV1 } from "./hostProcess.ts";
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
 * The real MCP Inspector v1 (`@modelcontextprotocol/inspector-client` + `-server` 1.0.3) through its proxy, with two
 * upstream sdk 1.32.2 servers, in Chromium with dist/chrome. In one tab a person connects to server alpha, runs
 * connect_service and submits the form in the Inspector's Elicitations tab; disconnects, types server beta's URL,
 * connects, runs confirm_action and declines. The page speaks the SDK's Streamable HTTP to the proxy only, every
 * request to `<proxy>/mcp?url=<upstream>&transportType=streamable-http` (docs/hosts-wire.md).
 *
 * The witnesses are the two servers (what each received and sent). The extension must hold exactly their messages,
 * each on its own upstream (not the proxy), with the proxy beside it; two servers, two lanes; the engine's and the
 * panel's flows, answers and findings those of the wire; and the page must run the same without the extension.
 */
const SECRET = "sk-hosts-iv1-0123456789abcdefghijKLMN";

let alpha: HostPeer;
let beta: HostPeer;
let inspector: InspectorV1;
let extension: ExtensionBrowser;
let plain: Browser;

interface Run {
  observed: Observed;
  alpha: WireMessage[];
  beta: WireMessage[];
}

async function session(page: Page): Promise<Observed> {
  // The proxy's answers (the page's own assets are cached differently run to run).
  const observed = observe(page, [inspector.proxyOrigin]);
  await page.goto(inspector.pageUrl(alpha.url));
  await inspectorV1Connect(page, "alpha");
  observed.results.push(
    await inspectorV1Call(
      page,
      hostTools.secret,
      { fill: { "Which service to connect": "weather", "The service's API key": SECRET } },
      /alpha connect: accept/,
    ),
  );
  await inspectorV1Switch(page, beta.url, "beta");
  observed.results.push(await inspectorV1Call(page, hostTools.confirm, "decline", /beta confirm: decline/));
  return observed;
}

/** Runs a session and returns what it observed and what each server saw meanwhile. */
async function run(page: Page): Promise<Run> {
  const from = [alpha.wire.length, beta.wire.length] as const;
  const observed = await session(page);
  return { observed, alpha: alpha.wire.slice(from[0]), beta: beta.wire.slice(from[1]) };
}

let withExtension: Run;
let withExtensionTab: number;
let withoutExtension: Run;
let captured: CaptureRecord[] = [];

async function settledRecords(tabId: number, expected: number): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    records = await extension.records(tabId);
    if (capturedMessages(records).filter((m) => isJsonRpc(m.message)).length >= expected) return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return records;
}

describe("MCP Inspector v1 1.0.3 through its proxy, two upstream servers, in Chromium", { timeout: 300_000 }, () => {
  before(async () => {
    ensureBuilt();
    alpha = await startHostPeer("alpha");
    beta = await startHostPeer("beta");
    inspector = await startInspectorV1();
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
    await alpha?.close();
    await beta?.close();
  });

  test("the Inspector runs the session with the extension, and without it", async () => {
    const tab = await extension.openTab("about:blank");
    withExtensionTab = tab.tabId;
    withExtension = await run(tab.page); // the tab stays open: the worker forgets a closed tab's records
    const page = await plain.newPage();
    withoutExtension = await run(page);
    await page.close();
    assert.deepEqual(withExtension.observed.results, [
      '"alpha connect: accept api_key,service"',
      '"beta confirm: decline"',
    ]);
  });

  test("the page behaves the same with and without the extension: same results, same answers, same traffic", () => {
    assert.ok(withExtension && withoutExtension, "the runs of the first test");
    assert.deepEqual(withExtension.observed.results, withoutExtension.observed.results);
    assert.deepEqual(withExtension.observed.errors, withoutExtension.observed.errors);
    assert.deepEqual([...withExtension.observed.responses].sort(), [...withoutExtension.observed.responses].sort());
    assert.deepEqual(withExtension.alpha, withoutExtension.alpha);
    assert.deepEqual(withExtension.beta, withoutExtension.beta);
  });

  test("the extension holds every message of both servers, once, each on its upstream server, via the proxy", async () => {
    assert.ok(withExtension, "the run of the first test");
    const total = withExtension.alpha.length + withExtension.beta.length;
    assert.ok(
      withExtension.alpha.length >= 8 && withExtension.beta.length >= 8,
      `both servers saw their session (${withExtension.alpha.length}, ${withExtension.beta.length})`,
    );
    captured = await settledRecords(withExtensionTab, total);
    assert.ok(captured.length > 0, "the worker holds records for the Inspector's tab");
    const messages = capturedMessages(captured).filter((m) => isJsonRpc(m.message));
    // Everything that travelled, once: what the two servers saw together.
    assert.deepEqual(diffMessages([...withExtension.alpha, ...withExtension.beta], messages), {
      missing: [],
      extra: [],
    });
    // Each message on its own upstream, the proxy beside it.
    const via = `${inspector.proxyOrigin}/mcp`;
    assert.deepEqual(
      diffMessages(
        withExtension.alpha,
        messages.filter((m) => m.server === alpha.url),
      ),
      { missing: [], extra: [] },
      "alpha's messages name alpha",
    );
    assert.deepEqual(
      diffMessages(
        withExtension.beta,
        messages.filter((m) => m.server === beta.url),
      ),
      { missing: [], extra: [] },
      "beta's messages name beta",
    );
    for (const m of messages) {
      assert.equal(m.via, via);
      assert.equal(m.upstreamTransport, "streamable-http");
      assert.equal(m.envelope, "proxy");
      assert.notEqual(m.stream, "envelope", "the proxy is Streamable HTTP end to end: the real stream kind stays");
    }
    assert.deepEqual(analyze(captured).problems, []);
    assert.ok(!JSON.stringify(captured).includes(inspector.token), "the proxy's auth token is not in the capture");
  });

  test("two flows on two servers, not on the proxy: accept on alpha, decline on beta", () => {
    assert.ok(captured.length > 0, "the capture of the previous test");
    const engine = analyze(captured);
    const via = `${inspector.proxyOrigin}/mcp`;
    const expected: FlowSummary[] = [
      {
        method: "tools/call",
        target: hostTools.secret,
        status: "complete",
        server: alpha.url,
        via,
        elicitations: [["form", "accept", true]],
      },
      {
        method: "tools/call",
        target: hostTools.confirm,
        status: "complete",
        server: beta.url,
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
    const reference = analyze(
      referenceCapture(
        { wire: withExtension.alpha, server: alpha.url },
        { wire: withExtension.beta, server: beta.url },
      ),
    );
    // Plus what only HTTP shows, and is true of this wire: the proxy forwards the upstream's elicitation/create without
    // its related request, so it travels on the standalone GET stream (docs/hosts-wire.md), an info each.
    const delivery = engine.flows.map((f) => `info del-r12-standalone-stream ${f.method} ${f.target ?? ""}`);
    assert.deepEqual(findingKeys(engine), [...findingKeys(reference), ...delivery].sort());
    assert.ok(
      captured.some((r) => r.kind === "message" && r.stream === "get-sse" && r.text.includes('"elicitation/create"')),
      "the elicitations came on the GET stream",
    );
    assert.deepEqual(
      engine.findings.filter((f) => f.rule === "form-secret-field").map((f) => f.flow),
      [engine.flows[0]!.id],
    );
  });

  test("the panel shows the two upstream servers (via the proxy), the outcomes and the findings, the key masked", async () => {
    assert.ok(captured.length > 0, "the capture of the previous tests");
    await assertPanelShowsCapture(extension, withExtensionTab, SECRET);
  });
});
