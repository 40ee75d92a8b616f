// `npm start` (= `node build.mjs && node scripts/start.mjs`): the embedded demo. Starts the demo host (real SDK
// MCP servers of both protocol eras behind a hosted-agent page, demo/host.ts) and opens it in Debian's Chromium
// with the built extension (dist/chrome) loaded and DevTools open. Without a display it prints the URL and how
// to load the extension by hand, and keeps serving until Ctrl-C. `npm start -- --cli` runs the CLI demo instead.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = fileURLToPath(new URL("..", import.meta.url));
const capture = "demo/demo-capture.jsonl";
const cli = join(root, "dist/cli/mcp-elicit.js");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

if (args.includes("--help") || args.includes("-h")) {
  console.log(`npm start [-- options]
  --port <n>      serve the demo on 127.0.0.1:<n> (default 4680; 0 = any free port)
  --no-browser    serve the demo only, do not launch Chromium
  --cli           the CLI demo instead: mcp-elicit lint ${capture} (extra arguments go to the CLI)
  CHROMIUM=<path> the browser to launch (default /usr/bin/chromium)`);
  process.exit(0);
}

if (args.includes("--cli")) {
  // The CLI demo: the engine over real SDK traffic of both eras (regenerate with `npx tsx scripts/make-demo-capture.ts`).
  console.log(`mcp-elicit lint ${capture}   (real SDK traffic of both protocol eras)\n`);
  const r = spawnSync(process.execPath, [cli, "lint", capture, ...args.filter((a) => a !== "--cli")], {
    stdio: "inherit",
    cwd: root,
  });
  console.log(
    `\nTry: npx mcp-elicit lint ${capture} --json, or run it on a HAR saved from your browser's Network panel.`,
  );
  process.exit(r.status === 2 ? 2 : 0);
}

/** One line on the CLI demo, so it stays discoverable from `npm start`. */
function cliSummary() {
  if (!existsSync(cli)) return `CLI demo: not built (run \`node build.mjs\`), then \`npm start -- --cli\``;
  const r = spawnSync(process.execPath, [cli, "lint", capture, "--json"], { cwd: root, encoding: "utf8" });
  try {
    const report = JSON.parse(r.stdout);
    const flows = report.files.reduce((n, f) => n + f.flows.length, 0);
    const { errors, warnings, info } = report.summary;
    return `CLI demo: mcp-elicit lint ${capture} → ${flows} flows, ${errors} errors, ${warnings} warnings, ${info} info (full report: npm start -- --cli)`;
  } catch {
    return `CLI demo: npm start -- --cli`;
  }
}

const requested = option("--port");
const port = requested === undefined ? 4680 : Number(requested);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`npm start: --port wants a port number, got ${requested}`);
  process.exit(2);
}

const { startDemoHost } = await tsImport("../demo/host.ts", import.meta.url);
let host;
try {
  host = await startDemoHost({ port });
} catch (error) {
  // The default port is a convenience; when it is taken, any free one will do.
  if (error?.code !== "EADDRINUSE" || requested !== undefined) throw error;
  host = await startDemoHost({ port: 0 });
}

const extension = join(root, "dist/chrome");
const hasExtension = existsSync(join(extension, "manifest.json"));
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const hasDisplay = process.platform !== "linux" || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const launch = hasDisplay && !args.includes("--no-browser") && existsSync(chromiumPath);

console.log(
  `MCP elicitation demo host: real SDK servers of 2025-11-25 (sdk 1.32.2) and 2026-07-28 (server 2.4.0) on 127.0.0.1.`,
);
console.log(`Demo page: ${host.url}`);
if (!hasExtension) {
  console.log(
    `The extension build is missing (no dist/chrome/manifest.json): run \`node build.mjs\`. The demo page works without it.`,
  );
}
const byHand = [
  `Load the extension by hand:`,
  `  Chrome/Chromium: chrome://extensions → Developer mode → Load unpacked → ${extension}`,
  `  Firefox: about:debugging → This Firefox → Load Temporary Add-on → ${join(root, "dist/firefox/manifest.json")}`,
  `then open ${host.url} and DevTools (F12) → the MCP Elicitation panel.`,
];
if (!hasDisplay) {
  console.log(`No display here ($DISPLAY and $WAYLAND_DISPLAY are unset), so no browser is launched.`);
  console.log(
    `Open ${host.url} in a browser on this machine (or forward the port: ssh -L ${new URL(host.url).port}:127.0.0.1:${new URL(host.url).port} …).`,
  );
  for (const line of byHand) console.log(line);
} else if (!args.includes("--no-browser") && !existsSync(chromiumPath)) {
  console.log(`No Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM=<path>).`);
  for (const line of byHand) console.log(line);
}
console.log(cliSummary());

let browser;
let profile;
if (launch) {
  profile = mkdtempSync(join(tmpdir(), "mcp-elicit-demo-profile-"));
  const flags = [
    `--user-data-dir=${profile}`,
    "--no-first-run",
    "--no-default-browser-check",
    "--auto-open-devtools-for-tabs",
    ...(hasExtension ? [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`] : []),
    // Chromium refuses to start as root with its sandbox on.
    ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
    host.url,
  ];
  browser = spawn(chromiumPath, flags, { stdio: "ignore" });
  console.log(
    `Launched Chromium${hasExtension ? ` with ${extension} loaded` : " (without the extension)"}, DevTools open: pick the MCP Elicitation panel.`,
  );
  browser.on("exit", (code) => {
    browser = undefined;
    console.log(`Chromium exited${code ? ` (code ${code})` : ""}; the demo is still at ${host.url}. Ctrl-C to stop.`);
  });
  browser.on("error", (error) => console.log(`Could not launch Chromium: ${error.message}`));
}
console.log(`Serving until Ctrl-C.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  if (browser) {
    const exited = new Promise((resolve) => browser.once("exit", resolve));
    browser.kill();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  }
  await host.close();
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  console.log("Demo host stopped.");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
