import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RelayFault } from "../faults.ts";

/**
 * The Cloudflare test agent (src/worker.js) under `wrangler dev --local`, run with this sub-package's own Node 22
 * (wrangler needs ≥ 22.12; the project's tests run on the host's Node). Offline: no metrics, no account, no
 * `cf` fetch. Each start gets fresh Durable Object state (restored state can leave an MCP connection without its
 * server→client stream) and a throwaway config home.
 */
export interface CloudflareAgent {
  /** The page of a fresh agent (`/?agent=<route>-<n>`): its route's servers, and its fault when the route names one. */
  page(route: string): string;
  origin: string;
  /** What wrangler printed (for a failure's message). */
  output(): string;
  close(): Promise<void>;
}

const root = dirname(fileURLToPath(import.meta.url));
const node = join(root, "node_modules", ".bin", "node");
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");

/**
 * `routes`: route → { server name → MCP URL }. A route named after a fault (`swallow`, `alter`, `open-url`) makes its
 * agents make that fault; any other route is a faithful agent.
 */
export async function startCloudflareAgent(
  routes: Record<RelayFault | string, Record<string, string>>,
): Promise<CloudflareAgent> {
  if (!existsSync(node) || !existsSync(wrangler)) {
    throw new Error(
      `the Cloudflare stack is not installed: run \`npm ci --prefix test/agents/cloudflare\` (missing ${existsSync(node) ? wrangler : node})`,
    );
  }
  await rm(join(root, ".wrangler"), { recursive: true, force: true });
  const home = await mkdtemp(join(tmpdir(), "mcp-cf-agent-"));
  const port = await freePort();
  const args = [
    wrangler,
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    "0",
    "--show-interactive-dev-session=false",
    "--persist-to",
    join(home, "state"),
    "--log-level",
    "warn",
    "--var",
    `ROUTES:${JSON.stringify(routes)}`,
  ];
  const env = {
    ...process.env,
    PATH: `${dirname(node)}:${process.env.PATH ?? ""}`,
    WRANGLER_SEND_METRICS: "false",
    CI: "1",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    XDG_CONFIG_HOME: join(home, "config"),
    HOME: home,
  };
  const child: ChildProcess = spawn(node, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(home, { recursive: true, force: true });
    await rm(join(root, ".wrangler"), { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`wrangler dev exited (${child.exitCode}) before it was ready:\n${output}`);
    }
    const ready = await fetch(`${origin}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`wrangler dev was not ready in 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let agents = 0;
  const page = (route: string): string => `${origin}/?agent=${route}-${++agents}${Date.now().toString(36)}`;
  return { page, origin, output: () => output, close };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
