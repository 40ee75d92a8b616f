import { httpUrl } from "../url.ts";
import type { Adapter, Draft, MessageDraft, Seen, Stamp, Tally } from "./types.ts";

/**
 * MCP Inspector v1's proxy (`@modelcontextprotocol/inspector-server` 1.0.3, build/index.js `createTransport`):
 * the page speaks Streamable HTTP (or HTTP+SSE) to the proxy, which opens the upstream named in its query —
 * `/mcp?url=<upstream>&transportType=streamable-http`, `/sse?url=<upstream>&transportType=sse`, or
 * `transportType=stdio&command=<cmd>&args=…&env=…`. Nothing is wrapped: the messages stay as they are, with their
 * real stream kinds, and are stamped with the upstream (`server`), the proxy (`via`) and the upstream transport,
 * so two upstreams behind one proxy are two servers.
 *
 * The HTTP+SSE `endpoint` event names the POST URL (`/message?sessionId=…`), which has no query of its own: the
 * stream's stamp is carried over to it.
 */
export const PROXY = "proxy";

const URL_CACHE = 256;

/** The proxy stamp a URL's query gives, or undefined. Only `url=` http(s) upstreams and stdio commands count. */
export function proxyStamp(url: string): (Stamp & { envelope: string }) | undefined {
  if (!url.includes("url=") && !url.includes("command=")) return undefined;
  const parsed = httpUrl(url);
  if (!parsed) return undefined;
  const query = parsed.searchParams;
  const transportType = query.get("transportType") ?? undefined;
  const upstream = query.get("url");
  const command = query.get("command")?.trim();
  const server =
    upstream !== null && httpUrl(upstream)
      ? upstream
      : transportType === "stdio" && command
        ? `stdio:${command}`
        : undefined;
  if (server === undefined) return undefined;
  return {
    envelope: PROXY,
    server,
    via: parsed.origin + parsed.pathname,
    ...(transportType !== undefined && { upstreamTransport: transportType }),
  };
}

export function createProxyQuery(): Adapter {
  const stamps = new Map<string, (Stamp & { envelope: string }) | undefined>();
  /** POST URLs named by an `endpoint` event of a proxied stream (full URL → the stream's stamp). */
  const endpoints = new Map<string, Stamp & { envelope: string }>();

  const stampOf = (url: string): (Stamp & { envelope: string }) | undefined => {
    const known = endpoints.get(url);
    if (known) return known;
    if (stamps.has(url)) return stamps.get(url);
    if (stamps.size >= URL_CACHE) stamps.clear();
    const stamp = proxyStamp(url);
    stamps.set(url, stamp);
    return stamp;
  };

  /** A proxied stream's `endpoint` event names the URL its POSTs go to, which carries no query: they get its stamp. */
  const endpointEvent = (record: MessageDraft, stamp: Stamp & { envelope: string }): void => {
    if (record.event !== "endpoint" || record.url === undefined) return;
    try {
      endpoints.set(new URL(record.text.trim(), record.url).href, stamp);
    } catch {
      // The engine reports the unusable endpoint.
    }
  };

  return {
    name: PROXY,
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      // Only messages carry the stamp (record.ts); heads and ends stay as they are.
      if (
        record.kind !== "message" ||
        record.url === undefined ||
        (record.transport !== "http" && record.transport !== "eventsource")
      )
        return undefined;
      const stamp = stampOf(record.url);
      if (!stamp) return undefined;
      endpointEvent(record, stamp);
      tally.found(PROXY);
      return [{ ...record, ...stamp }];
    },
    learn(record: MessageDraft): void {
      // The stamp a stored endpoint event got from its stream's URL: the stream's POSTs still have no query.
      if (record.envelope !== PROXY || record.url === undefined) return;
      const stamp = stampOf(record.url);
      if (stamp) endpointEvent(record, stamp);
    },
  };
}
