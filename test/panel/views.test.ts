import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Page } from "playwright-core";
import { startDemoHost, type DemoHost } from "../../demo/host.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { har as harOf, harEntry, rpc, sse } from "../capture/harFixture.ts";
import { demo, SECRETS, secretCapture, XSS, xssCapture } from "./corpus.ts";

/**
 * The panel's views in Chromium through the extension (panel.html?tabId=N): live flows from the demo host,
 * every view, keyboard use, both themes, HAR and JSONL import, export then import, redaction, and an XSS corpus
 * rendered inert. Screenshots go to test-artifacts/ (gitignored). One browser for the whole file.
 */
const ARTIFACTS = "test-artifacts";
let host: DemoHost;
let browser: ExtensionBrowser;

before(async () => {
  ensureBuilt();
  await mkdir(ARTIFACTS, { recursive: true });
  host = await startDemoHost({ port: 0 });
  browser = await launchWithExtension();
});
after(async () => {
  await browser?.close();
  await host?.close();
});

interface Panel {
  page: Page;
  errors: string[];
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

async function openPanel(query: string, colorScheme: "light" | "dark" = "light"): Promise<Panel> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("dialog", (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme });
  await page.goto(`chrome-extension://${browser.extensionId}/panel.html${query}`);
  return {
    page,
    errors,
    shot: async (name) => void (await page.screenshot({ path: `${ARTIFACTS}/panel-${name}.png` })),
    close: () => page.close(),
  };
}

const flowRows = (page: Page) => page.getByRole("table", { name: "Flows" }).getByRole("row", { name: /^flow / });
const flowRow = (page: Page, id: string) => page.getByRole("row", { name: `flow ${id}`, exact: true });
/** The panel's rows by column (`data-col`). */
const cells = (page: Page, selector: string, columns: string[]) =>
  page.$$eval(
    selector,
    (rows, columns) =>
      rows.map((row) => columns.map((c) => row.querySelector(`td[data-col="${c}"]`)?.textContent ?? "")),
    columns,
  );
const FLOW_COLS = ["id", "kind", "era", "method", "target", "status", "rounds"];
const FINDING_COLS = ["severity", "rule", "message", "flow"];
const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();

/** Imports a file through the toolbar's file input and waits for the import to finish. */
async function importInto(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel("Import HAR or JSONL file")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  await page.getByRole("heading", { level: 1, name: `MCP elicitation — ${name}` }).waitFor();
  await page.waitForFunction(
    () =>
      performance.getEntriesByName("mcp:import-done").length > 0 &&
      !document.querySelector('[role="status"].source')?.textContent?.includes("importing"),
  );
  await page.evaluate(() => performance.clearMarks("mcp:import-done"));
}

/** What the engine (and so `mcp-elicit lint`) says of a capture file, as the panel shows it. */
function expected(text: string, name: string) {
  const { records } = importCapture(text, name);
  const result = analyze(records);
  return {
    flows: result.flows.map((f) => [
      f.id,
      f.kind,
      f.revision ?? "unknown",
      f.method,
      f.target ?? "",
      f.status,
      String(f.rounds.length),
    ]),
    findings: sorted(result.findings.map((f) => [f.severity, f.rule, f.message, f.flow ?? ""])),
  };
}

async function shown(page: Page) {
  return {
    flows: await cells(page, "tr[data-flow]", FLOW_COLS),
    findings: sorted(await cells(page, "tr[data-finding]", FINDING_COLS)),
  };
}

async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return readFile((await file.path())!, "utf8");
}

