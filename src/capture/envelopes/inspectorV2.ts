import { httpUrl } from "../url.ts";
import { isJsonRpc } from "./jsonRpc.ts";
import {
  carried,
  isObj,
  NOT_JSON,
  type Adapter,
  type Draft,
  type MessageDraft,
  type Obj,
  type Seen,
  type Stamp,
  type Tally,
} from "./types.ts";

/**
 * MCP Inspector v2 (`@modelcontextprotocol/inspector` 2.x): its page never talks to the MCP server. It talks to
 * its own backend (clients/web/build/index.js of 2.12.0, the Hono app's `/api/mcp/*` handlers; the page's side is
 * RemoteClientTransport in the web bundle):
 *
 * - `POST …/api/mcp/connect` `{"config":{"type":"streamable-http","url":…},…}` → `{"sessionId":"<uuid>"}`
 *   (or `{"ok":false,"kind":"auth_challenge",…}`, `{"error":…}`);
 * - `POST …/api/mcp/send` `{"sessionId","message":<JSON-RPC>,"relatedRequestId"?,"headers"?,"protocolVersion"?}`
 *   → `{"ok":true}` once the answer to a request went out on the events stream (or `{"ok":false,…}`);
 * - `GET …/api/mcp/events?sessionId=…`, SSE: `event: <type>` and `data: {"type":<type>,"data":…}`, where type
 *   `message` carries a JSON-RPC message from the server and `fetch_request`, `stdio_log`, `transport_error`,
 *   `auth_challenge`, … are the backend's own reports (they hold upstream HTTP bodies: never MCP messages here);
 * - `…/disconnect`, `…/auth-state`: host calls.
 *
 * The carried messages keep the page's time; the server is the session's connect `config.url` (or `stdio:<command>`),
 * `via` the backend's `/api/mcp`, and one backend session is one exchange `iv2:<sessionId>` (the engine scopes
 * envelope messages by exchange: a reconnect is a new upstream session whose ids start again). Every other
 * record of these exchanges (wrappers, answers, HTTP heads and ends) is the host's and is dropped.
 */
export const INSPECTOR_V2 = "inspector-v2";

interface Api {
  /** Origin and path up to `/api/mcp`. */
  via: string;
  /** connect, send, events, disconnect, … */
  op: string;
  sessionId: string | undefined;
}

interface Upstream {
  server?: string;
  upstreamTransport?: string;
}

const API_PATH = /^(.*\/api\/mcp)\/([A-Za-z-]+)\/?$/;
/** The URL cache is cleared when it grows past this (a capture has a handful of distinct backend URLs). */
const URL_CACHE = 256;

/** The backend API a URL names, or undefined. A substring test keeps every other URL from being parsed. */
export function inspectorApi(url: string | undefined): Api | undefined {
  if (url === undefined || !url.includes("/api/mcp/")) return undefined;
  const parsed = httpUrl(url);
  const match = parsed && API_PATH.exec(parsed.pathname);
  if (!parsed || !match) return undefined;
  return {
    via: parsed.origin + match[1]!,
    op: match[2]!,
    sessionId: parsed.searchParams.get("sessionId") ?? undefined,
  };
}

/** What the connect config says of the upstream; never its headers, env or OAuth settings. */
function upstreamOf(config: Obj): Upstream {
  const type = typeof config.type === "string" ? config.type : undefined;
  const server =
    typeof config.url === "string"
      ? config.url
      : type === "stdio" && typeof config.command === "string"
        ? `stdio:${config.command}`
        : undefined;
  return { ...(server !== undefined && { server }), ...(type !== undefined && { upstreamTransport: type }) };
}

export function createInspectorV2(): Adapter {
  const urls = new Map<string, Api | undefined>();
  /** Connect requests awaiting their answer, by exchange. */
  const connecting = new Map<string, Upstream>();
  /** Backend sessions → the upstream their connect named. */
  const sessions = new Map<string, Upstream>();

  const apiOf = (url: string | undefined): Api | undefined => {
    if (url === undefined || !url.includes("/api/mcp/")) return undefined;
    if (urls.has(url)) return urls.get(url);
    if (urls.size >= URL_CACHE) urls.clear();
    const api = inspectorApi(url);
    urls.set(url, api);
    return api;
  };

  function message(
    record: MessageDraft,
    api: Api,
    sessionId: unknown,
    direction: "c2s" | "s2c",
    value: unknown,
  ): Draft[] {
    const session = typeof sessionId === "string" ? sessionId : api.sessionId;
    const upstream = session !== undefined ? sessions.get(session) : undefined;
    const stamp: Stamp & { envelope: string } = { envelope: INSPECTOR_V2, via: api.via, ...upstream };
    const text = value === undefined ? record.text : JSON.stringify(value);
    const out = carried(record, text, direction, stamp, session !== undefined ? `iv2:${session}` : undefined, api.via);
    // A body cut at the tap's cap cannot be unwrapped; kept whole, the engine reports it as cut.
    return [record.truncated !== undefined ? { ...out, truncated: record.truncated } : out];
  }

  return {
    name: INSPECTOR_V2,
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      if (record.kind === "page-request") return undefined;
      const api = apiOf(record.url);
      if (!api) return undefined;
      if (record.kind !== "message") {
        if (record.kind === "end" && record.exchange !== undefined) connecting.delete(record.exchange);
        return [];
      }
      const cut = record.truncated !== undefined;
      if (api.op === "events" && record.direction === "s2c") {
        // The SSE event type names the report; only `message` carries MCP.
        if (record.event !== undefined && record.event !== "message") return [];
        if (cut) return message(record, api, undefined, "s2c", undefined);
        if (record.text.trim() === "") return [];
        const json = seen.json();
        if (!isObj(json)) return (tally.unreadable(), []);
        if (json.type !== "message") return [];
        if (!isJsonRpc(json.data)) return (tally.unreadable(), []);
        tally.found(INSPECTOR_V2);
        return message(record, api, undefined, "s2c", json.data);
      }
      if (api.op === "send" && record.direction === "c2s") {
        if (cut) return message(record, api, undefined, "c2s", undefined);
        const json = seen.json();
        if (!isObj(json) || !isJsonRpc(json.message)) return (tally.unreadable(), []);
        tally.found(INSPECTOR_V2);
        return message(record, api, json.sessionId, "c2s", json.message);
      }
      if (api.op === "connect" && record.exchange !== undefined) {
        const json = seen.json();
        if (json === NOT_JSON) tally.unreadable();
        else if (record.direction === "c2s" && isObj(json) && isObj(json.config))
          connecting.set(record.exchange, upstreamOf(json.config));
        else if (record.direction === "s2c" && isObj(json) && typeof json.sessionId === "string") {
          sessions.set(json.sessionId, connecting.get(record.exchange) ?? {});
          connecting.delete(record.exchange);
        }
      }
      return [];
    },
    learn(record: MessageDraft): void {
      // A stored message of a backend session names its upstream: a woken worker's unwrapper never saw the connect.
      if (record.envelope !== INSPECTOR_V2 || !record.exchange?.startsWith("iv2:")) return;
      const session = record.exchange.slice("iv2:".length);
      const known = sessions.get(session);
      if (known?.server !== undefined && record.server === undefined) return;
      sessions.set(session, {
        ...(record.server !== undefined && { server: record.server }),
        ...(record.upstreamTransport !== undefined && { upstreamTransport: record.upstreamTransport }),
      });
    },
  };
}
