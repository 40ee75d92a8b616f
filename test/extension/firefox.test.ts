import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "puppeteer-core";
import { startDemoHost, type DemoHost } from "../../demo/host.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";
import { ensureBuilt } from "./built.ts";
import { driveDemo, type DemoDriver } from "./firefox/demoDriver.ts";
import { launchFirefoxWithExtension, type FirefoxWithExtension } from "./firefox/launch.ts";
import { startRecordingProxy, type RecordingProxy } from "./firefox/recordingProxy.ts";

/**
 * The capture pipe in Firefox ESR (puppeteer-core over WebDriver BiDi): dist/firefox installed, the demo host's
 * real SDK clients of both eras answered through its page, then what the extension holds must be what travelled,
 * and the flows its background and its panel report must be the engine's for the same traffic. The traffic is
 * witnessed twice: by the tap in the page, and by a recording proxy between the page and the demo host.
 */
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

/** [key, mode, action, completed, round] */
type ElicitationSummary = [string, string, string | null, boolean, number];
interface FlowSummary {
  kind: Flow["kind"];
  revision: string | null;
  method: string;
  target: string | null;
  status: Flow["status"];
  rounds: number;
  elicitations: ElicitationSummary[];
}

const summary = (flow: Flow): FlowSummary => ({
  kind: flow.kind,
  revision: flow.revision,
  method: flow.method,
  target: flow.target,
  status: flow.status,
  rounds: flow.rounds.length,
  elicitations: flow.elicitations.map((e) => [e.key, e.mode, e.action, e.completed, e.round]),
});

const EXPECTED: FlowSummary[] = [
  {
    kind: "server-request",
    revision: LEGACY,
    method: "tools/call",
    target: "confirm_action",
    status: "complete",
    rounds: 1,
    elicitations: [["0", "form", "accept", true, 1]],
  },
  {
    kind: "server-request",
    revision: LEGACY,
    method: "tools/call",
    target: "plan_trip",
    status: "complete",
    rounds: 1,
    elicitations: [
      ["0", "form", "accept", true, 1],
      ["1", "form", "decline", true, 1],
    ],
  },
  {
    kind: "mrtr",
    revision: MODERN,
    method: "tools/call",
    target: "confirm_action",
    status: "complete",
    rounds: 2,
    elicitations: [["confirm", "form", "cancel", true, 1]],
  },
  {
    kind: "mrtr",
    revision: MODERN,
    method: "tools/call",
    target: "plan_trip",
    status: "complete",
    rounds: 3,
    elicitations: [
      ["city", "form", "accept", true, 1],
      ["nights", "form", "accept", true, 2],
    ],
  },
];

/** The panel's rows, as panel/views/FlowList.tsx and panel/views/FindingList.tsx write them. */
const flowRow = (f: Flow): string[] => [
  f.id,
  f.kind,
  f.revision ?? "unknown",
  f.method,
  f.target ?? "",
  f.status,
  String(f.rounds.length),
];
const findingRow = (f: Finding): string[] => [f.severity, f.rule, f.message, f.flow ?? "", String(f.record)];

/** Every message that travelled, once each: what the two witnesses must agree on. */
const messages = (records: readonly CaptureRecord[]): string[] =>
  records
    .flatMap((r) =>
      r.kind === "message" ? [`${r.direction} ${r.stream} ${r.method ?? ""} ${r.url ?? ""} ${r.text}`] : [],
    )
    .sort();

/** The items of `a` that `b` lacks, counting duplicates. */
function without(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const item of b) left.set(item, (left.get(item) ?? 0) + 1);
  return a.filter((item) => {
    const n = left.get(item) ?? 0;
    if (n > 0) left.set(item, n - 1);
    return n === 0;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let host: DemoHost | undefined;
let proxy: RecordingProxy | undefined;
let firefox: FirefoxWithExtension | undefined;
let page: Page;
let demo: DemoDriver;
let tabId: number | undefined;
let captured: CaptureRecord[] = [];
const pageErrors: string[] = [];

/** The tab whose records come from the demo page (the test cannot see tab ids; the records tell the tabs apart). */
async function demoTab(f: FirefoxWithExtension, origin: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    for (const id of await f.tabIds()) if ((await f.records(id)).some((r) => r.client === origin)) return id;
    await sleep(100);
  }
  throw new Error(`no tab holds records of ${origin}`);
}

/** Waits until the extension holds every message the proxy saw (relay batches and the background store take a moment). */
async function settledCapture(f: FirefoxWithExtension, id: number, witness: RecordingProxy): Promise<CaptureRecord[]> {
  let records: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    records = await f.records(id);
    if (messages(records).join("\n") === messages(witness.records).join("\n")) return records;
    await sleep(100);
  }
  return records;
}

