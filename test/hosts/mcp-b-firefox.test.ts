import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";
import { ensureBuilt } from "../extension/built.ts";
import { FIREFOX, launchFirefoxWithExtension, type FirefoxWithExtension } from "../extension/firefox/launch.ts";
import { startMcpbPages, type McpbPages } from "./mcpb/pages.ts";
import type { WireEntry } from "./mcpb/ui.ts";
import { hostTools } from "./tools.ts";
import {
  capturedMessages,
  diffMessages,
  findingKeys,
  isJsonRpc,
  referenceCapture,
  summary,
  type Witnessed,
} from "./wire.ts";

/**
 * The MCP-B tab transport (@mcp-b/transports 5.1.0, sdk 1.32.2 McpServer + Client in one window, test/hosts/mcpb/)
 * in Firefox ESR with dist/firefox (puppeteer-core over WebDriver BiDi, test/extension/firefox/launch.ts), and in
 * a Firefox without the extension. A person clicks connect_service and accepts with an API key, then confirm_action
 * and declines. The witness is the page's own log of the envelopes that reached its window.
 */
const SECRET = "sk-hosts-mcpb-ff-0123456789abcdefghijKLMN";

let pages: McpbPages;
let firefox: FirefoxWithExtension;
let plain: Browser;
let plainProfile: string;

interface Run {
  results: string[];
  envelopes: WireEntry[];
  errors: string[];
  text: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function resultContaining(page: Page, text: string): Promise<string> {
  await page.waitForFunction(
    (text) => (document.querySelector("output")?.textContent ?? "").includes(text),
    { timeout: 30_000, polling: 100 },
    text,
  );
  return page.evaluate(() => document.querySelector("output")?.textContent ?? "");
}

/** The session, as a person takes it in the page: click, type, click. */
async function session(page: Page): Promise<Run> {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)));
  await page.goto(pages.tabUrl);
  await page.evaluate(() => window.mcpbReady);
  const results: string[] = [];
  await page.click(`button[data-tool="${hostTools.secret}"]`);
  await page.waitForSelector("dialog[open]", { timeout: 30_000 });
  await page.type('dialog input[name="service"]', "weather");
  await page.type('dialog input[name="api_key"]', SECRET);
  await page.click("dialog button[value=accept]");
  results.push(await resultContaining(page, "mcpb-tab connect: accept"));
  await page.click(`button[data-tool="${hostTools.confirm}"]`);
  await page.waitForSelector("dialog[open]", { timeout: 30_000 });
  await page.click("dialog button[value=decline]");
  results.push(await resultContaining(page, "mcpb-tab confirm: decline"));
  return {
    results,
    errors,
    envelopes: await page.evaluate(() => window.mcpbWire),
    text: await page.evaluate(() => document.body.innerText),
  };
}

const witnessed = (envelopes: readonly WireEntry[]): Witnessed[] =>
  envelopes.flatMap((e) =>
    isJsonRpc(e.payload)
      ? [{ direction: e.direction === "client-to-server" ? ("c2s" as const) : ("s2c" as const), message: e.payload }]
      : [],
  );

/** The tab whose records are the MCP-B page's (the test cannot see tab ids; the records tell the tabs apart). */
async function pageTab(f: FirefoxWithExtension): Promise<number | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    for (const id of await f.tabIds()) {
      const records = await f.records(id);
      if (records.some((r) => r.client === pages.hostOrigin || r.url === pages.hostOrigin)) return id;
    }
    await sleep(100);
  }
  return undefined;
}

let withExtension: Run;
let withoutExtension: Run;
let tabId: number | undefined;
let captured: CaptureRecord[] = [];

describe("@mcp-b/transports 5.1.0 tab transport in Firefox ESR", { timeout: 300_000 }, () => {
  before(async () => {
    ensureBuilt();
    pages = await startMcpbPages();
    firefox = await launchFirefoxWithExtension();
    plainProfile = await mkdtemp(join(tmpdir(), "mcp-hosts-firefox-"));
    plain = await puppeteer.launch({
      browser: "firefox",
      executablePath: FIREFOX,
      headless: true,
      userDataDir: plainProfile,
    });
  });

  after(async () => {
    await firefox?.close();
    await plain?.close().catch(() => undefined);
    if (plainProfile) await rm(plainProfile, { recursive: true, force: true });
    await pages?.close();
  });

  test("the page runs the session with the extension, and without it, the same", async () => {
    withExtension = await session(await firefox.browser.newPage()); // the tab stays open: the background forgets closed tabs
    const page = await plain.newPage();
    withoutExtension = await session(page);
    await page.close();
    assert.deepEqual(withExtension.results, ["mcpb-tab connect: accept api_key,service", "mcpb-tab confirm: decline"]);
    const same = (run: Run) => ({ ...run, envelopes: run.envelopes.map(({ at: _at, ...e }) => e) });
    assert.deepEqual(same(withExtension), same(withoutExtension));
  });

  test("the extension holds every JSON-RPC message of the envelopes, once, with the envelope's direction", async () => {
    assert.ok(withExtension, "the run of the first test");
    const wire = witnessed(withExtension.envelopes);
    assert.ok(wire.length >= 12, `the envelopes carried the session (${wire.length} messages)`);
    tabId = await pageTab(firefox);
    assert.ok(tabId !== undefined, `a tab holds records of ${pages.hostOrigin}`);
    for (let attempt = 0; attempt < 100; attempt++) {
      captured = await firefox.records(tabId);
      if (capturedMessages(captured).filter((m) => m.envelope === "mcp-b").length >= wire.length) break;
      await sleep(100);
    }
    const messages = capturedMessages(captured);
    assert.deepEqual(
      diffMessages(
        wire,
        messages.filter((m) => m.envelope === "mcp-b"),
      ),
      { missing: [], extra: [] },
    );
    assert.deepEqual(
      messages.filter((m) => m.envelope !== "mcp-b").map((m) => m.text),
      [],
    );
    for (const m of messages) assert.equal(m.stream, "envelope");
    assert.deepEqual(analyze(captured).problems, []);
  });

  test("flows, answers and findings are those of the wire; the panel shows them", async () => {
    assert.ok(tabId !== undefined && captured.length > 0, "the capture of the previous test");
    const engine = analyze(captured);
    assert.deepEqual(
      engine.flows.map((f) => ({ ...summary(f), via: undefined })),
      [
        {
          method: "tools/call",
          target: hostTools.secret,
          status: "complete",
          server: `postMessage:${pages.hostOrigin}`,
          via: undefined,
          elicitations: [["form", "accept", true]],
        },
        {
          method: "tools/call",
          target: hostTools.confirm,
          status: "complete",
          server: `postMessage:${pages.hostOrigin}`,
          via: undefined,
          elicitations: [["form", "decline", true]],
        },
      ],
    );
    assert.deepEqual(
      findingKeys(engine),
      findingKeys(analyze(referenceCapture({ wire: witnessed(withExtension.envelopes), server: pages.hostOrigin }))),
    );
    assert.deepEqual(
      engine.findings.filter((f) => f.rule === "form-secret-field").map((f) => f.flow),
      [engine.flows[0]!.id],
    );

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
    const view = await firefox.panel(tabId, {
      records: captured.length,
      flows: engine.flows.length,
      findings: engine.findings.length,
    });
    assert.deepEqual(view.flows, engine.flows.map(flowRow));
    const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(sorted(view.findings), sorted(engine.findings.map(findingRow)));
  });
});
