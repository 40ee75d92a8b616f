import type { Problem } from "../problem.ts";
import { decodeBase64Text } from "../base64.ts";
import type { EntryTimes } from "../envelopes/inspectorV2Har.ts";
import { checkHeaders, harSpan, harStatus } from "./checks.ts";
import type { HarStream } from "./order.ts";
import { pageRequest } from "./page.ts";
import { CAPTURE_VERSION, pickHeaders } from "../record.ts";
import type { CaptureRecord, EndRecord, MessageRecord, ResponseRecord, StreamKind, Transport } from "../record.ts";
import { looksRelayed } from "../relay/find.ts";
import { splitSse } from "../sseEvents.ts";

/**
 * One HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/), as Chrome DevTools and Playwright write it,
 * turned into capture records. Only entries that look like MCP make message records; the mapping is in
 * docs/capture-format.md. What cannot be read is a problem naming the entry.
 */
type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface EntryContext {
  file: string;
  creator: string;
  /** Start of the previous entry, for an entry whose date is unreadable. */
  lastTime: number;
  problems: Problem[];
  /** An envelope exchange (Inspector v2's API, a decode rule's URL): MCP whatever its body says. */
  envelope: (url: string, method: string) => boolean;
}

/** What one entry made: its records, in the order made, and for an MCP exchange its times and its SSE stream. */
export interface EntryOut {
  drafts: CaptureRecord[];
  /** The entry's start, response head and end (envelopes/inspectorV2Har.ts). */
  times?: EntryTimes;
  /** The SSE response, whose event times are estimates (order.ts places them). */
  stream?: HarStream;
  /** Read before `log.creator`: records that named no page carry CREATOR_PENDING as their client (window.ts). */
  creatorPending?: true;
}

/** The records importHar makes of one entry object, before the schema check (for export.ts's check that an entry reads back as its records). */
export function entryRecords(entry: unknown, creator: string): CaptureRecord[] {
  const out: EntryOut = { drafts: [] };
  importEntry(entry, 0, { file: "", creator, lastTime: 0, problems: [], envelope: () => false }, out);
  return out.drafts;
}

