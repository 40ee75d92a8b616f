import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { startBusHost, type BusHost } from "./decode/host.ts";
import { mcpbCall, observe, type Observed } from "./drivers.ts";
import { expectedRows, findingRow, readPanel, serverCellProblems } from "./panel.ts";
import type { WireMessage } from "./peer.ts";
import { hostTools } from "./tools.ts";
import { analyze, capturedMessages, diffMessages, findingKeys, isJsonRpc, referenceCapture, summary } from "./wire.ts";

/**
 * "Decode as MCP" on an envelope the test makes up (test/hosts/decode/): a page whose real sdk 1.32.2 Client speaks
 * to a real McpServer over one WebSocket, each MCP message string-encoded at `/body/rpc` of the host's own frames,
 * with presence frames of the host's among them. No built-in adapter knows it. A person opens the panel for the
 * tab, adds a rule in its "Decode as MCP" section (URL pattern = the bus, pointer `/body/rpc`, both directions),
 * then uses the page (connect_service accepted with an API key, confirm_action declined). Then: the rule's messages
 * are the server's wire, the flows and findings are those of the wire, the panel counts what the rule matched,
 * the rule outlives the panel page and a stopped worker (storage.local), and once removed it decodes nothing more.
 */
const SECRET = "sk-hosts-bus-0123456789abcdefghijKLMN";
const ACCEPT = { fill: { Service: "weather", "API key": SECRET } };

let bus: BusHost;
let extension: ExtensionBrowser;
let plain: Browser;

interface Run {
  observed: Observed;
  wire: WireMessage[];
  text: string;
}

async function session(page: Page): Promise<Run> {
  const from = bus.wire.length;
  const observed = observe(page, [bus.origin]);
  await page.goto(bus.url);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  observed.results.push(await mcpbCall(page, hostTools.secret, ACCEPT, /bus connect: accept/));
  observed.results.push(await mcpbCall(page, hostTools.confirm, "decline", /bus confirm: decline/));
  return { observed, wire: bus.wire.slice(from), text: await page.locator("body").innerText() };
}

/** Opens the panel for the tab as a page and its "Decode as MCP" section. */
async function decodeSection(tabId: number): Promise<{ panel: Page; section: ReturnType<Page["getByRole"]> }> {
  const panel = await extension.context.newPage();
  await panel.goto(`chrome-extension://${extension.extensionId}/panel.html?tabId=${tabId}`);
  await panel.getByRole("button", { name: /^Decode as…/ }).click({ timeout: 20_000 });
  const section = panel.getByRole("region", { name: "Decode as MCP" });
  await section.waitFor({ timeout: 10_000 });
  return { panel, section };
}

let tabId: number;
let page: Page;
let ruleId: string;
let withExtension: Run;
let withoutExtension: Run;
let captured: CaptureRecord[] = [];

