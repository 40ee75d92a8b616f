import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createFeed, FEED_PREFIX } from "./feed.ts";
import { createForwarder } from "./forward.ts";
import { createJournal, type Journal } from "./journal.ts";
import { createRoutes, type Upstream } from "./routes.ts";

export interface ProxyOptions {
  upstreams: readonly Upstream[];
  /** Default 127.0.0.1; anything else only with `allowRemote` (command.ts refuses it otherwise). */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The JSONL capture file, written as records happen. */
  out?: string;
  warn?: (message: string) => void;
}

export interface Proxy {
  /** For each upstream, the URL to give the agent instead of the server's. */
  urls: { name: string; url: string }[];
  /** The panel's feed URL, with its token. */
  feedUrl: string;
  journal: Journal;
  /** Stops listening, cuts open connections, ends the feed and flushes the capture file. */
  close(): Promise<void>;
}

/** The recording reverse proxy: each upstream under `/<name>`, the panel's feed under `/__mcp-elicit/`. */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const host = options.host ?? "127.0.0.1";
  const warn = options.warn ?? ((message: string) => console.error(`mcp-elicit proxy: ${message}`));
  const journal = createJournal(options.out);
  const token = randomBytes(24).toString("base64url");
  let origin = "";
  const routes = createRoutes(options.upstreams, () => origin);
  const forwarder = createForwarder(journal, routes, warn);
  const feed = createFeed(journal, token);

  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path.startsWith(FEED_PREFIX) || path === FEED_PREFIX.slice(0, -1)) return feed.handle(req, res);
    const route = routes.resolve(path);
    if (!route) {
      res
        .writeHead(404, { "content-type": "text/plain" })
        .end(`mcp-elicit proxy: no upstream is served at ${path.split("?")[0]}\n`);
      return;
    }
    forwarder.forward(req, res, route);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    feed.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await forwarder.close();
    await journal.close();
  };
  return {
    urls: options.upstreams.map((u) => ({ name: u.name, url: `${origin}/${encodeURIComponent(u.name)}` })),
    feedUrl: `${origin}${FEED_PREFIX}feed?token=${token}`,
    journal,
    close: () => (closing ??= close()),
  };
}