/** Returns the entry's start time when it made records (or was at least readable). */
export function importEntry(raw: unknown, index: number, ctx: EntryContext, out: EntryOut): number | undefined {
  const { file, problems } = ctx;
  const problem = (message: string): void =>
    void problems.push({ file, entry: index, message: `entry ${index}: ${message}` });
  if (!isObj(raw)) {
    problem("not an object; skipped");
    return undefined;
  }
  const request = raw.request;
  const url = isObj(request) ? str(request.url) : undefined;
  if (!isObj(request) || url === undefined) {
    problem("no request.url; skipped");
    return undefined;
  }
  const method = (str(request.method) ?? "GET").toUpperCase();
  const response = isObj(raw.response) ? raw.response : undefined;
  const content = response && isObj(response.content) ? response.content : undefined;
  const requestHeaders = nameValues(request.headers);
  const responseHeaders = nameValues(response?.headers);
  const wsMessages = Array.isArray(raw._webSocketMessages) ? (raw._webSocketMessages as unknown[]) : undefined;
  const isWebSocket = raw._resourceType === "websocket" || wsMessages !== undefined || /^wss?:/i.test(url);
  const requestBody = isObj(request.postData) ? str(request.postData.text) : undefined;
  const mimeType = (str(content?.mimeType) ?? header(responseHeaders, "content-type") ?? "").toLowerCase();

  // Cheap tests first (most entries of a HAR are pages, scripts and images); a base64 body is decoded only when
  // nothing else told, and its decoding errors are reported only for entries that are MCP.
  const rawText = str(content?.text);
  const encoding = content?.encoding;
  const textual = mimeType === "" || /json|event-stream|^text\/|x-unknown/.test(mimeType);
  let decodeError: string | undefined;
  let responseText: string | undefined;
  if (rawText !== undefined && textual && (encoding === undefined || encoding === "")) responseText = rawText;
  const decode = (): void => {
    if (rawText === undefined || !textual || responseText !== undefined || decodeError !== undefined) return;
    if (encoding !== "base64") {
      if (encoding !== undefined && encoding !== "")
        decodeError = `unknown response content encoding ${JSON.stringify(encoding)}; body skipped`;
      return;
    }
    try {
      responseText = decodeBase64Text(rawText);
    } catch (error) {
      decodeError = `the base64 response body does not decode (${errorText(error)}); body skipped`;
    }
  };
  const looksLikeMcp =
    requestHeaders.some(([name]) => /^mcp-/i.test(name)) ||
    responseHeaders.some(([name]) => /^mcp-session-id$/i.test(name)) ||
    /(^|,)\s*mcp\s*(,|$)/i.test(header(requestHeaders, "sec-websocket-protocol") ?? "") ||
    requestBody?.includes('"jsonrpc"') === true ||
    (wsMessages?.some((m) => isObj(m) && typeof m.data === "string" && m.data.includes('"jsonrpc"')) ?? false) ||
    (decode(), responseText?.includes('"jsonrpc"') === true) ||
    ctx.envelope(url, method);
  // An elicitation relayed in an app's own shape (relay/find.ts): only its texts are kept, as the tap keeps them.
  const relayed =
    !looksLikeMcp &&
    ((requestBody !== undefined && looksRelayed(requestBody)) ||
      (wsMessages?.some((m) => isObj(m) && typeof m.data === "string" && looksRelayed(m.data)) ?? false) ||
      (responseText !== undefined && /json|event-stream/.test(mimeType) && looksRelayed(responseText)));
  if (!looksLikeMcp && !relayed) {
    return pageRequest(raw, index, url, method, ctx.creator, out.drafts, () => {
      decode();
      return responseText;
    });
  }
  decode();
  if (decodeError !== undefined) problem(decodeError);
  checkHeaders(request, "request", problem);
  checkHeaders(response, "response", problem);

  let start = Date.parse(str(raw.startedDateTime) ?? "");
  if (Number.isNaN(start)) {
    problem(
      `startedDateTime ${JSON.stringify(raw.startedDateTime)} is not a date; placed at the previous entry's time`,
    );
    start = ctx.lastTime;
  }
  const timings = isObj(raw.timings) ? raw.timings : {};
  const t = (name: string): number => harSpan(timings, name, `timings.${name}`, problem);
  // HAR 1.2: `ssl` is included in `connect`; `time` is the whole entry, and the sum of timings when absent.
  const headAt = start + t("blocked") + t("dns") + t("connect") + t("send") + t("wait");
  const endAt = Math.max(headAt + t("receive"), start + harSpan(raw, "time", "time", problem));
  out.times = { start, headAt, endAt };

  const transport: Transport = isWebSocket ? "websocket" : raw._resourceType === "eventsource" ? "eventsource" : "http";
  const exchange = `har:${index}`;
  const client = str(raw.pageref) ?? ctx.creator;
  // Each record is made whole from the members its entry gives all of them, not by members added after a spread:
  // the import makes a record per message, and that way is the cheap one (docs/benchmarks-har.md).
  // `_mcpSource`: our export's mark of an agent backend's exchange (records with `source: "backend"`).
  const made: Made =
    raw._mcpSource === "backend"
      ? (time) => ({
          v: CAPTURE_VERSION,
          seq: 0,
          time,
          transport,
          exchange,
          url,
          client,
          entry: index,
          source: "backend",
        })
      : (time) => ({ v: CAPTURE_VERSION, seq: 0, time, transport, exchange, url, client, entry: index });
  const push = (record: CaptureRecord): void => void out.drafts.push(record);
  const picked = pickHeaders(requestHeaders);

  if (requestBody !== undefined && requestBody !== "") {
    push(
      Object.assign(made(start), {
        kind: "message",
        direction: "c2s",
        stream: "body",
        method,
        ...(picked && { headers: picked }),
        text: requestBody,
      } as const) satisfies MessageRecord,
    );
  }

  const status = harStatus(response, problem);
  // 202 and 204 carry no body (MCP answers to notifications and responses get 202). The SDK clients cancel the
  // unread body of a 202, which Chromium logs as net::ERR_ABORTED after the head: not a failed exchange.
  const bodiless = status === 202 || status === 204;
  const error = bodiless && !rawText ? undefined : failure(response, status);
  if (status > 0) {
    const pickedResponse = pickHeaders(responseHeaders);
    const size = num(content?.size);
    const emptyBody = isWebSocket
      ? undefined
      : rawText !== undefined
        ? rawText === ""
        : size === 0 || bodiless
          ? true
          : undefined;
    push(
      Object.assign(made(headAt), {
        kind: "response",
        status,
        ...(pickedResponse && { headers: pickedResponse }),
        ...(emptyBody !== undefined && { emptyBody }),
      } as const) satisfies ResponseRecord,
    );
    // A request that did not finish has no body in the HAR (Playwright keeps none, e.g. for the GET stream the
    // client closed): routine, and the records say it (no emptyBody, an end with its error). A finished response
    // without its body means the HAR was saved without content: nothing of it can be checked.
    if (
      !isWebSocket &&
      rawText === undefined &&
      error === undefined &&
      (size ?? 0) > 0 &&
      /json|event-stream/.test(mimeType)
    ) {
      problem("the response body is not in the HAR (saved without content?); its messages are missing");
    }
  }

  let lastAt = endAt;
  if (wsMessages) {
    lastAt = Math.max(lastAt, webSocketMessages(wsMessages, made, method, headAt, problem, push));
  } else if (responseText !== undefined && responseText !== "") {
    if (mimeType.includes("event-stream")) {
      const stream: StreamKind =
        transport === "eventsource" ? "eventsource" : method === "GET" ? "get-sse" : "post-sse";
      const events: MessageRecord[] = [];
      sseMessages(
        responseText,
        made,
        method,
        stream,
        stream === "get-sse" ? picked : undefined,
        [headAt, endAt],
        problem,
        (record) => {
          push(record);
          if (record.kind === "message") events.push(record);
        },
      );
      if (events.length > 0) out.stream = { events, from: headAt, to: endAt };
    } else if (
      /json/.test(mimeType) ||
      ((mimeType === "" || mimeType === "x-unknown") && responseText.includes('"jsonrpc"'))
    ) {
      push(
        Object.assign(made(headAt), {
          kind: "message",
          direction: "s2c",
          stream: "body",
          method,
          text: responseText,
        } as const) satisfies MessageRecord,
      );
    }
  }

  // `_mcpOpen`: our export's mark of an exchange that had not ended when it was saved.
  if (raw._mcpOpen !== true)
    push(
      Object.assign(made(lastAt), { kind: "end", ...(error !== undefined && { error }) } as const) satisfies EndRecord,
    );
  if (relayed) keepRelays(out);
  return start;
}

