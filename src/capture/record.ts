import * as z from "zod/mini";
import { DIRECTIONS, KEPT_HEADERS, STREAM_KINDS, TRANSPORTS, type KeptHeader } from "./kinds.ts";

/**
 * A capture record: one thing the tap (or an importer) observed. Records are the only input of the engine.
 * `message` records carry one JSON-RPC text (a message or a batch) exactly as it travelled; `response` records
 * carry the HTTP status and headers of an exchange; `end` records close an exchange or stream (with the error
 * when it failed). The JSONL capture format is one record per line (docs/capture-format.md).
 */
export const CAPTURE_VERSION = 1;

/** The largest time a JavaScript Date holds (ECMA-262 §21.4.1.1): 100,000,000 days either side of the epoch. */
export const MAX_TIME = 8.64e15;

export const Transport = z.enum(TRANSPORTS);
export type Transport = z.infer<typeof Transport>;

/** Where a message travelled (kinds.ts); `envelope`: inside a host's envelope, no HTTP delivery facts known. */
export const StreamKind = z.enum(STREAM_KINDS);
export type StreamKind = z.infer<typeof StreamKind>;

/** c2s: client to server (a POST body, a frame the page sent); s2c: server to client. */
export const Direction = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof Direction>;

/** The headers that matter (kinds.ts KEPT_HEADERS), lower-cased names. Authorization and cookie values are never kept. */
export const Headers = z.object(
  Object.fromEntries(KEPT_HEADERS.map((name) => [name, z.optional(z.string())])) as {
    [K in KeptHeader]: z.ZodMiniOptional<z.ZodMiniString>;
  },
);
export type Headers = z.infer<typeof Headers>;
export const keptHeaders: readonly KeptHeader[] = KEPT_HEADERS;

const base = {
  v: z._default(z.literal(CAPTURE_VERSION), CAPTURE_VERSION),
  /** Position in the capture, 0-based and increasing; the engine reports findings against it. */
  seq: z.int().check(z.nonnegative()),
  /** Milliseconds since the epoch (fractions allowed), within the range of a JavaScript Date (±8.64e15). */
  time: z.number().check(z.gte(-MAX_TIME), z.lte(MAX_TIME)),
  transport: Transport,
  /** The HTTP exchange (request + response) or the stream/socket this record belongs to. */
  exchange: z.optional(z.string()),
  /** The endpoint URL (HTTP), the EventSource or WebSocket URL, or the postMessage origin. */
  url: z.optional(z.string()),
  /** Who the client is: the page origin (live) or the HAR page; separates stateless clients on one endpoint. */
  client: z.optional(z.string()),
  /** HAR entry index, when imported from HAR. */
  entry: z.optional(z.int().check(z.nonnegative())),
  /**
   * Which wire the record was seen on: absent for the page's own traffic (the tap, a HAR saved in the page);
   * `backend` for an agent backend's MCP wire, recorded by `mcp-elicit proxy`.
   */
  source: z.optional(z.enum(["backend"])),
  /**
   * The frame whose tap saw the record and that frame's origin, as the browser told the extension's worker
   * (`sender.frameId`, `sender.origin` or `sender.url`): 0 is the top frame. Never the page's word.
   */
  frame: z.optional(z.int().check(z.nonnegative())),
  frameOrigin: z.optional(z.string()),
};

export const MessageRecord = z.object({
  ...base,
  kind: z.literal("message"),
  direction: Direction,
  stream: StreamKind,
  /** HTTP method of the exchange (POST, GET). */
  method: z.optional(z.string()),
  /** Request headers of the exchange (for c2s HTTP bodies and for the GET that opened a stream). */
  headers: z.optional(Headers),
  /** SSE event id, when the message came as an SSE event with an id. */
  eventId: z.optional(z.string()),
  /** SSE event type when not "message" (the HTTP+SSE transport's `endpoint` event carries the POST URL as text). */
  event: z.optional(z.string()),
  /** The raw text. */
  text: z.string(),
  /** Set when the tap cut the text at its size cap; the engine reports such a message instead of parsing it. */
  truncated: z.optional(z.int().check(z.nonnegative())),
  /**
   * The adapter that took the message out of a host's envelope (src/capture/envelopes): `inspector-v2`, `mcp-b`,
   * `generic`, `proxy` (Inspector v1's proxy query; the stream kind stays real) or `decode:<rule id>`.
   */
  envelope: z.optional(z.string()),
  /** The upstream MCP server when the capture names it (a proxy's `?url=`, a backend's connect config); the engine's server key. */
  server: z.optional(z.string()),
  /** Origin and path of the proxy or backend the message went through, shown beside the server. */
  via: z.optional(z.string()),
  /** The upstream's transport as the proxy or backend names it: `streamable-http`, `sse`, `stdio`, … */
  upstreamTransport: z.optional(z.string()),
});
export type MessageRecord = z.infer<typeof MessageRecord>;

export const ResponseRecord = z.object({
  ...base,
  kind: z.literal("response"),
  /** The HTTP status: a three-digit code (RFC 9110 §15), or 0 for a browser's opaque response. */
  status: z.int().check(z.gte(0), z.lte(999)),
  headers: z.optional(Headers),
  /** True when the body is empty (e.g. 202 Accepted). */
  emptyBody: z.optional(z.boolean()),
});
export type ResponseRecord = z.infer<typeof ResponseRecord>;

export const EndRecord = z.object({
  ...base,
  kind: z.literal("end"),
  /** Set when the exchange failed: "abort", "network", or a message. */
  error: z.optional(z.string()),
});
export type EndRecord = z.infer<typeof EndRecord>;

/**
 * Another HTTP request of the page, one that carried no MCP (HAR imports: a HAR holds every request of the page).
 * Only its method and its URL's origin and path are kept — no query, fragment, headers or bodies. The engine
 * checks them against URL-mode elicitations the user has not accepted (`url-no-prefetch`).
 */
export const PageRequestRecord = z.object({
  ...base,
  kind: z.literal("page-request"),
  method: z.string(),
  /**
   * From the JSON answer of an OAuth metadata document (`/.well-known/oauth-protected-resource…`,
   * `/.well-known/oauth-authorization-server…`, `…/.well-known/openid-configuration`): the few public fields
   * `url-not-mcp-authorization` needs, and nothing else of the answer.
   */
  metadata: z.optional(
    z.object({
      /** Protected Resource Metadata (RFC 9728): `resource` and `authorization_servers`. */
      resource: z.optional(z.string()),
      authorizationServers: z.optional(z.array(z.string())),
      /** Authorization Server Metadata (RFC 8414): `issuer` and `authorization_endpoint`. */
      issuer: z.optional(z.string()),
      authorizationEndpoint: z.optional(z.string()),
    }),
  ),
});
export type PageRequestRecord = z.infer<typeof PageRequestRecord>;

export const CaptureRecord = z.discriminatedUnion("kind", [
  MessageRecord,
  ResponseRecord,
  EndRecord,
  PageRequestRecord,
]);
export type CaptureRecord = z.infer<typeof CaptureRecord>;

/** Keeps only the headers that matter, in the schema's order (the last of a repeated name); drops Authorization and Cookie by construction. */
export function pickHeaders(all: Iterable<[string, string]>): Headers | undefined {
  let found: Map<string, string> | undefined;
  for (const [name, value] of all) {
    const key = name.toLowerCase();
    if ((keptHeaders as readonly string[]).includes(key)) (found ??= new Map()).set(key, value);
  }
  if (!found) return undefined;
  const out: Headers = {};
  for (const key of keptHeaders) {
    const value = found.get(key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export { originAndPath, originOf } from "./url.ts";