describe("Decode as MCP: a rule made in the panel, on an envelope no adapter knows (WebSocket, string-encoded), in Chromium", {
  timeout: 300_000,
}, () => {
  before(async () => {
    ensureBuilt();
    bus = await startBusHost();
    extension = await launchWithExtension();
    plain = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu"],
    });
    ({ page, tabId } = await extension.openTab("about:blank"));
  });

  after(async () => {
    await extension?.close();
    await plain?.close();
    await bus?.close();
  });

  test("a person adds the rule in the panel's Decode as MCP section; the worker lists it", async () => {
    const { panel, section } = await decodeSection(tabId);
    const form = section.getByRole("form", { name: "Add a decoder" });
    await form.getByLabel("URL pattern").fill(bus.bus);
    await form.getByLabel("JSON pointer").fill("/body/rpc");
    await form.getByLabel("Direction").selectOption("both");
    await form.getByLabel("Label").fill("bus frames");
    await form.getByRole("button", { name: "Add decoder" }).click();
    const rows = section.getByRole("table", { name: "Decoders" }).locator("tr[data-rule]");
    await rows.first().waitFor({ timeout: 10_000 });
    assert.equal(await rows.count(), 1);
    ruleId = (await rows.first().getAttribute("data-rule")) ?? "";
    assert.notEqual(ruleId, "");
    await panel.close();
  });

  test("the page runs the session with the extension (and the rule), and without it, the same", async () => {
    withExtension = await session(page);
    const other = await plain.newPage();
    withoutExtension = await session(other);
    await other.close();
    assert.deepEqual(withExtension.observed.results, ["bus connect: accept api_key,service", "bus confirm: decline"]);
    assert.deepEqual(withExtension.observed, withoutExtension.observed);
    assert.deepEqual(withExtension.wire, withoutExtension.wire);
    assert.equal(withExtension.text, withoutExtension.text);
  });

  test("the rule's messages are the server's wire, once each; the host's own frames are not messages", async () => {
    assert.ok(withExtension && ruleId, "the previous tests");
    const envelope = `decode:${ruleId}`;
    for (let attempt = 0; attempt < 200; attempt++) {
      captured = await extension.records(tabId);
      if (capturedMessages(captured).filter((m) => m.envelope === envelope).length >= withExtension.wire.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const messages = capturedMessages(captured);
    const decoded = messages.filter((m) => m.envelope === envelope);
    assert.deepEqual(diffMessages(withExtension.wire, decoded), { missing: [], extra: [] });
    for (const m of decoded) {
      assert.equal(m.transport, "websocket");
      assert.equal(m.url, bus.bus);
      assert.equal(m.stream, "envelope");
    }
    assert.deepEqual(
      messages.filter((m) => m.envelope !== envelope).map((m) => m.text),
      [],
      "presence frames and the rest are not messages",
    );
    assert.deepEqual(analyze(captured).problems, []);
  });

  test("flows, answers and findings are those of the wire (accept with the key, decline; form-secret-field)", () => {
    assert.ok(captured.length > 0, "the capture of the previous test");
    const engine = analyze(captured);
    const server = `websocket:${bus.bus}`;
    assert.deepEqual(
      engine.flows.map((f) => ({ ...summary(f), via: undefined })),
      [
        {
          method: "tools/call",
          target: hostTools.secret,
          status: "complete",
          server,
          via: undefined,
          elicitations: [["form", "accept", true]],
        },
        {
          method: "tools/call",
          target: hostTools.confirm,
          status: "complete",
          server,
          via: undefined,
          elicitations: [["form", "decline", true]],
        },
      ],
    );
    assert.deepEqual(
      findingKeys(engine),
      findingKeys(analyze(referenceCapture({ wire: withExtension.wire, server: bus.bus }))),
    );
    assert.deepEqual(
      engine.findings.filter((f) => f.rule === "form-secret-field").map((f) => f.flow),
      [engine.flows[0]!.id],
    );
  });

  test("the panel shows the flows and findings, the key masked, and the rule's Matched count is its messages", async () => {
    assert.ok(captured.length > 0, "the capture of the previous tests");
    const engine = analyze(await extension.records(tabId));
    assert.equal(engine.flows.length, 2);
    const view = await readPanel(extension, tabId, { flows: engine.flows.length, findings: engine.findings.length });
    assert.deepEqual(
      view.flows.map(({ server: _s, serverTitle: _t, via: _v, viaTitle: _vt, ...row }) => row),
      expectedRows(engine.flows),
    );
    assert.deepEqual(serverCellProblems(view.flows, engine.flows), []);
    assert.ok(
      view.flows.every((row) => row.via?.includes("bus frames")),
      "the Via cell names the rule by its label",
    );
    const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(sorted(view.findings), sorted(engine.findings.map(findingRow)));
    assert.ok(
      view.details.some((text) => text.includes("api_key")),
      "the detail shows the form and the answer",
    );
    assert.ok(
      ![view.text, ...view.details].some((text) => text.includes(SECRET)),
      "the typed API key is masked in the panel by default",
    );

    const { panel, section } = await decodeSection(tabId);
    const matched = section.locator(`tr[data-rule="${ruleId}"] td[data-col="matched"]`);
    const decoded = capturedMessages(captured).filter(
      (m) => m.envelope === `decode:${ruleId}` && isJsonRpc(m.message),
    ).length;
    await panel.waitForFunction((el) => el !== null, await matched.elementHandle({ timeout: 10_000 }));
    assert.equal((await matched.textContent())?.trim(), String(decoded));
    await panel.close();
  });

  test("the rule outlives the panel page and the worker; removed, it decodes nothing more", async () => {
    assert.ok(ruleId, "the rule of the first test");
    // The service worker stopped (as Chrome does when idle): what it kept in memory is gone, storage.local is not.
    await extension.stopWorker();
    const { panel, section } = await decodeSection(tabId);
    // A fresh panel page lists the rule: the worker keeps it (storage.local), not the page.
    await section
      .locator(`tr[data-rule="${ruleId}"]`)
      .waitFor({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        throw new Error(`the Decode as MCP section of a fresh panel page shows:\n${await section.innerText()}`, {
          cause: error,
        });
      });
    await section.getByRole("button", { name: `Remove decoder ${ruleId}` }).click();
    await section.getByText("No decoders.").waitFor({ timeout: 10_000 });
    await panel.close();

    // The page again: a new socket, the same frames; without the rule the tap records none of them as MCP.
    const from = bus.wire.length;
    const reloaded = Date.now();
    await page.reload();
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.locator(`button[data-tool="${hostTools.confirm}"]`).waitFor({ timeout: 30_000 });
    assert.ok(bus.wire.length - from >= 4, "the page spoke MCP over the bus again");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const decodedSince = capturedMessages(await extension.records(tabId)).filter(
      (m) => m.time >= reloaded && m.envelope?.startsWith("decode:"),
    );
    assert.deepEqual(
      decodedSince.map((m) => m.text),
      [],
      "nothing decoded after the rule was removed",
    );
  });
});