/** A relay-only entry keeps the messages that may be relays, without exchange, head or end (as the tap records them). */
function keepRelays(out: EntryOut): void {
  const kept: CaptureRecord[] = [];
  for (const record of out.drafts) {
    if (record.kind !== "message" || !looksRelayed(record.text)) continue;
    delete record.exchange;
    kept.push(record);
  }
  out.drafts = kept;
  delete out.stream;
}

/** A new object of the members every record of an entry has, at `time`. */
type Made = (
  time: number,
) => Pick<CaptureRecord, "v" | "seq" | "transport" | "exchange" | "url" | "client" | "entry" | "time" | "source">;

/**
 * A HAR has no time per SSE event, only the first byte (`wait`) and the last (`receive`): the first event is placed
 * at the response head and the last at the end of the body, the others evenly between — a first guess, which
 * order.ts corrects by what must have happened.
 */
function sseMessages(
  body: string,
  made: Made,
  method: string,
  stream: StreamKind,
  headers: MessageRecord["headers"],
  [from, to]: [number, number],
  problem: (message: string) => void,
  push: (record: CaptureRecord) => void,
): void {
  const { events, unterminated } = splitSse(body);
  // An EventSource drops such an event, and a HAR saved while the stream was open ends this way: either way the
  // capture is incomplete, which the user should know before trusting the analysis.
  if (unterminated)
    problem("the event stream ends inside an event (no blank line after it); the partial event is kept");
  // Priming events (an id and empty data, 2025-11-25 resumability) carry no JSON-RPC text.
  const kept = events.filter((e) => e.data.trim() !== "");
  kept.forEach((e, i) => {
    push(
      Object.assign(made(kept.length > 1 ? from + ((to - from) * i) / (kept.length - 1) : from), {
        kind: "message",
        direction: "s2c",
        stream,
        method,
        ...(headers && { headers }),
        ...(e.id !== undefined && { eventId: e.id }),
        ...(e.event !== undefined && e.event !== "message" && { event: e.event }),
        text: e.data,
      } as const) satisfies MessageRecord,
    );
  });
}

/** Returns the time of the last message. */
function webSocketMessages(
  messages: unknown[],
  made: Made,
  method: string,
  fallback: number,
  problem: (message: string) => void,
  push: (record: CaptureRecord) => void,
): number {
  let last = fallback;
  messages.forEach((m, i) => {
    if (!isObj(m) || (m.type !== "send" && m.type !== "receive") || typeof m.data !== "string") {
      problem(`WebSocket message ${i} is not {type, time, opcode, data}; skipped`);
      return;
    }
    // Control frames (close, ping, pong) carry no messages.
    if (m.opcode !== undefined && m.opcode !== 1 && m.opcode !== 2) return;
    let text = m.data;
    if (m.opcode === 2) {
      try {
        text = decodeBase64Text(m.data);
      } catch (error) {
        problem(`binary WebSocket message ${i} is not base64 (${errorText(error)}); skipped`);
        return;
      }
    }
    // Chrome writes seconds since the epoch, Playwright milliseconds; 1e11 s is the year 5138, 1e11 ms 1973.
    const raw = num(m.time);
    const time = raw === undefined || raw < 0 ? last : raw < 1e11 ? raw * 1000 : raw;
    last = Math.max(last, time);
    const direction = m.type === "send" ? "c2s" : "s2c";
    push(
      Object.assign(made(time), {
        kind: "message",
        direction,
        stream: "websocket",
        method,
        text,
      } as const) satisfies MessageRecord,
    );
  });
  return last;
}

function failure(response: Obj | undefined, status: number): string | undefined {
  // Chrome writes `_error` ("net::ERR_ABORTED"), Playwright `_failureText`.
  const text = str(response?._error) ?? str(response?._failureText);
  if (text) return /ERR_ABORTED|abort/i.test(text) ? "abort" : text;
  return status > 0 ? undefined : "network";
}

function nameValues(headers: unknown): [string, string][] {
  if (!Array.isArray(headers)) return [];
  const out: [string, string][] = [];
  for (const h of headers as unknown[]) {
    if (isObj(h) && typeof h.name === "string" && typeof h.value === "string") out.push([h.name, h.value]);
  }
  return out;
}

function header(headers: [string, string][], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}
