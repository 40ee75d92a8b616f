import { z } from "zod";
import { DIRECTIONS, STREAM_KINDS, TRANSPORTS } from "./kinds.ts";

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

/** The headers that matter, lower-cased names. Authorization and cookie values are never kept. */
export const Headers = z.object({
  "mcp-session-id": z.string().optional(),
  "mcp-protocol-version": z.string().optional(),
  "mcp-method": z.string().optional(),
  "mcp-name": z.string().optional(),
  "content-type": z.string().optional(),
  "last-event-id": z.string().optional(),
});
export type Headers = z.infer<typeof Headers>;
export const keptHeaders = Object.keys(Headers.shape) as (keyof Headers)[];

const base = {
  v: z.literal(CAPTURE_VERSION).default(CAPTURE_VERSION),
  /** Position in the capture, 0-based and increasing; the engine reports findings against it. */
  seq: z.number().int().nonnegative(),
  /** Milliseconds since the epoch (fractions allowed), within the range of a JavaScript Date (±8.64e15). */
  time: z.number().min(-MAX_TIME).max(MAX_TIME),
  transport: Transport,
  /** The HTTP exchange (request + response) or the stream/socket this record belongs to. */
  exchange: z.string().optional(),
  /** The endpoint URL (HTTP), the EventSource or WebSocket URL, or the postMessage origin. */
  url: z.string().optional(),
  /** Who the client is: the page origin (live) or the HAR page; separates stateless clients on one endpoint. */
  client: z.string().optional(),
  /** HAR entry index, when imported from HAR. */
  entry: z.number().int().nonnegative().optional(),
};

export const MessageRecord = z.object({
  ...base,
  kind: z.literal("message"),
  direction: Direction,
  stream: StreamKind,
  /** HTTP method of the exchange (POST, GET). */
  method: z.string().optional(),
  /** Request headers of the exchange (for c2s HTTP bodies and for the GET that opened a stream). */
  headers: Headers.optional(),
  /** SSE event id, when the message came as an SSE event with an id. */
  eventId: z.string().optional(),
  /** SSE event type when not "message" (the HTTP+SSE transport's `endpoint` event carries the POST URL as text). */
  event: z.string().optional(),
  /** The raw text. */
  text: z.string(),
  /** Set when the tap cut the text at its size cap; the engine reports such a message instead of parsing it. */
  truncated: z.number().int().nonnegative().optional(),
  /**
   * The adapter that took the message out of a host's envelope (src/capture/envelopes): `inspector-v2`, `mcp-b`,
   * `generic`, `proxy` (Inspector v1's proxy query; the stream kind stays real) or `decode:<rule id>`.
   */
  envelope: z.string().optional(),
  /** The upstream MCP server when the capture names it (a proxy's `?url=`, a backend's connect config); the engine's server key. */
  server: z.string().optional(),
  /** Origin and path of the proxy or backend the message went through, shown beside the server. */
  via: z.string().optional(),
  /** The upstream's transport as the proxy or backend names it: `streamable-http`, `sse`, `stdio`, … */
  upstreamTransport: z.string().optional(),
});
export type MessageRecord = z.infer<typeof MessageRecord>;

export const ResponseRecord = z.object({
  ...base,
  kind: z.literal("response"),
  /** The HTTP status: a three-digit code (RFC 9110 §15), or 0 for a browser's opaque response. */
  status: z.number().int().min(0).max(999),
  headers: Headers.optional(),
  /** True when the body is empty (e.g. 202 Accepted). */
  emptyBody: z.boolean().optional(),
});
export type ResponseRecord = z.infer<typeof ResponseRecord>;

export const EndRecord = z.object({
  ...base,
  kind: z.literal("end"),
  /** Set when the exchange failed: "abort", "network", or a message. */
  error: z.string().optional(),
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
  metadata: z
    .object({
      /** Protected Resource Metadata (RFC 9728): `resource` and `authorization_servers`. */
      resource: z.string().optional(),
      authorizationServers: z.array(z.string()).optional(),
      /** Authorization Server Metadata (RFC 8414): `issuer` and `authorization_endpoint`. */
      issuer: z.string().optional(),
      authorizationEndpoint: z.string().optional(),
    })
    .optional(),
});
export type PageRequestRecord = z.infer<typeof PageRequestRecord>;

export const CaptureRecord = z.discriminatedUnion("kind", [MessageRecord, ResponseRecord, EndRecord, PageRequestRecord]);
export type CaptureRecord = z.infer<typeof CaptureRecord>;
export type CaptureRecordInput = z.input<typeof CaptureRecord>;

/** Keeps only the headers that matter; drops Authorization and Cookie by construction. */
export function pickHeaders(all: Iterable<[string, string]>): Headers | undefined {
  let out: Headers | undefined;
  for (const [name, value] of all) {
    const key = name.toLowerCase() as keyof Headers;
    if (keptHeaders.includes(key)) (out ??= {})[key] = value;
  }
  return out;
}

export { httpUrl, originAndPath, originOf } from "./url.ts";