describe("Firefox ESR: dist/firefox over WebDriver BiDi", { timeout: 240_000 }, () => {
  before(async () => {
    ensureBuilt();
    host = await startDemoHost();
    proxy = await startRecordingProxy(host.url);
    firefox = await launchFirefoxWithExtension();
    page = await firefox.browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(error instanceof Error ? error.message : String(error)));
    await page.goto(proxy.url);
    demo = driveDemo(page);
  });

  after(async () => {
    await firefox?.close();
    await proxy?.close();
    await host?.close();
  });

  test(`${LEGACY}: confirm accepted, trip accepted then declined (real SDK client and server)`, async () => {
    await demo.run(`confirm (${LEGACY})`);
    await demo.question("Delete the staging database?");
    await demo.check("Confirm");
    await demo.answer("Accept");
    assert.equal(await demo.result(`confirm (${LEGACY})`), 'confirm: accept {"confirm":true}');

    await demo.run(`trip (${LEGACY})`);
    await demo.fill("City", "Lisbon");
    await demo.answer("Accept");
    await demo.question("How many nights in Lisbon?");
    await demo.answer("Decline");
    assert.equal(await demo.result(`trip (${LEGACY})`), 'trip: accept {"city":"Lisbon"} then decline');
  });

  test(`${MODERN}: confirm cancelled, trip over two input rounds (MRTR)`, async () => {
    await demo.run(`confirm (${MODERN})`);
    await demo.question("Delete the staging database?");
    await demo.answer("Cancel");
    assert.equal(await demo.result(`confirm (${MODERN})`), "confirm: cancel");

    await demo.run(`trip (${MODERN})`);
    await demo.fill("City", "Porto");
    await demo.answer("Accept");
    await demo.question("How many nights in Porto?");
    await demo.fill("nights", "3", "spinbutton");
    await demo.answer("Accept");
    assert.equal(await demo.result(`trip (${MODERN})`), 'trip: Porto for accept {"nights":3}');
  });

  test("the extension holds every message that travelled, once, in order, and nothing else", async () => {
    assert.ok(firefox && proxy);
    tabId = await demoTab(firefox, proxy.origin);
    captured = await settledCapture(firefox, tabId, proxy);
    const tapped = messages(captured);
    const witnessed = messages(proxy.records);
    assert.deepEqual(
      { missing: without(witnessed, tapped), extra: without(tapped, witnessed) },
      { missing: [], extra: [] },
    );
    assert.deepEqual(
      captured.map((r) => r.seq),
      captured.map((_, i) => i),
    );
    assert.ok(captured.every((r) => r.client === proxy!.origin && r.transport === "http"));
    assert.ok(
      captured.some((r) => r.kind === "message" && r.stream === "post-sse"),
      "SSE events of the 2025-11-25 calls",
    );
    assert.ok(
      captured.some((r) => r.kind === "message" && r.headers?.["mcp-session-id"]),
      "Mcp-Session-Id captured",
    );
  });

  test("the flows: what the engine reports for the captured traffic, and for the proxy's record of it", () => {
    assert.ok(proxy && captured.length > 0, "the capture of the previous test");
    const fromExtension = analyze(captured).flows.map(summary);
    const fromProxy = analyze(proxy.records).flows.map(summary);
    assert.deepEqual(fromExtension, EXPECTED);
    assert.deepEqual(fromProxy, EXPECTED);
    assert.deepEqual(analyze(captured).problems, []);
  });

  test("the panel, opened for the demo tab, shows the background's flows and findings: the engine's", async () => {
    assert.ok(firefox && tabId !== undefined && captured.length > 0, "the capture of the previous tests");
    const engine = analyze(captured);
    const view = await firefox.panel(tabId, {
      records: captured.length,
      flows: engine.flows.length,
      findings: engine.findings.length,
    });
    assert.equal(view.heading, `MCP elicitation — tab ${tabId}`);
    assert.deepEqual(view.flows, engine.flows.map(flowRow));
    // The Findings view groups by rule (Expert Info): the same rows, in another order.
    const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(sorted(view.findings), sorted(engine.findings.map(findingRow)));
    // The same rules fire on the proxy's record of the traffic.
    const rules = (findings: readonly Finding[]) => findings.map((f) => `${f.severity} ${f.rule}`).sort();
    assert.deepEqual(rules(engine.findings), rules(analyze(proxy!.records).findings));
    assert.deepEqual(pageErrors, []);
  });

  test("the panel imports the capture as a JSONL file in its import worker (importer.js): the engine's flows and findings", async () => {
    assert.ok(firefox && captured.length > 0, "the capture of the previous tests");
    const engine = analyze(captured);
    const view = await firefox.importInPanel("firefox.jsonl", exportJsonl(captured), {
      records: captured.length,
      flows: engine.flows.length,
      findings: engine.findings.length,
    });
    assert.equal(view.heading, "MCP elicitation — firefox.jsonl");
    assert.deepEqual(view.flows, engine.flows.map(flowRow));
    const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(sorted(view.findings), sorted(engine.findings.map(findingRow)));
  });
});
