// Records the HAR fixtures of MCP Inspector v2 (test/capture/fixtures/inspector-v2-*.har) from real traffic:
// the real inspector (@modelcontextprotocol/inspector 2.12.0, a devDependency; another launcher in INSPECTOR_LAUNCHER), the real
// 2025-11-25 SDK peer (demo/servers/legacyServer.ts), Chromium through Playwright's HAR recorder. The page is
// driven as a person would: connect, call confirm_action twice, accept in the inspector's own dialog, then
// decline, disconnect.
//
// Playwright's HAR (like DevTools', which reads bodies with Network.getResponseBody) keeps no body of a stream
// still open or cut when it is saved, and the inspector's events stream is open for the whole session: the
// "aborted" HAR is what such a file holds. The "complete" one is the same HAR with the events entry's body filled
// in from the bytes Chromium received on it (CDP Network.streamResourceContent): what a HAR holds when the stream
// ended before it was saved. Entries other than the backend's /api/mcp/* calls lose their bodies (the app's
// scripts and styles), so the files stay small.
//
//   node --import tsx scripts/record-inspector-har.ts
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startLegacyServer } from "../demo/servers/legacyServer.ts";

const launcher =
  process.env.INSPECTOR_LAUNCHER ?? "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js";
const out = "test/capture/fixtures";
const port = 20000 + Math.floor(Math.random() * 20000);
const token = "fixture-token-not-a-secret";

const step = (what: string): void => void process.stderr.write(`record-inspector-har: ${what}\n`);
const peer = await startLegacyServer();
step(`peer at ${peer.url}`);
const home = await mkdtemp(join(tmpdir(), "iv2-home-"));
const inspector = spawn(process.execPath, [launcher, "--web", "--transport", "http", "--server-url", peer.url], {
  env: {
    ...process.env,
    HOME: home,
    HOST: "127.0.0.1",
    CLIENT_PORT: String(port),
    MCP_SANDBOX_PORT: String(port + 1),
    MCP_APP_ORIGIN_PORT: String(port + 2),
    MCP_INSPECTOR_API_TOKEN: token,
    MCP_AUTO_OPEN_ENABLED: "false",
    MCP_INSPECTOR_SECRET_STORE: "memory",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
let banner = "";
await new Promise<void>((resolve) =>
  inspector.stdout.on("data", (chunk: Buffer) => (banner += chunk.toString()).includes("running at") && resolve()),
);
step(`inspector on ${port}`);

process.on("exit", () => inspector.kill());
const harPath = join(home, "recorded.har");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true });
const context = await browser.newContext({
  recordHar: { path: harPath, content: "embed" },
  viewport: { width: 1400, height: 900 },
});
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Network.enable");
let eventsId: string | undefined;
const received: Buffer[] = [];
cdp.on("Network.requestWillBeSent", (e) => {
  if (e.request.url.includes("/api/mcp/events")) {
    eventsId = e.requestId;
    // The stream's bytes from here on come as dataReceived.data; those before, in bufferedData.
    void cdp.send("Network.streamResourceContent", { requestId: e.requestId }).then(
      (r) => received.unshift(Buffer.from(r.bufferedData, "base64")),
      () => undefined,
    );
  }
});
cdp.on("Network.dataReceived", (e) => {
  if (e.requestId === eventsId && e.data) received.push(Buffer.from(e.data, "base64"));
});

page.setDefaultTimeout(45_000);
await page.goto(`http://127.0.0.1:${port}/?MCP_INSPECTOR_API_TOKEN=${token}`);
// The switch's <input> is covered by its track (docs/hosts-wire.md, "UI").
await page.locator(".mantine-Switch-track").first().click();
await page.getByText("Connected", { exact: true }).first().waitFor();
await page.getByText("Tools", { exact: true }).first().click();
step("connected");
for (const answer of ["accept", "decline"] as const) {
  // After a call the results replace the tool's form: picking another tool and back brings the form again.
  await page.getByText("register_user", { exact: true }).first().click();
  await page.getByText("confirm_action", { exact: true }).first().click();
  await page.getByRole("button", { name: "Execute Tool" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  if (answer === "accept") {
    await dialog.getByText("Confirm").first().click();
    await dialog.getByRole("button", { name: "Submit" }).click();
  } else await dialog.getByRole("button", { name: "Decline" }).click();
  await page
    .getByText(answer === "accept" ? "confirm: accept" : "confirm: decline")
    .first()
    .waitFor();
  step(`answered ${answer}`);
}
await page.getByText("Servers", { exact: true }).first().click();
await page.getByText("Connected", { exact: true }).first().waitFor();
await page.locator(".mantine-Switch-track").first().click();
await page.locator('[data-testid="connection-status"][data-status="disconnected"]').waitFor({ state: "attached" });
await page.waitForTimeout(500);
await context.close();
await browser.close();
inspector.kill();
await peer.close();

type Json = Record<string, any>;
const har = JSON.parse(await readFile(harPath, "utf8")) as Json;
await rm(home, { recursive: true, force: true });
for (const entry of har.log.entries as Json[]) {
  if (!String(entry.request.url).includes("/api/mcp/")) {
    delete entry.response.content.text;
    delete entry.response.content.encoding;
  }
}
await writeFile(join(out, "inspector-v2-aborted.har"), `${JSON.stringify(har, null, 1)}\n`);
const events = (har.log.entries as Json[]).find((e) => String(e.request.url).includes("/api/mcp/events"));
const text = Buffer.concat(received).toString("utf8");
events!.response.content = { size: Buffer.byteLength(text), mimeType: "text/event-stream", text };
delete events!.response._failureText;
// The stream ends when the page disconnected, as a HAR's timings say of a stream that ended before it was saved.
const disconnect = (har.log.entries as Json[]).find((e) => String(e.request.url).includes("/api/mcp/disconnect"));
const duration = Date.parse(disconnect!.startedDateTime) - Date.parse(events!.startedDateTime);
events!.time = duration;
events!.timings.receive = duration - events!.timings.wait;
await writeFile(join(out, "inspector-v2-complete.har"), `${JSON.stringify(har, null, 1)}\n`);
console.log(
  `wrote ${out}/inspector-v2-{aborted,complete}.har (${har.log.entries.length} entries, events ${text.length} chars)`,
);
