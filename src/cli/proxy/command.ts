import { writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import type { Upstream } from "./routes.ts";
import { startProxy } from "./server.ts";

export const PROXY_USAGE = `Usage: mcp-elicit proxy <upstream-url> [--port N] [--out capture.jsonl]
       mcp-elicit proxy --upstream name=url [--upstream name=url]… [--port N] [--out capture.jsonl]

proxy: a recording reverse proxy between an agent backend and MCP servers. Give the agent the URL printed on the
first line instead of the server's (with --upstream, one "name<TAB>url" line per server); the last line is the feed
URL for the panel's "Backend…" control. Every message is recorded as a capture record (source "backend").

Options:
  --upstream name=url     serve this upstream at /<name> (repeatable); a lone <upstream-url> is served at /mcp
  --port <n>              the port to listen on (default: a free one)
  --out <file>            write the capture as JSONL here, as it happens (mcp-elicit lint reads it)
  --host <address>        the address to listen on (default 127.0.0.1); only loopback unless --allow-remote
  --allow-remote          listen on a non-loopback address although the agent's traffic and credentials pass here
  -h, --help              this help

SIGINT or SIGTERM stops the proxy after writing every record.`;

const NAME = /^[A-Za-z0-9._~-]+$/;

/** `mcp-elicit proxy …`: resolves with the exit status once the proxy has stopped (SIGINT/SIGTERM). */
export async function proxyCommand(argv: string[]): Promise<number> {
  const config = parse(argv);
  if ("help" in config) {
    console.log(PROXY_USAGE);
    return 0;
  }
  if ("error" in config) {
    console.error(`mcp-elicit proxy: ${config.error}\n\n${PROXY_USAGE}`);
    return 2;
  }
  if (!isLoopback(config.host)) {
    if (!config.allowRemote) {
      console.error(
        `mcp-elicit proxy: refusing to listen on ${config.host}: the agent's MCP traffic, its credentials ` +
          "and the feed would be reachable from other machines. It listens on loopback (127.0.0.1) only; " +
          "pass --allow-remote to do it anyway.",
      );
      return 2;
    }
    console.error(
      `mcp-elicit proxy: WARNING: listening on ${config.host}, not loopback: ` +
        "other machines can reach the agent's MCP traffic through it.",
    );
  }
  if (config.out !== undefined) {
    try {
      writeFileSync(config.out, "");
    } catch (e) {
      console.error(`mcp-elicit proxy: cannot write ${config.out}: ${(e as Error).message}`);
      return 2;
    }
  }
  let proxy;
  try {
    proxy = await startProxy({
      upstreams: config.upstreams,
      host: config.host,
      port: config.port,
      ...(config.out !== undefined && { out: config.out }),
    });
  } catch (e) {
    console.error(`mcp-elicit proxy: cannot listen on ${config.host}:${config.port}: ${(e as Error).message}`);
    return 2;
  }
  // Listening for the signals before the URLs go out: whoever reads them may stop the proxy at once.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  const lines = config.bare ? [proxy.urls[0]!.url] : proxy.urls.map((u) => `${u.name}\t${u.url}`);
  process.stdout.write(`${[...lines, proxy.feedUrl].join("\n")}\n`);
  for (const u of config.upstreams) console.error(`mcp-elicit proxy: /${u.name} → ${u.url.href}`);
  if (config.out !== undefined) console.error(`mcp-elicit proxy: recording to ${config.out}; Ctrl-C stops`);

  const signal = await stopped;
  try {
    await proxy.close();
  } catch (e) {
    console.error(`mcp-elicit proxy: cannot finish ${config.out}: ${(e as Error).message}`);
    return 2;
  }
  const count = proxy.journal.count();
  const where = config.out !== undefined ? ` in ${config.out}` : "";
  console.error(`mcp-elicit proxy: ${signal}: stopped; ${count} record${count === 1 ? "" : "s"}${where}`);
  return 0;
}

interface Config {
  upstreams: Upstream[];
  /** A lone positional upstream: the first line is its URL alone. */
  bare: boolean;
  host: string;
  port: number;
  out?: string;
  allowRemote: boolean;
}

function parse(argv: string[]): Config | { help: true } | { error: string } {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        upstream: { type: "string", multiple: true, default: [] },
        port: { type: "string", default: "0" },
        out: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        "allow-remote": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    return { error: (e as Error).message };
  }
  const { values, positionals } = args;
  if (values.help) return { help: true };
  const fail = (error: string) => ({ error });
  if (positionals.length > 1)
    return fail(`one positional upstream at most (use --upstream name=url for several), not ${positionals.length}`);
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    return fail(`--port must be a port number (0–65535), not "${values.port}"`);
  const upstreams: Upstream[] = [];
  const add = (name: string, raw: string): string | undefined => {
    if (!NAME.test(name) || name === "__mcp-elicit")
      return `upstream name "${name}" must be letters, digits, ".", "_", "~" or "-" (and not __mcp-elicit)`;
    if (upstreams.some((u) => u.name === name)) return `upstream name "${name}" is given twice`;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return `"${raw}" is not a URL`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return `"${raw}" is not an http(s) URL`;
    upstreams.push({ name, url });
    return undefined;
  };
  for (const p of positionals) {
    const problem = add("mcp", p);
    if (problem) return fail(problem);
  }
  for (const spec of values.upstream) {
    const eq = spec.indexOf("=");
    if (eq <= 0) return fail(`--upstream takes name=url, not "${spec}"`);
    const problem = add(spec.slice(0, eq), spec.slice(eq + 1));
    if (problem) return fail(problem);
  }
  if (upstreams.length === 0) return fail("no upstream: give the MCP server's URL");
  return {
    upstreams,
    bare: positionals.length === 1 && values.upstream.length === 0,
    host: values.host,
    port,
    ...(values.out !== undefined && { out: values.out }),
    allowRemote: values["allow-remote"],
  };
}

/** 127.0.0.0/8, ::1 (and ::ffff:127.x), or localhost. */
export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1" || /^::ffff:127\./i.test(bare);
  return false;
}
