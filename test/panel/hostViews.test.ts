import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import {
  captureBuilder,
  error,
  form,
  legacySession,
  legacyToolCall,
  request,
  result,
  streamCall,
} from "../helpers/capture.ts";
import { SECRETS, secretCapture } from "./corpus.ts";
import { agentHar, hostsCapture } from "./hostCorpus.ts";

/**
 * Issue 9's panel views in Chromium through the extension (panel.html, no DevTools): the Outcome column, masking
 * with a per-flow reveal, the Decode as MCP section. Screenshots go to test-artifacts/panel-*.png.
 */
const ARTIFACTS = "test-artifacts";
let browser: ExtensionBrowser;
let agent: { url: string; server: Server };

before(async () => {
  ensureBuilt();
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchWithExtension();
  agent = await startAgentHost();
});
after(async () => {
  await browser?.close();
  agent?.server.close();
});

/**
 * A host with an envelope no built-in adapter knows: the page POSTs `{"v": 1, "payload": "<JSON-RPC as a string>"}`
 * to /agent/rpc and the server answers the same way; a tools/call is answered with an elicitation/create, the
 * page's accept with the tool's result. String-encoded, so the generic fallback (a member holding a JSON-RPC
 * object) does not take it: only a decode rule (URL /agent/rpc, pointer /payload) makes MCP of it.
 */
async function startAgentHost(): Promise<{ url: string; server: Server }> {
  const page = `<!doctype html><meta charset="utf-8"><title>agent host</title><button id="run">Run</button><output id="out" aria-label="result"></output>
<script>
const post = async (m) => JSON.parse((await (await fetch("/agent/rpc", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ v: 1, payload: JSON.stringify(m) }) })).json()).payload);
document.getElementById("run").onclick = async () => {
  await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "agent", version: "1" } } });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  const ask = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } });
  const done = await post({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { ok: true } } });
  document.getElementById("out").textContent = done.result.content[0].text;
};
</script>`;
  const server = createServer((req, res) => {
    if (req.method === "GET") return void res.writeHead(200, { "content-type": "text/html" }).end(page);
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const m = JSON.parse((JSON.parse(body) as { payload: string }).payload) as { id?: number; method?: string };
      const reply =
        m.id === undefined
          ? undefined // a notification: the host answers {}
          : m.method === "initialize"
            ? {
                jsonrpc: "2.0",
                id: m.id,
                result: {
                  protocolVersion: "2025-11-25",
                  capabilities: { tools: {} },
                  serverInfo: { name: "agent", version: "1" },
                },
              }
            : m.method === "tools/call"
              ? {
                  jsonrpc: "2.0",
                  id: 7,
                  method: "elicitation/create",
                  params: {
                    mode: "form",
                    message: "Deploy to production now?",
                    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
                  },
                }
              : { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "deployed" }] } };
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ v: 1, payload: JSON.stringify(reply ?? {}) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

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

const cell = (page: Page, flow: string, col: string) =>
  page.locator(`tr[data-flow="${flow}"] td[data-col="${col}"]`).textContent();

/** Three flows: accepted, declined, and one a use-mcp-like client answers -32601 after 800 ms; a fourth left open. */
function outcomesCapture(): string {
  const b = captureBuilder();
  const h = legacySession(b);
  const ask = (id: number, name: string, answer: unknown) => {
    const x = streamCall(b, legacyToolCall(id, name), h);
    b.sse(
      x,
      request(
        id * 10,
        "elicitation/create",
        form({ api_key: { type: "string", title: "API key" } }, "Paste your provider API key"),
      ),
    );
    b.wait(800);
    if (answer === undefined) return;
    b.accepted(answer, h);
    b.sse(x, result(id, { content: [{ type: "text", text: "done" }] }));
    b.end(x);
  };
  ask(1, "accepted", result(10, { action: "accept", content: { api_key: "sk-proj-abcdefghijklmnopqrstuvwx" } }));
  ask(2, "declined", result(20, { action: "decline" }));
  ask(3, "use_mcp", error(30, -32601, "Method not found"));
  ask(4, "open", undefined);
  return exportJsonl(b.records);
}

