import { looksJsonRpc } from "./mcp.ts";
import {
  endpointOf,
  JSONParse,
  JSONStringify,
  ReflectGetOwnPropertyDescriptor,
  StringPrototypeIncludes,
  StringPrototypeSlice,
} from "./primordials.ts";
import type { SseEventSeen } from "./sse.ts";

/**
 * The backend API of MCP Inspector v2 (`@modelcontextprotocol/inspector` 2.x, core/mcp/remote/remoteClientTransport.ts):
 * its page never speaks to the MCP server. `POST …/api/mcp/connect` names the upstream server
 * (`{"config":{"type","url"},…}` → `{sessionId}`), `POST …/api/mcp/send` carries each client message
 * (`{"sessionId","message":<JSON-RPC>}` → `{"ok":true}`), and `GET …/api/mcp/events?sessionId=` (a fetch read with
 * a reader, no MCP header, no Accept) streams `event: message` events whose data is `{"type":"message","data":<JSON-RPC>}`
 * among others. The tap records these raw; the worker's envelope stage (src/capture/envelopes) unwraps them.
 */
export type HostApi = "connect" | "send" | "events";

const API = "/api/mcp/";
const ENDPOINTS: [HostApi, string, string][] = [
  ["connect", "/api/mcp/connect", "POST"],
  ["send", "/api/mcp/send", "POST"],
  ["events", "/api/mcp/events", "GET"],
];

/** Which of those a request is: one substring test for every other request. */
export function hostApiOf(url: string, method: string): HostApi | undefined {
  if (!StringPrototypeIncludes(url, API)) return undefined;
  const endpoint = endpointOf(url);
  for (let i = 0; i < ENDPOINTS.length; i++) {
    // Indexed, not destructured: array destructuring calls Array.prototype[Symbol.iterator], which the page can patch.
    const entry = ENDPOINTS[i]!;
    const api = entry[0];
    const path = entry[1];
    const wanted = entry[2];
    if (
      method === wanted &&
      endpoint.length > path.length &&
      StringPrototypeSlice(endpoint, endpoint.length - path.length) === path
    )
      return api;
  }
  return undefined;
}

/**
 * Of the events stream, only the MCP messages: its other events (`fetch_request` carries the backend's upstream
 * requests with their headers, `stdio_log` a server's stderr) are the host's, and not the tap's to keep.
 */
export const isHostMessageEvent = (event: SseEventSeen): boolean =>
  (event.event === undefined || event.event === "message") && looksJsonRpc(event.data);

/**
 * What the tap keeps of a connect body: the upstream's `config.type`, `config.url` and `config.command`. The rest
 * (`authState` with OAuth tokens, `settings.headers`, a stdio server's `args` and `env`) can hold credentials, and
 * no rule needs it. Undefined when the body is not such JSON.
 */
export function connectSummary(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSONParse(text);
  } catch {
    return undefined;
  }
  const config = own(body, "config");
  if (config === null || typeof config !== "object") return undefined;
  let out = "";
  const keys = ["type", "url", "command"];
  for (let i = 0; i < keys.length; i++) {
    const value = own(config, keys[i]!);
    if (typeof value === "string") out += `${out === "" ? "" : ","}${JSONStringify(keys[i]!)}:${JSONStringify(value)}`;
  }
  return `{"config":{${out}}}`;
}

/** A JSON.parse result's own member (never a getter a page put on Object.prototype). */
function own(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? ReflectGetOwnPropertyDescriptor(value, key)?.value : undefined;
}
