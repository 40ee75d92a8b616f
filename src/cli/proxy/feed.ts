import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Journal } from "./journal.ts";

/** Everything under this prefix is the proxy's own; nothing there is forwarded. */
export const FEED_PREFIX = "/__mcp-elicit/";
const FEED_PATH = `${FEED_PREFIX}feed`;
const KEEP_ALIVE_MS = 20_000;

/**
 * The panel's feed: the capture as `text/event-stream`, one record (its JSONL line) per event with `id:` = its seq,
 * from the first record on, or from Last-Event-ID + 1 on a reconnect, then live. Only the feed path with the right
 * token is answered (403 without a body otherwise), and only extension pages get CORS: a web page the user visits
 * must not read the backend's traffic even if it guessed the port.
 */
export function createFeed(journal: Journal, token: string) {
  const expected = Buffer.from(token);
  const tokenOk = (given: string | null): boolean => {
    const bytes = Buffer.from(given ?? "");
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
  const streams = new Set<ServerResponse>();

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://feed");
    const method = req.method ?? "GET";
    if (url.pathname !== FEED_PATH || !tokenOk(url.searchParams.get("token")) || !["GET", "OPTIONS"].includes(method)) {
      res.writeHead(403, { "content-length": "0" }).end();
      return;
    }
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && /^(chrome|moz)-extension:\/\/[^/]+$/.test(origin)
        ? { "access-control-allow-origin": origin, vary: "Origin" }
        : { vary: "Origin" };
    if (method === "OPTIONS") {
      res
        .writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET",
          "access-control-allow-headers": "last-event-id",
        })
        .end();
      return;
    }
    const last = Number(req.headers["last-event-id"]);
    const from = typeof req.headers["last-event-id"] === "string" && Number.isInteger(last) && last >= 0 ? last + 1 : 0;
    res.writeHead(200, {
      ...cors,
      "content-type": "text/event-stream",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      "x-content-type-options": "nosniff",
    });
    res.flushHeaders();
    const send = (seq: number, line: string): void => void res.write(`id: ${seq}\ndata: ${line.trimEnd()}\n\n`);
    journal.since(from).forEach((line, i) => send(from + i, line));
    const stop = journal.listen(send);
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    keepAlive.unref();
    streams.add(res);
    res.on("close", () => {
      stop();
      clearInterval(keepAlive);
      streams.delete(res);
    });
  }

  return {
    handle,
    /** Ends every open feed stream (the proxy is stopping). */
    close(): void {
      for (const res of streams) res.end();
    },
  };
}
