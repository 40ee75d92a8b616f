import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { SECRETS, secretCapture } from "./corpus.ts";

/**
 * Masked by default, everywhere (issue 18): tokens planted in a server URL's query, in its path (`/v3/<32 hex>/mcp`,
 * `/s/<secret>/mcp`), in its user info, in an Mcp-Session-Id, in a form answer and in a WebSocket URL appear
 * nowhere in the panel's text, its inputs, its tooltips (title attributes) or its default exports (JSONL and HAR),
 * whichever flow is open and whichever detail tab is shown; the filter box matches none of them while masked.
 */
const PLANTED = {
  userInfo: "PASSuserinfoLEAK",
  query: "QUERYtokenLEAK42",
  hexKey: "0123456789abcdef0123456789abcdef",
  pathSecret: "PATHsecretLEAK77",
  session: "SESSIONidLEAK-f6d79c12",
  wsToken: "WStokenLEAK-9a8b7c6d5e",
  password: SECRETS.password,
} as const;

/** The demo capture's scenarios, each on a server URL carrying one planted secret; a WebSocket flow beside them. */
function plantedCapture(): CaptureRecord[] {
  const urls: Record<string, string> = {
    "legacy-form-accept/": `http://ada:${PLANTED.userInfo}@127.0.0.1:45545/mcp`,
    "legacy-form-decline/": `http://127.0.0.1:45545/mcp?access_token=${PLANTED.query}`,
    "legacy-form-cancel/": `http://127.0.0.1:45545/v3/${PLANTED.hexKey}/mcp`,
    "legacy-form-multi-field/": `http://127.0.0.1:45545/s/${PLANTED.pathSecret}/mcp`,
  };
  const records = secretCapture().map((r): CaptureRecord => {
    const prefix = Object.keys(urls).find((p) => r.exchange?.startsWith(p));
    let out: CaptureRecord = prefix ? { ...r, url: urls[prefix] } : r;
    if (
      (out.kind === "message" || out.kind === "response") &&
      out.headers?.["mcp-session-id"] === "f6d79c12-e842-4b2e-881c-4275f439073b"
    )
      out = { ...out, headers: { ...out.headers, "mcp-session-id": PLANTED.session } };
    return out;
  });
  const ws = `wss://127.0.0.1:45545/ws?access_token=${PLANTED.wsToken}`;
  const at = (records.at(-1)?.time ?? 0) + 10;
  const frame = (i: number, direction: "c2s" | "s2c", message: object): CaptureRecord => ({
    v: 1,
    seq: 0,
    time: at + i,
    transport: "websocket",
    exchange: "ws-1",
    url: ws,
    client: "test-client",
    kind: "message",
    direction,
    stream: "websocket",
    text: JSON.stringify(message),
  });
  const socket = [
    frame(0, "c2s", {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "ws", version: "1" },
      },
    }),
    frame(1, "s2c", {
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "ws", version: "1" } },
    }),
    frame(2, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ws_tool", arguments: {} } }),
    frame(3, "s2c", {
      jsonrpc: "2.0",
      id: 9,
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Go on?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      },
    }),
    frame(4, "c2s", { jsonrpc: "2.0", id: 9, result: { action: "accept", content: { ok: true } } }),
    frame(5, "s2c", { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } }),
  ];
  return [...records, ...socket].map((r, seq) => ({ ...r, seq }));
}

let browser: ExtensionBrowser;
before(async () => {
  ensureBuilt();
  browser = await launchWithExtension();
});
after(async () => browser?.close());

/** The planted secrets the page shows anywhere: text, input values, title and aria-label attributes. */
async function leaks(page: Page): Promise<string[]> {
  const seen = await page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const el of document.querySelectorAll("input, select, textarea")) parts.push((el as HTMLInputElement).value);
    for (const el of document.querySelectorAll("[title], [aria-label]"))
      parts.push(el.getAttribute("title") ?? "", el.getAttribute("aria-label") ?? "");
    return parts.join("\n");
  });
  return Object.entries(PLANTED)
    .filter(([, s]) => seen.includes(s))
    .map(([name]) => name);
}

async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return readFile((await file.path())!, "utf8");
}

describe("panel: masked everywhere by default", { timeout: 180_000 }, () => {
  test("no planted secret on screen, in tooltips, in the filter's matches or in the default exports", async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`chrome-extension://${browser.extensionId}/panel.html`);
    const name = "planted.jsonl";
    await page
      .getByLabel("Import HAR or JSONL file")
      .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(exportJsonl(plantedCapture())) });
    await page.getByRole("heading", { level: 1, name: `MCP elicitation — ${name}` }).waitFor();
    await page.waitForFunction(() => performance.getEntriesByName("mcp:import-done").length > 0);
    const ids = await page.$$eval("tr[data-flow]", (rows) => rows.map((r) => r.getAttribute("data-flow")!));
    assert.ok(ids.length >= 8, `${ids.length} flows`);
    assert.deepEqual(await leaks(page), [], "the flow list and the timeline");
    for (const id of ids) {
      await page.getByRole("row", { name: `flow ${id}`, exact: true }).click();
      for (const tab of ["Story", "Messages", "Form", "Rounds", "URL", "Findings"]) {
        const button = page.getByRole("tab", { name: tab, exact: true });
        if ((await button.count()) === 0) continue;
        await button.click();
        assert.deepEqual(await leaks(page), [], `${id} ${tab}`);
      }
    }
    // The servers are there, masked: the filter finds them by what is shown, never by a hidden value.
    const filter = page.getByLabel("Filter flows");
    for (const secret of Object.values(PLANTED)) {
      await filter.fill(secret.slice(0, 12));
      await page.waitForTimeout(150);
      assert.equal(await page.locator("tr[data-flow]").count(), 0, `the filter matched ${secret} while masked`);
      await filter.fill(`server:${secret.slice(0, 12)}`);
      await page.waitForTimeout(150);
      assert.equal(await page.locator("tr[data-flow]").count(), 0, `server: matched ${secret} while masked`);
    }
    await filter.fill("server:[redacted]");
    await page.waitForTimeout(150);
    assert.ok(
      (await page.locator("tr[data-flow]").count()) >= 3,
      "the masked servers (path keys, the WebSocket query) match what is shown",
    );
    await filter.fill("");
    for (const button of ["Export JSONL", "Export HAR"]) {
      const text = await download(page, button);
      const found = Object.entries(PLANTED)
        .filter(([, s]) => text.includes(s))
        .map(([n]) => n);
      assert.deepEqual(found, [], button);
      // One placeholder per session: its flows still correlate after import.
      if (button === "Export JSONL") assert.ok(text.includes('"mcp-session-id":"session-1"'));
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
