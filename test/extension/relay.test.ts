import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { startRelayApp, type RelayApp } from "./fixtures/relay/app.ts";

/**
 * The tap recognises elicitations a hosted agent's page gets and answers in the app's own shapes (Chromium,
 * dist/chrome): an AI SDK UI message stream part, its answer route, Cloudflare-style socket frames. The worker holds
 * exactly those, stamped `relay:<shape>`, and none of the app's other traffic; the engine makes them flows.
 */
let app: RelayApp;
let browser: ExtensionBrowser;

before(async () => {
  ensureBuilt();
  app = await startRelayApp();
  browser = await launchWithExtension();
});

after(async () => {
  await browser?.close();
  await app?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("relayed asks and answers are recorded as relay records, and nothing else of the app", async () => {
  const { page, tabId } = await browser.openTab(app.url);
  assert.equal(await page.evaluate(() => (window as unknown as { run(): Promise<string> }).run()), "ok");
  let records: CaptureRecord[] = [];
  for (let i = 0; i < 50 && records.length < 4; i++) {
    await sleep(100);
    records = await browser.records(tabId);
  }
  await sleep(500);
  records = await browser.records(tabId);
  const relays = records.filter((r) => r.kind === "message" && r.envelope?.startsWith("relay:"));
  assert.equal(relays.length, records.length, `only relay records: ${JSON.stringify(records, null, 1)}`);
  assert.deepEqual(
    relays.map((r) => (r.kind === "message" ? [r.envelope, r.direction] : [])),
    [
      ["relay:data-elicitation", "s2c"],
      ["relay:json", "c2s"],
      ["relay:mcp_elicitation", "s2c"],
      ["relay:elicitation_response", "c2s"],
    ],
  );
  assert.equal(app.wire.length, 4);
  const { flows, problems } = analyze(records);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    flows.map((f) => [f.kind, f.elicitations[0]!.message, f.elicitations[0]!.action]),
    [
      ["relay", "Deploy to production?", "accept"],
      ["relay", "Deploy to production?", "decline"],
    ],
  );
});
