import type { Clock } from "./exportClock.ts";
import type { CaptureRecord, EndRecord, Headers, MessageRecord, ResponseRecord } from "../record.ts";

/**
 * One HAR entry of one exchange (export.ts): HTTP with its request, response and body (SSE events re-framed), or
 * a WebSocket with Chrome's `_webSocketMessages`. Times come from the clock (exportClock.ts), so that importHar
 * reads the records back in capture order. The mapping is in docs/capture-format.md, "Export and redaction".
 */
export type Json = Record<string, unknown>;
export interface Built {
  entry: Json;
  start: number;
  /** Capture position of the exchange's first record: orders entries that start in the same millisecond. */
  first: number;
}

/**
 * Added to a request that has nothing else marking it as MCP (a GET stream answered 405 before any session),
 * so importHar does not skip it; importHar keeps only the six headers of record.ts, so it never reaches a record.
 */
const MARKER = { name: "mcp-inspector-export", value: "1" };
/** A text's length in UTF-8 bytes, as TextEncoder would encode it (a lone surrogate as U+FFFD), without encoding it. */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 UTF-16 units, 4 bytes
      i++;
    } else n += 2; // 3 bytes, a lone surrogate's U+FFFD too
  }
  return n;
}

export function httpEntry(clock: Clock, group: CaptureRecord[], indexes: number[], url: string): Built {
  const messages = group.filter((r): r is MessageRecord => r.kind === "message");
  const body = messages.find((m) => m.direction === "c2s");
  const incoming = messages.filter((m) => m.direction === "s2c");
  const response = group.find((r): r is ResponseRecord => r.kind === "response");
  const end = group.find((r): r is EndRecord => r.kind === "end");
  const method = messages.find((m) => m.method !== undefined)?.method ?? (body ? "POST" : "GET");
  // Request headers sit on the c2s body, or on the events of the GET that opened a stream.
  const requestHeaders = body?.headers ?? incoming.find((m) => m.headers)?.headers;

  // Capture positions, for the clock.
  const position = new Map(group.map((r, i) => [r, indexes[i]!]));
  const start = body ? clock.at(position.get(body)!) : Math.floor(group[0]!.time);
  const events = incoming.map((m) => position.get(m)!);
  const { headAt, endAt } = clock.span(
    start,
    response?.time,
    events,
    end && position.get(end),
    group[group.length - 1]!.time,
  );

  const sse = incoming.some((m) => m.stream !== "body");
  let content: Json;
  if (incoming.length) {
    const text = sse ? incoming.map(sseEvent).join("") : incoming.map((m) => m.text).join("\n");
    content = { size: utf8Length(text), mimeType: sse ? "text/event-stream" : "application/json", text };
  } else if (response?.emptyBody === true) {
    content = { size: 0, mimeType: response.headers?.["content-type"] ?? "x-unknown", text: "" };
  } else if (response?.emptyBody === false) {
    // A body that carried no message (a stream closed before its first event): an SSE comment says "not empty".
    const stream = /event-stream/i.test(response.headers?.["content-type"] ?? "");
    content = stream
      ? { size: 3, mimeType: "text/event-stream", text: ":\n\n" }
      : { size: 1, mimeType: "text/plain", text: "\n" };
  } else {
    content = { size: -1, mimeType: response?.headers?.["content-type"] ?? "x-unknown" };
  }

  const reqHeaders = pairs(requestHeaders);
  const resHeaders = pairs(response?.headers);
  const looksLikeMcp =
    reqHeaders.some((h) => /^mcp-/i.test(h.name)) ||
    resHeaders.some((h) => h.name === "mcp-session-id") ||
    messages.some((m) => m.text.includes('"jsonrpc"'));
  if (!looksLikeMcp) reqHeaders.push(MARKER);

  const entry: Json = {
    ...(group[0]!.client !== undefined && { pageref: group[0]!.client }),
    // An agent backend's exchange (mcp-elicit proxy): the import gives its records their source back.
    ...(group[0]!.source !== undefined && { _mcpSource: group[0]!.source }),
    startedDateTime: iso(start),
    time: endAt - start,
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: reqHeaders,
      queryString: queryString(url),
      ...(body && { postData: { mimeType: body.headers?.["content-type"] ?? "application/json", text: body.text } }),
      headersSize: -1,
      bodySize: body ? utf8Length(body.text) : 0,
    },
    response: harResponse(response, resHeaders, content, end),
    cache: {},
    timings: harTimings(start, headAt, endAt),
    _resourceType: "fetch",
  };
  return { entry, start, first: indexes[0]! };
}

