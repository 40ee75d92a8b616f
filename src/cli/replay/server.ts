import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CaptureRecord } from "../../capture/record.ts";
import { createChannel } from "./channel.ts";
import { createPlayer, type Divergence, type Player } from "./player.ts";
import { buildScript, describe, isAnswer, isRequest, messagesOf } from "./script.ts";

export interface ReplayReport {
  /** Every captured record was played (the client did all the capture's client did). */
  complete: boolean;
  /** Client requests matched to captured ones. */
  played: number;
  divergences: Divergence[];
  /** What each unfinished session waits for: the client never sent it. */
  pending: Divergence[];
}

export interface ReplayOptions {
  port?: number;
  host?: string;
  /** Told of each divergence as it happens. */
  onDivergence?(d: Divergence): void;
}

const MAX_BODY = 64 * 2 ** 20;

/**
 * `mcp-elicit replay`: a Streamable HTTP server that plays a captured server back to a real client (docs/ci.md).
 * A client's `initialize` takes the next captured 2025-11-25 session (its session id too); requests without a
 * session play the capture's stateless (2026-07-28) traffic. `done` settles when every captured record has been
 * played; `stop` ends the replay early and says what the client never sent.
 */
export async function startReplay(records: readonly CaptureRecord[], options: ReplayOptions = {}) {
  const script = buildScript(records);
  const divergences: Divergence[] = [];
  const diverge = (d: Divergence): void => {
    divergences.push(d);
    options.onDivergence?.(d);
  };
  let base = "";
  // URL-mode links and the like point at the captured server: they point at the replay now.
  const rewrite = (text: string): string => script.origins.reduce((t, origin) => t.split(origin).join(base), text);
  // The pages of the replay the client has opened (a URL-mode link: the user's visit), and who waits for one.
  const visits = new Set<string>();
  const visitors = new Map<string, (() => void)[]>();
  const visited = (url: string): Promise<void> => {
    const key = URL.canParse(url) ? new URL(url).pathname + new URL(url).search : url;
    if (visits.has(key)) return Promise.resolve();
    return new Promise((resolve) => visitors.set(key, [...(visitors.get(key) ?? []), resolve]));
  };
  const players = script.timelines.map((t) => createPlayer(t, { rewrite, diverge, visited }));
  const stateful = players.filter((p) => p.timeline.sessionId !== undefined);
  const bySession = new Map(stateful.map((p) => [p.timeline.sessionId!, p]));
  const stateless = players.find((p) => p.timeline.sessionId === undefined);
  const claimed = new Set<Player>();
  const done = Promise.all(players.map((p) => p.run())).then(() => undefined);
  const paths = new Set(script.paths);

  const unexpected = (res: ServerResponse, m: Record<string, unknown>, why: string): void => {
    diverge({ record: -1, context: describe(m), message: why });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32603, message: `mcp-elicit replay: ${why}` } }),
    );
  };

  async function post(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return void res.writeHead(413).end();
      chunks.push(chunk as Buffer);
    }
    const messages = messagesOf(Buffer.concat(chunks).toString("utf8"));
    if (messages.length === 0) return void res.writeHead(400).end();
    const request = messages.find(isRequest);
    let player = sessionId !== undefined ? bySession.get(sessionId) : stateless;
    if (request?.method === "initialize" && sessionId === undefined) {
      player = stateful.find((p) => !claimed.has(p));
      if (!player) return unexpected(res, request, "an initialize beyond the capture's sessions");
      claimed.add(player);
    }
    if (!player) {
      if (request)
        return unexpected(
          res,
          request,
          sessionId !== undefined
            ? `a session the capture does not have (${sessionId})`
            : "a request without a session, which the capture does not have",
        );
      return void res.writeHead(404).end();
    }
    for (const m of messages) if (isAnswer(m)) player.answer(m);
    if (!request) return void res.writeHead(202).end();
    if (!player.request(request, createChannel(res)))
      unexpected(res, request, `${describe(request)}, which the capture does not have here`);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (!paths.has(url.pathname)) {
      // Another page of the captured server (a URL-mode link): the user's visit, acknowledged.
      if (req.method === "GET") {
        const key = url.pathname + url.search;
        visits.add(key);
        for (const resolve of visitors.get(key) ?? []) resolve();
        visitors.delete(key);
      }
      res.writeHead(req.method === "GET" ? 200 : 404, { "content-type": "text/plain" });
      return void res.end(req.method === "GET" ? "mcp-elicit replay: stands in for the captured server's page\n" : "");
    }
    const header = req.headers["mcp-session-id"];
    const sessionId = typeof header === "string" ? header : undefined;
    if (req.method === "POST") return void post(req, res, sessionId).catch(() => res.destroy());
    if (req.method === "DELETE") return void res.writeHead(200).end();
    const player = sessionId !== undefined ? bySession.get(sessionId) : undefined;
    if (req.method === "GET" && player) {
      const channel = createChannel(res);
      channel.head(200, "text/event-stream", sessionId);
      return player.openStream(channel);
    }
    res.writeHead(405, { allow: "POST" }).end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  base = `http://${address.address}:${address.port}`;

  const report = (): ReplayReport => ({
    complete: players.every((p) => p.finished()),
    played: players.reduce((n, p) => n + p.played(), 0),
    divergences: [...divergences],
    pending: players.flatMap((p) => p.pending() ?? []),
  });

  return {
    /** The MCP endpoint to give the client: the capture's first endpoint path, at the replay's origin. */
    url: base + (script.paths[0] ?? "/mcp"),
    script,
    done,
    report,
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
