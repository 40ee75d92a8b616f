import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { startProxy, type Proxy as RecordingProxy } from "../../src/cli/proxy/server.ts";
import { analyze } from "../../src/engine/index.ts";
import { legacyTools, startLegacyServer, type PeerServer } from "../peers/legacyServer.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { startAgent, type Agent } from "./fixtures/relay/agent.ts";

/**
 * The panel's Backend… control in Chromium with dist/chrome: a hosted agent (its sdk 1.32.2 client on the server,
 * the real sdk server behind `mcp-elicit proxy`) relays the server's question to its page, where the user answers.
 * The feed URL the proxy prints, pasted in the panel, adds the backend's wire to the tab's capture; the tab's
 * flows are then one per elicitation, spanning both wires, with the relay latencies; removing the backend closes it.
 */
let server: PeerServer;
let proxy: RecordingProxy;
let agent: Agent;
let browser: ExtensionBrowser;

before(async () => {
  ensureBuilt();
  server = await startLegacyServer();
  proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(server.url) }], warn: () => undefined });
  agent = await startAgent(proxy.urls[0]!.url);
  browser = await launchWithExtension();
});

after(async () => {
  await browser?.close();
  await agent?.close();
  await proxy?.close();
  await server?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("a backend added by its feed URL joins the tab: one flow over both wires, the user's answer, both latencies", async () => {
  const { page, tabId } = await browser.openTab(agent.url);
  const panel: Page = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${tabId}`);
  await panel.getByRole("button", { name: /^Backend…/ }).click({ timeout: 20_000 });
  const section = panel.getByRole("region", { name: "Agent backends" });
  await section.getByRole("textbox", { name: "Feed URL" }).fill("http://127.0.0.1:1/not-a-feed");
  await section.getByRole("button", { name: "Add backend" }).click();
  await section.getByRole("alert").filter({ hasText: "not a feed URL" }).waitFor({ timeout: 5000 });
  await section.getByRole("textbox", { name: "Feed URL" }).fill(proxy.feedUrl);
  await section.getByRole("button", { name: "Add backend" }).click();
  const row = section.getByRole("row", { name: /^backend / });
  await row.locator('[data-col="status"]', { hasText: "live" }).waitFor({ timeout: 10_000 });

  // The agent calls the tool; the server asks; the agent relays the ask to its page; the user accepts there.
  const called = agent.callTool(legacyTools.confirm);
  assert.equal(
    await page.evaluate(() =>
      (window as unknown as { answerNext(a: unknown): Promise<string> }).answerNext({
        action: "accept",
        content: { confirm: true },
      }),
    ),
    "Delete the staging database?",
  );
  assert.match(JSON.stringify(await called), /confirm: accept/);

  let records = await browser.records(tabId);
  for (
    let i = 0;
    i < 60 &&
    !(
      records.some(
        (r) =>
          r.source === "backend" &&
          r.kind === "message" &&
          r.text.includes('"result"') &&
          r.text.includes("confirm: accept"),
      ) && records.filter((r) => r.kind === "message" && r.envelope?.startsWith("relay:")).length === 2
    );
    i++
  ) {
    await sleep(100);
    records = await browser.records(tabId);
  }
  const backend = records.filter((r) => r.source === "backend");
  assert.ok(
    backend.length > 0 && backend.every((r) => r.client === "backend" && r.url?.startsWith(server.url)),
    "the backend's records, marked",
  );
  assert.ok(
    records
      .filter((r) => r.source === undefined)
      .every((r) => r.kind === "message" && r.envelope?.startsWith("relay:")),
    "the page's are its relays only",
  );
  const { flows, findings } = analyze(records, { pageWatched: true });
  const shown = flows.filter((f) => f.joinedInto === undefined);
  assert.equal(shown.length, 1, JSON.stringify(flows, null, 1));
  const flow = shown[0]!;
  assert.equal(flow.source, "backend");
  assert.equal(flow.status, "complete");
  const el = flow.elicitations[0]!;
  assert.equal(el.action, "accept");
  assert.equal(el.relay?.action, "accept");
  assert.ok(el.relay!.askMs! >= 0 && el.relay!.answerMs! >= 0, JSON.stringify(el.relay));
  assert.deepEqual(
    findings.filter((f) => f.rule.startsWith("relay-")),
    [],
  );

  // The panel: the backend's lane, the story with the page's side, and the source filter.
  await panel
    .locator(".timeline")
    .getByText(/^agent → /)
    .first()
    .waitFor({ timeout: 10_000 });
  await panel.getByRole("searchbox", { name: "Filter flows" }).fill("source:backend");
  await panel.locator(".flows").getByText("tools/call").first().click();
  await panel
    .locator(".story .relay")
    .getByText(/The agent relayed it to the page/)
    .waitFor({ timeout: 10_000 });

  await section
    .getByRole("button", { name: `Remove backend ${new URL(proxy.feedUrl).origin}/__mcp-elicit/feed` })
    .click();
  await section.getByText("No backends.").waitFor({ timeout: 5000 });
  await panel.close();
  await page.close();
});