export function webSocketEntry(group: CaptureRecord[], indexes: number[], url: string): Built {
  const messages = group.filter((r): r is MessageRecord => r.kind === "message");
  const response = group.find((r): r is ResponseRecord => r.kind === "response");
  const end = group.find((r): r is EndRecord => r.kind === "end");
  const start = Math.floor(group[0]!.time);
  const headAt = Math.max(start, response?.time ?? start);
  const endAt = Math.max(headAt, end?.time ?? group[group.length - 1]!.time);
  const reqHeaders = messages.some((m) => m.text.includes('"jsonrpc"')) ? [] : [MARKER];
  const entry: Json = {
    ...(group[0]!.client !== undefined && { pageref: group[0]!.client }),
    // An agent backend's exchange (mcp-elicit proxy): the import gives its records their source back.
    ...(group[0]!.source !== undefined && { _mcpSource: group[0]!.source }),
    startedDateTime: iso(start),
    time: endAt - start,
    request: {
      method: "GET",
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: reqHeaders,
      queryString: queryString(url),
      headersSize: -1,
      bodySize: 0,
    },
    response: harResponse(response, pairs(response?.headers), { size: 0, mimeType: "x-unknown" }, end),
    cache: {},
    timings: harTimings(start, headAt, endAt),
    _resourceType: "websocket",
    // importHar reads times below 1e11 as seconds (Chrome) and above as milliseconds (Playwright); epoch
    // milliseconds are written as such, exactly, and small synthetic clocks as seconds.
    _webSocketMessages: messages.map((m) => ({
      type: m.direction === "c2s" ? "send" : "receive",
      time: m.time >= 1e11 ? m.time : m.time / 1000,
      opcode: 1,
      data: m.text,
    })),
  };
  return { entry, start, first: indexes[0]! };
}

/** An entry's `response`, HTTP and WebSocket alike (sizes unknown). */
function harResponse(
  response: ResponseRecord | undefined,
  headers: { name: string; value: string }[],
  content: Json,
  end: EndRecord | undefined,
): Json {
  return {
    status: response?.status ?? 0,
    statusText: "",
    httpVersion: "HTTP/1.1",
    cookies: [],
    headers,
    content,
    redirectURL: "",
    headersSize: -1,
    bodySize: -1,
    // Chrome's name for a failed request; importHar reads it back into the end record.
    ...(end?.error !== undefined && { _error: end.error }),
  };
}

const harTimings = (start: number, headAt: number, endAt: number): Json => ({
  blocked: -1,
  dns: -1,
  connect: -1,
  ssl: -1,
  send: 0,
  wait: headAt - start,
  receive: endAt - headAt,
});

const LINE_BREAK = /[\r\n]/;
/** One SSE event (HTML § 9.2.6): `data:` per line, so a text with line breaks reads back joined by "\n". */
function sseEvent(m: MessageRecord): string {
  let out = "";
  if (m.eventId !== undefined) out += `id: ${m.eventId}\n`;
  if (m.event !== undefined) out += `event: ${m.event}\n`;
  // Most texts are one line (JSON.stringify writes none of its own).
  if (!LINE_BREAK.test(m.text)) return `${out}data: ${m.text}\n\n`;
  for (const line of m.text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

function pairs(headers: Headers | undefined): { name: string; value: string }[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => (typeof value === "string" ? [{ name, value }] : []));
}

function queryString(url: string): { name: string; value: string }[] {
  const q = url.indexOf("?");
  if (q < 0) return [];
  const hash = url.indexOf("#", q);
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return url
    .slice(q + 1, hash < 0 ? undefined : hash)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0
        ? { name: decode(pair), value: "" }
        : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
    });
}
