import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The real third-party hosts, started by the tests as a person starts them (their own launchers, from
 * node_modules, on 127.0.0.1 free ports; docs/hosts-wire.md says how each was found to start).
 */

/** A free TCP port on 127.0.0.1 (asked of the OS; the host binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node <script> …args` and waits until its output matches `ready` (60 s: the machine is shared). */
async function startNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd: string,
): Promise<Started> {
  const child = spawn(process.execPath, [resolve(script), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not start within 60 s; it said:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (ready.test(out)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${script} exited (${code}) before it was ready; it said:\n${out}`));
    });
  });
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killed);
    },
  };
}

export interface InspectorV2 {
  /** The page's origin (`http://127.0.0.1:<CLIENT_PORT>`). */
  origin: string;
  /** The page URL the launcher prints, with its API token in the query. */
  url: string;
  token: string;
  output(): string;
  close(): Promise<void>;
}

/**
 * MCP Inspector v2 (`@modelcontextprotocol/inspector` 2.12.0): its launcher in web mode with one ad-hoc
 * Streamable HTTP server, a throwaway HOME, an in-memory secret store, no browser opened.
 */
export async function startInspectorV2(serverUrl: string): Promise<InspectorV2> {
  const home = await mkdtemp(join(tmpdir(), "mcp-hosts-iv2-"));
  const [client, sandbox, app] = [await freePort(), await freePort(), await freePort()];
  const token = `hosts-iv2-token-${process.pid}`;
  let started: Started;
  try {
    started = await startNode(
      "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
      ["--web", "--transport", "http", "--server-url", serverUrl],
      {
        HOST: "127.0.0.1",
        CLIENT_PORT: String(client),
        MCP_SANDBOX_PORT: String(sandbox),
        MCP_APP_ORIGIN_PORT: String(app),
        MCP_INSPECTOR_API_TOKEN: token,
        MCP_AUTO_OPEN_ENABLED: "false",
        MCP_INSPECTOR_SECRET_STORE: "memory",
        HOME: home,
      },
      /is up and running at:\s*\n\s*http:\/\/\S+/,
      home,
    );
  } catch (error) {
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  const origin = `http://127.0.0.1:${client}`;
  return {
    origin,
    url: `${origin}/?MCP_INSPECTOR_API_TOKEN=${token}`,
    token,
    output: started.output,
    async close() {
      await started.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export interface InspectorV1 {
  /** The page's origin (the inspector-client static server). */
  origin: string;
  /** The proxy's origin (inspector-server). */
  proxyOrigin: string;
  token: string;
  /** The page URL for one upstream, through the proxy, Streamable HTTP. */
  pageUrl(serverUrl: string): string;
  close(): Promise<void>;
}

/** MCP Inspector v1 (`@modelcontextprotocol/inspector-client` + `-server` 1.0.3): the proxy and the page server. */
export async function startInspectorV1(): Promise<InspectorV1> {
  const cwd = await mkdtemp(join(tmpdir(), "mcp-hosts-iv1-"));
  const [client, proxy] = [await freePort(), await freePort()];
  const token = `hosts-iv1-token-${process.pid}`;
  const origin = `http://127.0.0.1:${client}`;
  const started: Started[] = [];
  try {
    started.push(
      await startNode(
        "node_modules/@modelcontextprotocol/inspector-server/build/index.js",
        [],
        {
          HOST: "127.0.0.1",
          SERVER_PORT: String(proxy),
          MCP_PROXY_AUTH_TOKEN: token,
          ALLOWED_ORIGINS: origin,
          MCP_AUTO_OPEN_ENABLED: "false",
          HOME: cwd,
        },
        /Proxy server listening on/,
        cwd,
      ),
    );
    started.push(
      await startNode(
        "node_modules/@modelcontextprotocol/inspector-client/bin/client.js",
        [],
        { HOST: "127.0.0.1", CLIENT_PORT: String(client), MCP_AUTO_OPEN_ENABLED: "false", HOME: cwd },
        /is up and running at/,
        cwd,
      ),
    );
  } catch (error) {
    for (const s of started) await s.stop();
    await rm(cwd, { recursive: true, force: true });
    throw error;
  }
  return {
    origin,
    proxyOrigin: `http://127.0.0.1:${proxy}`,
    token,
    pageUrl: (serverUrl) =>
      `${origin}/?MCP_PROXY_PORT=${proxy}&MCP_PROXY_AUTH_TOKEN=${token}&transport=streamable-http&serverUrl=${encodeURIComponent(serverUrl)}`,
    async close() {
      for (const s of started.reverse()) await s.stop();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
