/**
 * The value lists of the capture format's enums, defined once: record.ts builds its zod enums from them and
 * src/shared/tapRecord.ts its zod/mini ones (the content relay cannot carry full zod), so the two never differ.
 */
export const TRANSPORTS = ["http", "eventsource", "websocket", "postMessage", "stdio"] as const;

/**
 * Where a message travelled: an HTTP body (request or JSON response), a POST's SSE stream, the GET SSE stream, an
 * EventSource, a WebSocket, a window message, stdio — or `envelope`: inside a host's own envelope (a backend API,
 * a postMessage wrapper, a decode rule's JSON path), where no Streamable HTTP delivery facts are known.
 */
export const STREAM_KINDS = [
  "body",
  "post-sse",
  "get-sse",
  "eventsource",
  "websocket",
  "postMessage",
  "stdio",
  "envelope",
] as const;

export const DIRECTIONS = ["c2s", "s2c"] as const;

/** The request and response headers a capture keeps (lower-cased names); Authorization and cookies never are. */
export const KEPT_HEADERS = [
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "content-type",
  "last-event-id",
] as const;
export type KeptHeader = (typeof KEPT_HEADERS)[number];