describe("panel views in Chromium", { timeout: 300_000 }, () => {
  let tabId = -1;
  let demoPage: Page;

  test("live flows from the demo host: list, timeline, story, messages, form, rounds, URL, findings; selection kept while records stream in", async () => {
    const tab = await browser.openTab(host.url);
    demoPage = tab.page;
    tabId = tab.tabId;
    const panel = await openPanel(`?tabId=${tabId}`);
    const { page } = panel;
    await page.getByRole("heading", { name: "Flows (0)" }).waitFor();
    await page.getByRole("note", { name: "coverage" }).waitFor();
    assert.match(await page.getByRole("note", { name: "coverage" }).innerText(), /workers/);
    assert.match(await page.locator(".flows-pane").innerText(), /No elicitation flows yet/);
    await panel.shot("empty");

    const run = async (scenario: string, answer: () => Promise<void>) => {
      await demoPage.getByRole("button", { name: `Run: ${scenario}` }).click();
      await answer();
      await demoPage.waitForFunction(
        (s) =>
          !["", "running…"].includes(document.querySelector(`output[aria-label="Result: ${s}"]`)?.textContent ?? ""),
        scenario,
      );
    };
    const click = (name: string) => demoPage.getByRole("button", { name, exact: true }).first().click();

    await run("confirm (2025-11-25)", async () => {
      await demoPage.getByRole("checkbox").first().check();
      await click("Accept");
    });
    await flowRow(page, "flow-1").click();
    assert.equal(await flowRow(page, "flow-1").getAttribute("aria-selected"), "true");

    // A flow waiting on the user is pending and grows on the timeline while the selection stays put.
    await demoPage.getByRole("button", { name: "Run: trip (2026-07-28)" }).click();
    await flowRow(page, "flow-2").waitFor();
    await page.locator('[data-span="flow-2"]').waitFor();
    assert.equal(await page.locator('tr[data-flow="flow-2"] td[data-col="status"]').textContent(), "pending");
    const width = () => page.locator('[data-span="flow-2"]').evaluate((el) => el.getBoundingClientRect().width);
    const w1 = await width();
    await page.waitForTimeout(1200);
    assert.ok((await width()) > w1, "a pending flow grows");
    await demoPage.getByRole("textbox").first().fill("Lisbon");
    await click("Accept");
    await demoPage.getByRole("spinbutton").first().fill("3");
    await click("Accept");
    await demoPage.waitForFunction(() =>
      document.querySelector('output[aria-label="Result: trip (2026-07-28)"]')?.textContent?.includes("Lisbon"),
    );
    await run("sign-in (2026-07-28)", () => click("Accept"));
    await run("register (2025-11-25)", () => click("Decline"));
    await page.getByRole("heading", { name: "Flows (4)" }).waitFor();
    assert.equal(
      await flowRow(page, "flow-1").getAttribute("aria-selected"),
      "true",
      "the selection survived the stream",
    );
    assert.match(await page.getByRole("heading", { level: 3 }).innerText(), /flow-1 · tools\/call confirm_action/);

    // The panel shows what the worker's engine (and the CLI) says of the records it holds.
    const records = await browser.records(tabId);
    const cli = expected(exportJsonl(records), "live.jsonl");
    await page.getByRole("heading", { name: `Findings (${cli.findings.length})` }).waitFor();
    assert.deepEqual(await shown(page), cli);
    assert.equal(await page.getByLabel("record count").textContent(), `${records.length} records`);
    await page.locator('[data-col="user"]').first().waitFor();
    assert.match(
      (await cells(page, 'tr[data-flow="flow-2"]', ["modes", "user", "serverTime", "server"]))[0]!.join("|"),
      /^form\|[\d.]+ m?s\|[\d.]+ m?s\|127\.0\.0\.1:\d+\/modern\/mcp$/,
    );

    // Story: the whole flow in words.
    await flowRow(page, "flow-2").click();
    const story = await page.getByRole("tabpanel").innerText();
    assert.match(story, /Round 1/);
    assert.match(story, /Where to\?/);
    assert.match(story, /the user chose accept/);
    assert.match(story, /Round 3 .*the client sent the request/);
    await panel.shot("story");

    // Messages: in order, direction, transport, stream kind, pretty JSON with copy.
    await page.getByRole("tab", { name: "Messages" }).click();
    const first = page.getByRole("tabpanel").locator("li.message").first();
    assert.match(await first.locator(".message-head").innerText(), /→ c2s[\s\S]*http[\s\S]*body[\s\S]*tools\/call/);
    const json = await page.getByRole("tabpanel").locator("pre").first().textContent();
    assert.equal(json, JSON.stringify(JSON.parse(json!), null, 2), "pretty-printed JSON");
    await browser.context
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: `chrome-extension://${browser.extensionId}` })
      .catch(() => undefined);
    await page
      .getByRole("tabpanel")
      .getByRole("button", { name: /^Copy message/ })
      .first()
      .click();
    await page
      .getByRole("tabpanel")
      .getByRole("button", { name: /^Copy message/ })
      .first()
      .filter({ hasText: "Copied" })
      .waitFor();
    await panel.shot("messages");

    // Form preview: the schema as a client shows it, with the answer filled in.
    await page.getByRole("tab", { name: "Form" }).click();
    const city = page.getByRole("form", { name: "form preview city" });
    assert.equal(await city.getByRole("textbox").inputValue(), "Lisbon");
    assert.equal(await city.getByRole("textbox").getAttribute("readonly"), "");
    assert.match(await page.getByRole("form", { name: "form preview nights" }).innerText(), /minimum 1 · maximum 30/);
    await panel.shot("form");

    // Round diff: the retries repeat the request, the state is echoed exactly.
    await page.getByRole("tab", { name: "Rounds" }).click();
    const rounds = await page.getByRole("tabpanel").innerText();
    assert.match(rounds, /Round 1 → 2[\s\S]*requestState echoed exactly[\s\S]*Nothing else changed/);
    await panel.shot("rounds");

    // URL mode: text with the domain highlighted, never a link.
    await flowRow(page, "flow-3").click();
    await page.getByRole("tab", { name: "URL" }).click();
    const url = page.getByLabel("URL (text, not a link)");
    assert.match((await url.textContent())!, /^http:\/\/127\.0\.0\.1:\d+\/modern\/consent\//);
    assert.equal(await page.getByLabel("domain").first().textContent(), "127.0.0.1");
    assert.equal(await page.locator(".detail a").count(), 0);
    await panel.shot("url");

    // Timeline: clicking a span selects its flow; zoom and fit.
    await page.locator('[data-span="flow-4"]').click();
    assert.equal(await flowRow(page, "flow-4").getAttribute("aria-selected"), "true");
    await page.getByRole("button", { name: "Zoom in" }).click();
    assert.equal(await page.getByRole("button", { name: "Fit" }).getAttribute("aria-pressed"), "false");
    await page.getByRole("button", { name: "Fit" }).click();

    // Findings: grouped by rule with counts; a finding jumps to its evidence, its JSON path highlighted.
    const findings = page.getByRole("table", { name: "Findings" });
    await findings.getByRole("row", { name: /^rule adv-message-quality, 1 finding$/ }).waitFor();
    await findings
      .getByRole("row", { name: /^finding / })
      .first()
      .click();
    await page.getByRole("tab", { name: "Messages", selected: true }).waitFor();
    const mark = page.locator(".detail mark");
    await mark.waitFor();
    assert.match((await mark.getAttribute("aria-label")) ?? "", /^evidence at \//);
    const detail = page.getByLabel(/^details of finding /);
    assert.match(await detail.innerText(), /Spec\s+https:\/\/modelcontextprotocol\.io\/specification\//);
    assert.equal(await detail.getByRole("link").getAttribute("rel"), "noreferrer");
    await panel.shot("findings");
    // Severity filter.
    await page.getByRole("button", { name: /^Info \(/ }).click();
    assert.equal(await findings.count(), 0);
    await page.getByRole("button", { name: /^Info \(/ }).click();
    // Record / pause: the worker stops keeping the tab's records, and says so.
    const record = page.getByRole("button", { name: "Record", exact: true });
    assert.equal(await record.getAttribute("aria-pressed"), "true");
    await record.click();
    await page.getByRole("status", { name: "paused" }).waitFor();
    assert.equal(await record.getAttribute("aria-pressed"), "false");
    await record.click();
    await page.getByRole("status", { name: "paused" }).waitFor({ state: "detached" });
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("keyboard: / focuses the filter, arrows move, Enter opens the detail, tabs by arrows, Escape closes", async () => {
    const panel = await openPanel(`?tabId=${tabId}`);
    const { page } = panel;
    await flowRows(page).first().waitFor();
    await page.locator("body").press("/");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Filter flows");
    await page.keyboard.type("era:2026-07-28");
    await page.getByRole("heading", { name: "Flows (2 of 4)" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Flows (4)" }).waitFor();
    await page.keyboard.press("Escape"); // an empty filter hands the keyboard to the list
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "flow flow-1");
    await page.keyboard.press("ArrowDown"); // selects the row with the keyboard on it
    await page.keyboard.press("ArrowDown");
    assert.equal(await flowRow(page, "flow-2").getAttribute("aria-selected"), "true");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "flow flow-2");
    await page.keyboard.press("End");
    assert.equal(await flowRow(page, "flow-4").getAttribute("aria-selected"), "true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "tab");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.getByRole("tab", { selected: true }).textContent(), "Messages");
    await page.keyboard.press("End");
    assert.equal(await page.getByRole("tab", { selected: true }).textContent(), "URL");
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("tr[data-flow][aria-selected=true]").count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".flows") !== null), true);
    await page.keyboard.press("Control+f");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Filter flows");
    // The findings list: arrows over groups and findings, Enter jumps to the evidence.
    await page.getByRole("table", { name: "Findings" }).getByRole("row").nth(1).focus();
    await page.keyboard.press("ArrowDown"); // the first group
    await page.keyboard.press("ArrowDown"); // its first finding
    await page.keyboard.press("Enter");
    await page.locator(".detail mark").waitFor();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowLeft");
    assert.equal(
      await page.getByRole("row", { name: /^rule adv-message-quality/ }).getAttribute("aria-expanded"),
      "false",
    );
    await page.keyboard.press("ArrowRight");
    assert.equal(
      await page.getByRole("row", { name: /^rule adv-message-quality/ }).getAttribute("aria-expanded"),
      "true",
    );
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("both themes follow the browser (prefers-color-scheme) when outside DevTools", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const panel = await openPanel(`?tabId=${tabId}`, scheme);
      await flowRows(panel.page).first().waitFor();
      await flowRow(panel.page, "flow-2").click();
      await panel.page.getByRole("tab", { name: "Form" }).click();
      assert.equal(await panel.page.evaluate(() => document.documentElement.dataset.theme), scheme);
      const bg = await panel.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, scheme === "dark" ? "rgb(32, 33, 36)" : "rgb(255, 255, 255)");
      await panel.shot(`theme-${scheme}`);
      assert.deepEqual(panel.errors, []);
      await panel.close();
    }
  });

  test("HAR and JSONL import run the same engine: the CLI's flows and findings", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    assert.match(await page.locator(".flows-pane").innerText(), /No tab to inspect[\s\S]*import/i);
    const har = exportHar(demo);
    await importInto(page, "demo.har", har);
    assert.deepEqual(await shown(page), expected(har, "demo.har"));
    await panel.shot("import-har");
    const jsonl = exportJsonl(demo);
    await importInto(page, "demo.jsonl", jsonl);
    assert.deepEqual(await shown(page), expected(jsonl, "demo.jsonl"));
    assert.equal(await page.getByLabel("record count").textContent(), `${demo.length} records`);
    // The free-text filter searches the imported payloads.
    await page.getByLabel("Filter flows").fill("lisbon");
    await page.getByRole("heading", { name: /^Flows \(\d+ of 19\)$/ }).waitFor();
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("a HAR where the page fetched a sign-in URL before consenting: the finding's evidence is that request, among the flow's messages", async () => {
    const headers = {
      "Content-Type": "application/json",
      "Mcp-Session-Id": "s1",
      "MCP-Protocol-Version": "2025-11-25",
    };
    const ask = rpc({
      jsonrpc: "2.0",
      id: 5,
      method: "elicitation/create",
      params: {
        mode: "url",
        elicitationId: "e1",
        url: "https://mcp.example.com/ui/set_api_key?s=1",
        message: "Set your API key at the provider",
      },
    });
    const har = harOf([
      harEntry({
        url: "https://mcp.example.com/mcp",
        started: "2026-01-01T00:00:00.000Z",
        body: rpc({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: { url: {} } },
            clientInfo: { name: "t", version: "1" },
          },
        }),
        mimeType: "application/json",
        text: rpc({
          jsonrpc: "2.0",
          id: 0,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
        }),
        responseHeaders: { "Content-Type": "application/json", "Mcp-Session-Id": "s1" },
      }),
      harEntry({
        url: "https://mcp.example.com/mcp",
        started: "2026-01-01T00:00:00.500Z",
        headers,
        body: rpc({ jsonrpc: "2.0", method: "notifications/initialized" }),
        status: 202,
        mimeType: "",
        text: "",
      }),
      harEntry({
        url: "https://mcp.example.com/mcp",
        started: "2026-01-01T00:00:01.000Z",
        headers,
        body: rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "set_key", arguments: {} } }),
        mimeType: "text/event-stream",
        text: sse(`id: a_0\ndata: ${ask}`),
        wait: 10,
        receive: 100,
      }),
      harEntry({
        method: "GET",
        url: "https://mcp.example.com/ui/set_api_key?s=1",
        started: "2026-01-01T00:00:01.500Z",
        mimeType: "text/html",
        text: "<p>set key",
      }),
      harEntry({
        url: "https://mcp.example.com/mcp",
        started: "2026-01-01T00:00:03.000Z",
        headers,
        body: rpc({ jsonrpc: "2.0", id: 5, result: { action: "accept" } }),
        status: 202,
        mimeType: "",
        text: "",
      }),
    ]);
    const panel = await openPanel("");
    const { page } = panel;
    await importInto(page, "prefetch.har", har);
    assert.deepEqual(await shown(page), expected(har, "prefetch.har"));
    const findings = page.getByRole("table", { name: "Findings" });
    await findings.getByRole("row", { name: /^rule url-no-prefetch, 1 finding$/ }).waitFor();
    await findings.locator("tr[data-finding]", { hasText: "url-no-prefetch" }).click();
    await page.getByRole("tab", { name: "Messages", selected: true }).waitFor();
    const evidence = page.locator(".messages li.evidence");
    await evidence.waitFor();
    assert.match(
      await evidence.innerText(),
      /page request \(not MCP\): GET https:\/\/mcp\.example\.com\/ui\/set_api_key/,
    );
    assert.doesNotMatch(await evidence.innerText(), /s=1/, "no query string is kept");
    await panel.shot("prefetch-evidence");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("a HAR recorded by Chromium (demo host traffic) imports and shows what mcp-elicit lint shows", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "mcp-panel-har-"));
    const harPath = join(scratch, "chromium.har");
    const plain = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const context = await plain.newContext({ recordHar: { path: harPath, content: "embed" } });
      const page = await context.newPage();
      await page.goto(host.url);
      const done = (s: string) =>
        page.waitForFunction(
          (s) =>
            !["", "running…"].includes(document.querySelector(`output[aria-label="Result: ${s}"]`)?.textContent ?? ""),
          s,
        );
      await page.getByRole("button", { name: "Run: confirm (2025-11-25)" }).click();
      await page.getByRole("checkbox").first().check();
      await page.getByRole("button", { name: "Accept", exact: true }).click();
      await done("confirm (2025-11-25)");
      await page.getByRole("button", { name: "Run: confirm (2026-07-28)" }).click();
      await page.getByRole("button", { name: "Decline", exact: true }).click();
      await done("confirm (2026-07-28)");
      await context.close(); // writes the HAR
    } finally {
      await plain.close();
    }
    const har = await readFile(harPath, "utf8");
    await rm(scratch, { recursive: true, force: true });
    const want = expected(har, "chromium.har");
    assert.ok(want.flows.length >= 2, `the HAR holds the flows (${want.flows.length})`);
    const panel = await openPanel("");
    await importInto(panel.page, "chromium.har", har);
    assert.deepEqual(await shown(panel.page), want);
    await panel.shot("import-chromium-har");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("export then import gives the same flows and findings; the redacted export holds none of the planted secrets", async () => {
    const live = await openPanel(`?tabId=${tabId}`);
    await flowRows(live.page).first().waitFor();
    const before = await shown(live.page);
    await live.page.getByLabel("unredacted").check();
    const jsonl = await download(live.page, "Export JSONL");
    const har = await download(live.page, "Export HAR");
    await live.close();
    const panel = await openPanel("");
    await importInto(panel.page, "export.jsonl", jsonl);
    assert.deepEqual(await shown(panel.page), before);
    await importInto(panel.page, "export.har", har);
    assert.deepEqual((await shown(panel.page)).flows, before.flows);
    assert.deepEqual((await shown(panel.page)).findings, before.findings);

    const planted = exportJsonl(secretCapture());
    for (const secret of Object.values(SECRETS)) assert.ok(planted.includes(secret));
    await importInto(panel.page, "secrets.jsonl", planted);
    const shownFlows = (await shown(panel.page)).flows;
    for (const button of ["Export JSONL", "Export HAR"]) {
      const redacted = await download(panel.page, button);
      for (const [name, secret] of Object.entries(SECRETS))
        assert.ok(!redacted.includes(secret), `${button} (redacted) leaks the ${name}`);
      // Redacted, the capture still tells the same flows.
      await importInto(panel.page, button.endsWith("HAR") ? "redacted.har" : "redacted.jsonl", redacted);
      assert.deepEqual((await shown(panel.page)).flows, shownFlows);
      await importInto(panel.page, "secrets.jsonl", planted);
    }
    await panel.page.getByLabel("unredacted").check();
    const raw = await download(panel.page, "Export JSONL");
    for (const secret of Object.values(SECRETS))
      assert.ok(raw.includes(secret), "the unredacted export keeps everything");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("an XSS corpus in payloads, schema titles, options, answers, URLs and names is rendered inert, as text", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    await importInto(page, "xss.jsonl", exportJsonl(xssCapture()));
    const ids = (await cells(page, "tr[data-flow]", ["id"])).map(([id]) => id!);
    assert.equal(ids.length, 19);
    // Every view of every flow, and every finding.
    for (const id of ids) {
      await flowRow(page, id).click();
      for (const name of ["Story", "Messages", "Form", "Rounds", "URL"]) {
        const tab = page.getByRole("tab", { name, exact: true });
        if ((await tab.count()) > 0) await tab.click();
      }
    }
    const findingRows = page.getByRole("table", { name: "Findings" }).getByRole("row", { name: /^finding / });
    for (let i = 0; i < (await findingRows.count()); i++) await findingRows.nth(i).click();
    await flowRow(page, "flow-4").click();
    await page.getByRole("tab", { name: "Form" }).click();
    await panel.shot("xss-form");
    const form = (await page.getByRole("tabpanel").textContent())!;
    assert.ok(
      form.includes("<script>window.__xss='title'</script>E\\u202email"),
      "a title is text, its bidi control visible",
    );
    assert.ok(form.includes("<img src=x onerror=window.__xss='option'>Pro"), "an option is text");
    await flowRow(page, "flow-5").click();
    await page.getByRole("tab", { name: "URL" }).click();
    assert.equal(await page.getByLabel("URL (text, not a link)").textContent(), XSS.url.replace("\u202E", "\\u202e"));
    assert.match(await page.getByLabel("URL warnings").innerText(), /javascript: is not a web page/);
    await panel.shot("xss-url");
    await flowRow(page, "flow-15").click();
    await page.getByRole("tab", { name: "URL" }).click();
    assert.match(await page.getByRole("tabpanel").innerText(), /аррӏе\.com/);

    const dom = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: unknown }).__xss,
      imgs: document.querySelectorAll("img, iframe, object, embed").length,
      scripts: [...document.scripts].map((s) => s.getAttribute("src")),
      jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      links: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
      bidi: /[\u202A-\u202E\u2066-\u2069\u200E\u200F]/.test(document.body.innerText),
      handlers: [...document.querySelectorAll("*")].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith("on")),
      ).length,
    }));
    assert.equal(dom.xss, undefined, "no payload ran");
    assert.equal(dom.imgs, 0, "no img, iframe, object or embed element");
    // The extension's own scripts only: webextension-polyfill's file (loaded first), then the panel.
    assert.deepEqual(dom.scripts, ["browser-polyfill.min.js", "panel.js"]);
    assert.equal(dom.jsLinks, 0);
    assert.ok(
      dom.links.every((href) => href!.startsWith("https://modelcontextprotocol.io/")),
      dom.links.join(", "),
    );
    assert.equal(dom.bidi, false, "no raw bidi control reaches the screen");
    assert.equal(dom.handlers, 0, "no inline event handler attribute");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });
});