describe("issue 9 panel views in Chromium", { timeout: 240_000 }, () => {
  test("Outcome column: accept, decline, the client's error code (no user time), waiting; the story tells the error", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    await importInto(page, "outcomes.jsonl", outcomesCapture());
    assert.deepEqual(
      await page.$$eval("tr[data-flow]", (rows) =>
        rows.map((r) => [
          r.querySelector('[data-col="target"]')!.textContent,
          r.querySelector('[data-col="outcome"]')!.textContent,
        ]),
      ),
      [
        ["accepted", "accept"],
        ["declined", "decline"],
        ["use_mcp", "error -32601"],
        ["open", "waiting"],
      ],
    );
    assert.equal(
      await page.getByRole("columnheader", { name: "Via" }).count(),
      0,
      "no Via column for a page that talks to its server directly",
    );
    assert.equal(await cell(page, "flow-3", "user"), "0 ms", "an error answer is not time on the user");
    assert.match((await cell(page, "flow-1", "user"))!, /^[\d.]+ (ms|s)$/);
    assert.notEqual(await cell(page, "flow-1", "user"), "0 ms");
    await page.getByRole("row", { name: "flow flow-3", exact: true }).click();
    assert.match(
      await page.getByRole("tabpanel").innerText(),
      /the client answered with error -32601 \(“Method not found”\) instead of asking the user/,
    );
    await page.getByRole("tab", { name: "Form" }).click();
    assert.equal(await page.getByLabel("answer").textContent(), "error -32601");
    await panel.shot("outcomes");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("masking: secret answers and credentials are [REDACTED] in story, form, messages and findings by default; Reveal values shows one flow as captured", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    await importInto(page, "secrets.jsonl", exportJsonl(secretCapture()));
    const leaks = async () => {
      const text = await page.locator(".app").innerText();
      const values = await page.$$eval("input, select", (els) =>
        els.map((e) => (e as HTMLInputElement).value).join("\n"),
      );
      return Object.entries(SECRETS)
        .filter(([, s]) => text.includes(s) || values.includes(s))
        .map(([name]) => name);
    };
    const ids = await page.$$eval("tr[data-flow]", (rows) => rows.map((r) => r.getAttribute("data-flow")!));
    for (const id of ids) {
      await page.getByRole("row", { name: `flow ${id}`, exact: true }).click();
      for (const name of ["Story", "Messages", "Form", "Rounds", "URL"]) {
        const tab = page.getByRole("tab", { name, exact: true });
        if ((await tab.count()) === 0) continue;
        await tab.click();
        assert.deepEqual(await leaks(), [], `${id} ${name}`);
      }
    }
    const register = await page.$$eval(
      "tr[data-flow]",
      (rows) =>
        rows
          .find((r) => r.querySelector('[data-col="target"]')!.textContent === "register_user")!
          .getAttribute("data-flow")!,
    );
    await page.getByRole("row", { name: `flow ${register}`, exact: true }).click();
    await page.getByRole("tab", { name: "Form" }).click();
    const password = page.locator('[data-field="password"] input');
    assert.equal(await password.inputValue(), "[REDACTED]");
    assert.equal(
      await page.locator('[data-field="email"] input').inputValue(),
      "ada@example.com",
      "what is not secret is shown",
    );
    await panel.shot("masked-form");
    const reveal = page.getByRole("button", { name: "Reveal values" });
    assert.equal(await reveal.getAttribute("aria-pressed"), "false");
    await reveal.focus();
    await page.keyboard.press("Enter");
    assert.equal(await password.inputValue(), SECRETS.password);
    assert.equal(await page.getByRole("button", { name: "Mask values" }).getAttribute("aria-pressed"), "true");
    await page.getByRole("tab", { name: "Messages" }).click();
    assert.ok((await page.getByRole("tabpanel").innerText()).includes(SECRETS.password));
    await panel.shot("revealed-messages");
    // Only that flow: the others stay masked.
    for (const id of ids.filter((i) => i !== register)) {
      await page.getByRole("row", { name: `flow ${id}`, exact: true }).click();
      await page.getByRole("tab", { name: "Messages" }).click();
      assert.deepEqual(await leaks(), [], id);
    }
    await page.getByRole("row", { name: `flow ${register}`, exact: true }).click();
    await page.getByRole("button", { name: "Mask values" }).click();
    assert.deepEqual(await leaks(), []);
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("servers: the upstream with the backend beside it, one timeline lane per upstream, server: filters; records say what carried them", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    await importInto(page, "hosts.jsonl", exportJsonl(hostsCapture()));
    const rows = await page.$$eval("tr[data-flow]", (rows) =>
      rows.map((r) => ["server", "via", "outcome"].map((c) => r.querySelector(`[data-col="${c}"]`)!.textContent)),
    );
    assert.deepEqual(rows, [
      ["127.0.0.1:4001/mcp", "MCP Inspector backend at 127.0.0.1:6274/api/mcp", "accept"],
      ["127.0.0.1:4002/mcp", "MCP Inspector backend at 127.0.0.1:6274/api/mcp", "accept"],
      ["127.0.0.1:5173", "MCP-B postMessage", "cancel"],
    ]);
    assert.equal(await page.getByRole("columnheader", { name: "Via" }).count(), 1);
    assert.deepEqual(await page.locator(".tl-lane-label").allTextContents(), [
      "…7.0.0.1:4001/mcp",
      "…7.0.0.1:4002/mcp",
      "127.0.0.1:5173",
    ]);
    assert.match(
      (await page.locator(".tl-lane-label").first().getAttribute("title"))!,
      /^http:\/\/127\.0\.0\.1:4001\/mcp\nvia MCP Inspector backend/,
    );
    await page.getByRole("row", { name: "flow flow-2", exact: true }).click();
    assert.equal(await page.locator(".detail-head").getByLabel("server").textContent(), "127.0.0.1:4002/mcp");
    assert.equal(
      await page.locator(".detail-head").getByLabel("via").textContent(),
      "via MCP Inspector backend at 127.0.0.1:6274/api/mcp",
    );
    assert.match(
      await page.getByRole("tabpanel").innerText(),
      /on http:\/\/127\.0\.0\.1:4002\/mcp \(via MCP Inspector backend at 127\.0\.0\.1:6274\/api\/mcp\)/,
    );
    await page.getByRole("tab", { name: "Messages" }).click();
    const heads = await page.locator(".message-head").allInnerTexts();
    assert.ok(
      heads.length > 0 && heads.every((h) => /via MCP Inspector backend/.test(h) && /envelope/.test(h)),
      heads.join("\n"),
    );
    await panel.shot("servers");
    await page.getByLabel("Filter flows").fill("server:4002");
    await page.getByRole("heading", { name: "Flows (1 of 3)" }).waitFor();
    await page.getByLabel("Filter flows").fill("server:6274");
    await page.getByRole("heading", { name: "Flows (2 of 3)" }).waitFor();
    await page.getByLabel("Filter flows").fill("");
    await page.getByRole("row", { name: "flow flow-3", exact: true }).click();
    assert.equal(await page.locator(".detail-head").getByLabel("via").textContent(), "via MCP-B postMessage");
    // Docked to the side: the timeline's lanes name the servers; Server and Via make room for outcome and timings.
    await page.setViewportSize({ width: 760, height: 900 });
    assert.equal(await page.locator('td[data-col="via"]').first().isVisible(), false);
    assert.equal(await page.locator('td[data-col="outcome"]').first().isVisible(), true);
    await panel.shot("servers-narrow");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("Decode as…: a rule added in the panel is kept by the worker, the tap decodes the page's envelope from then on, the rule counts its matches and is removed", async () => {
    const tab = await browser.openTab(agent.url);
    const panel = await openPanel(`?tabId=${tab.tabId}`);
    const { page } = panel;
    await page.getByRole("heading", { name: "Flows (0)" }).waitFor();
    // Before any rule the envelope is nobody's MCP: no flow.
    await tab.page.getByRole("button", { name: "Run" }).click();
    await tab.page.getByLabel("result").filter({ hasText: "deployed" }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByRole("heading", { name: "Flows (0)" }).count(), 1);
    await page.getByRole("button", { name: /^Decode as…/ }).click();
    const section = page.getByRole("region", { name: "Decode as MCP" });
    // The section takes the keyboard once it has rendered (a frame after the click, later on a loaded machine).
    const inFirstField = () =>
      document.activeElement?.closest("label")?.textContent?.trim().startsWith("URL pattern") === true;
    await page.waitForFunction(inFirstField, null, { timeout: 5000 }).catch(() => undefined);
    assert.equal(await page.evaluate(inFirstField), true, "the keyboard is in the first field");
    // A pointer that is not one is refused in words, before anything is sent.
    await section.getByLabel("URL pattern").fill("/agent/rpc");
    await section.getByLabel("JSON pointer").fill("payload");
    await section.getByRole("button", { name: "Add decoder" }).click();
    assert.match(await section.getByRole("alert").innerText(), /"pointer" must be a JSON pointer/);
    await section.getByLabel("JSON pointer").fill("/payload");
    await section.getByLabel("Method").selectOption("POST");
    await section.getByLabel("Label").fill("agent API");
    await section.getByLabel("Label").press("Enter");
    const row = section.getByRole("row", { name: "decoder d1" });
    await row.waitFor();
    assert.deepEqual(await row.locator("td").allTextContents(), [
      "agent API (d1)",
      "/agent/rpc",
      "POST",
      "/payload",
      "both",
      "0",
      "Remove",
    ]);
    assert.equal(await page.getByRole("button", { name: /^Decode as…/ }).textContent(), "Decode as… (1)");
    await panel.shot("decode-rule");

    // From then on the tap records the envelope and the worker decodes it.
    await tab.page.reload();
    await tab.page.getByRole("button", { name: "Run" }).click();
    await tab.page.getByLabel("result").filter({ hasText: "deployed" }).waitFor();
    await page.getByRole("heading", { name: "Flows (1)" }).waitFor();
    await row.locator('td[data-col="matched"]').filter({ hasText: "7" }).waitFor();
    assert.equal(await cell(page, "flow-1", "outcome"), "accept");
    // One server for the rule's traffic (its host and label), the rule and its host beside it.
    assert.match((await cell(page, "flow-1", "via"))!, /^decoder d1 “agent API” at 127\.0\.0\.1:\d+$/);
    assert.match((await cell(page, "flow-1", "server"))!, /^127\.0\.0\.1:\d+ \(agent API\)$/);
    await page.getByRole("heading", { name: "Findings (0)" }).waitFor();
    assert.equal(
      await page.getByRole("group").filter({ hasText: "input problem" }).count(),
      0,
      "no input problem: the host's bodies are the rule's",
    );
    await panel.shot("decode-matched");

    // Another panel sees the same rules (they are the browser's); a removal reaches both.
    const other = await openPanel("?tabId=" + tab.tabId);
    await other.page.getByRole("button", { name: "Decode as… (1)" }).waitFor();
    await section.getByRole("button", { name: "Remove decoder d1" }).click();
    await section.getByText("No decoders.").waitFor();
    await other.page.getByRole("button", { name: "Decode as…", exact: true }).waitFor();
    assert.deepEqual([...panel.errors, ...other.errors], []);
    await other.close();
    await panel.close();
    await tab.page.close();
  });

  test("Decode as… on an imported HAR: imported without the rule it holds no flow; Import again with these rules decodes it", async () => {
    const tab = await browser.openTab(agent.url);
    const panel = await openPanel(`?tabId=${tab.tabId}`);
    const { page } = panel;
    await page.getByRole("heading", { name: "Flows (0)" }).waitFor();
    await importInto(page, "agent.har", agentHar());
    assert.match(await page.locator(".flows-pane").innerText(), /agent\.har holds no elicitation flows/);
    await page.getByRole("button", { name: /^Decode as…/ }).click();
    const section = page.getByRole("region", { name: "Decode as MCP" });
    await section.getByLabel("URL pattern").fill("http://127.0.0.1:4100/agent/*");
    await section.getByLabel("JSON pointer").fill("/payload");
    await section.getByRole("button", { name: "Add decoder" }).click();
    const row = section.locator("tr[data-rule]").last();
    await row.waitFor();
    const id = (await row.getAttribute("data-rule"))!;
    await section.getByRole("button", { name: "Import agent.har again with these rules" }).click();
    await page.getByRole("heading", { name: "Flows (1)" }).waitFor();
    await row.locator('td[data-col="matched"]').filter({ hasText: "7" }).waitFor();
    assert.equal(await cell(page, "flow-1", "outcome"), "decline");
    assert.equal(await cell(page, "flow-1", "via"), `decoder ${id} at 127.0.0.1:4100`);
    await panel.shot("decode-import");
    await section.getByRole("button", { name: `Remove decoder ${id}` }).click();
    await row.waitFor({ state: "detached" });
    assert.deepEqual(panel.errors, []);
    await panel.close();
    await tab.page.close();
  });

  test("dark theme: outcomes, the Via column, masked values and the Decode as section follow it", async () => {
    const panel = await openPanel("", "dark");
    const { page } = panel;
    await importInto(page, "outcomes.jsonl", outcomesCapture());
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await page.getByRole("row", { name: "flow flow-1", exact: true }).click();
    await page.getByRole("tab", { name: "Form" }).click();
    assert.equal(await page.locator('[data-field="api_key"] input').inputValue(), "[REDACTED]");
    await page.getByRole("button", { name: /^Decode as…/ }).click();
    const colors = await page.evaluate(() => ({
      section: getComputedStyle(document.querySelector(".decode")!).backgroundColor,
      error: getComputedStyle(document.querySelector('tr[data-flow="flow-3"] td[data-col="outcome"]')!).color,
    }));
    assert.deepEqual(colors, { section: "rgb(41, 42, 45)", error: "rgb(242, 139, 130)" });
    await panel.shot("dark-outcomes-decode");
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });

  test("Decode as…: the section opens from the toolbar, says why rules cannot be edited without a tab, closes on Escape", async () => {
    const panel = await openPanel("");
    const { page } = panel;
    const toggle = page.getByRole("button", { name: /^Decode as…/ });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    await toggle.click();
    const section = page.getByRole("region", { name: "Decode as MCP" });
    await section.waitFor();
    assert.match(await section.innerText(), /No tab is inspected/);
    assert.equal(await section.getByRole("button", { name: "Add decoder" }).isDisabled(), true);
    await panel.shot("decode-no-tab");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Decode as MCP",
      "the keyboard is in the section",
    );
    await page.keyboard.press("Escape");
    await section.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.classList.contains("decode-toggle"));
    assert.deepEqual(panel.errors, []);
    await panel.close();
  });
});
