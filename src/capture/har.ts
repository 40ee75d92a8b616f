import type { Problem } from "./problem.ts";
import { decodeBase64Text } from "./base64.ts";
import { createUnwrapper, envelopeEndpoints, type DecodeRule, type Draft } from "./envelopes/index.ts";
import { settleInspectorSessions, type EntryTimes } from "./envelopes/inspectorV2Har.ts";
import { checkHeaders, harSpan, harStatus, validateRecords } from "./harChecks.ts";
import { salvageHar } from "./harSalvage.ts";
import { CAPTURE_VERSION, CaptureRecord as CaptureRecordSchema, originAndPath, pickHeaders } from "./record.ts";
import type { CaptureRecord, EndRecord, MessageRecord, PageRequestRecord, ResponseRecord, StreamKind, Transport } from "./record.ts";
import { placeStreamEvents, type HarStream } from "./harOrder.ts";
import { splitSse } from "./sseEvents.ts";
import { unreadableText } from "./textChecks.ts";

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as Chrome DevTools and Playwright write it, turned
 * into capture records. Only entries that look like MCP make records; the mapping is in docs/capture-format.md.
 * Never throws: what cannot be read is reported as a problem and the rest is still imported.
 */
export interface CaptureImport {
  records: CaptureRecord[];
  problems: Problem[];
}

export interface ImportOptions {
  /** Decode-as rules (src/capture/envelopes): traffic to their URLs carries MCP at their pointers. */
  rules?: readonly DecodeRule[];
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
const num = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface HarLog {
  entries: unknown[];
  creator?: unknown;
  /** Indexes whose entry text would not parse (salvaged HARs), with the reason. */
  broken: Map<number, string>;
  /** `log._mcpRecords` of our own export: records of transports a HAR has no place for. */
  extra: unknown[];
}

export function importHar(text: string, file: string, options: ImportOptions = {}): CaptureImport {
  const refused = unreadableText(text, file);
  if (refused) return { records: [], problems: [refused] };
  const problems: Problem[] = [];
  const log = readLog(text, file, problems);
  if (!log) return { records: [], problems };
  const creator = isObj(log.creator) ? [str(log.creator.name), str(log.creator.version)].filter(Boolean).join(" ") : "";
  const drafts: CaptureRecord[] = [];
  // Entries in HAR order through the envelope stage (an Inspector v2 connect comes before the sends it names).
  const unwrap = createUnwrapper(options.rules ? { rules: options.rules } : {});
  const unwrapped = (draft: Draft): void => {
    for (const out of unwrap.push(draft)) drafts.push(out === draft ? (draft as CaptureRecord) : ({ ...out, v: CAPTURE_VERSION, seq: 0 } as CaptureRecord));
  };
  // Our own HAR export keeps records HAR cannot hold (postMessage, the HTTP+SSE EventSource, stdio, enveloped
  // messages) verbatim; first, so that a proxied EventSource's endpoint event is known before the POSTs it names.
  for (const [i, raw] of log.extra.entries()) {
    const parsed = CaptureRecordSchema.safeParse(raw);
    if (parsed.success) unwrapped(parsed.data);
    else problems.push({ file, message: `log._mcpRecords[${i}] is not a capture record (${parsed.error.issues[0]?.message ?? "invalid"}); skipped` });
  }
  const times = new Map<number, EntryTimes>();
  const ctx = { file, creator, lastTime: 0, drafts: [] as CaptureRecord[], problems, envelope: envelopeEndpoints(options.rules), times, streams: [] as HarStream[] };
  for (let index = 0; index < log.entries.length; index++) {
    const broken = log.broken.get(index);
    if (broken !== undefined) {
      problems.push({ file, entry: index, message: `entry ${index} is not valid JSON (${broken}); skipped` });
      continue;
    }
    ctx.drafts = [];
    try {
      const started = importEntry(log.entries[index], index, ctx);
      if (started !== undefined) ctx.lastTime = started;
    } catch (error) {
      problems.push({ file, entry: index, message: `entry ${index} could not be imported (${errorText(error)}); skipped` });
      continue;
    }
    ctx.drafts.forEach(unwrapped);
  }
  const unreadable = unwrap.counts().unreadable;
  if (unreadable) problems.push({ file, message: `${unreadable} envelope bod${unreadable > 1 ? "ies" : "y"} (host API calls or wrappers that should carry MCP) could not be read; skipped` });
  // An SSE event's time is a guess: placed by what must have happened before the records are ordered.
  placeStreamEvents(drafts, ctx.streams);
  const inspector = settleInspectorSessions(drafts, times);
  for (const { session, messages } of inspector.unheard) {
    problems.push({
      file,
      message: `MCP Inspector v2 session ${session}: the HAR holds no body of its events stream (/api/mcp/events; a HAR keeps none of a stream still open or cut when it was saved), so none of the server's messages; its ${messages} client message${messages === 1 ? " is" : "s are"} left out rather than checked without them (the extension's live capture sees the stream)`,
    });
  }
  const records = validateRecords(inspector.records, file, problems);
  // Stable (ES2019): same-time records keep the order they were made in, entries their HAR order.
  records.sort((a, b) => a.time - b.time);
  records.forEach((record, seq) => (record.seq = seq));
  return { records, problems };
}

function readLog(text: string, file: string, problems: Problem[]): HarLog | null {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return salvage(body, file, errorText(error), problems);
  }
  const log = isObj(parsed) && isObj(parsed.log) ? parsed.log : undefined;
  if (!log || !Array.isArray(log.entries)) {
    problems.push({ file, message: "not a HAR file: no log.entries array" });
    return null;
  }
  return { entries: log.entries, creator: log.creator, broken: new Map(), extra: Array.isArray(log._mcpRecords) ? log._mcpRecords : [] };
}

function salvage(text: string, file: string, reason: string, problems: Problem[]): HarLog | null {
  if (!/^\s*\{/.test(text)) {
    problems.push({ file, message: `not a HAR file: not JSON (${reason})` });
    return null;
  }
  const found = salvageHar(text);
  if (!found.foundEntries) {
    problems.push({ file, message: `not a HAR file: ${found.truncated ? "truncated" : "invalid JSON"} before any log.entries (${reason})` });
    return null;
  }
  const complete = found.entries.filter(() => true).length; // filter skips the holes
  const where = found.cutInEntry !== null ? ` inside entry ${found.cutInEntry}` : "";
  problems.push({
    file,
    ...(found.cutInEntry !== null && { entry: found.cutInEntry }),
    message: found.truncated
      ? `truncated HAR: the file ends${where} (${reason}); imported the ${complete} complete entries before the cut`
      : `invalid JSON in the HAR (${reason}); imported the entries that parse on their own`,
  });
  const broken = new Map(found.brokenEntries.map((b) => [b.index, b.error] as const));
  const entries = found.entries;
  // Broken entries past the last good one still need a slot so they are reported.
  for (const b of found.brokenEntries) if (b.index >= entries.length) entries.length = b.index + 1;
  return { entries, creator: found.creator, broken, extra: [] };
}

/** The records importHar makes of one entry object, before the schema check (for harExport's check that an entry reads back as its records). */
export function entryRecords(entry: unknown, creator: string): CaptureRecord[] {
  const drafts: CaptureRecord[] = [];
  const problems: Problem[] = [];
  importEntry(entry, 0, { file: "", creator, lastTime: 0, drafts, problems, envelope: () => false, times: new Map(), streams: [] });
  return drafts;
}

interface EntryContext {
  file: string;
  creator: string;
  /** Start of the previous entry, for an entry whose date is unreadable. */
  lastTime: number;
  drafts: CaptureRecord[];
  problems: Problem[];
  /** An envelope exchange (Inspector v2's API, a decode rule's URL): MCP whatever its body says. */
  envelope: (url: string, method: string) => boolean;
  /** Each imported entry's start, response head and end (envelopes/inspectorV2Times.ts). */
  times: Map<number, EntryTimes>;
  /** The SSE responses, whose event times are estimates (harOrder.ts places them). */
  streams: HarStream[];
}

/** Returns the entry's start time when it made records (or was at least readable). */
function importEntry(raw: unknown, index: number, ctx: EntryContext): number | undefined {
  const { file, problems } = ctx;
  const problem = (message: string): void => void problems.push({ file, entry: index, message: `entry ${index}: ${message}` });
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
      if (encoding !== undefined && encoding !== "") decodeError = `unknown response content encoding ${JSON.stringify(encoding)}; body skipped`;
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
  if (!looksLikeMcp) {
    return pageRequest(raw, index, url, method, ctx, () => {
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
    problem(`startedDateTime ${JSON.stringify(raw.startedDateTime)} is not a date; placed at the previous entry's time`);
    start = ctx.lastTime;
  }
  const timings = isObj(raw.timings) ? raw.timings : {};
  const t = (name: string): number => harSpan(timings, name, `timings.${name}`, problem);
  // HAR 1.2: `ssl` is included in `connect`; `time` is the whole entry, and the sum of timings when absent.
  const headAt = start + t("blocked") + t("dns") + t("connect") + t("send") + t("wait");
  const endAt = Math.max(headAt + t("receive"), start + harSpan(raw, "time", "time", problem));
  ctx.times.set(index, { start, headAt, endAt });

  const transport: Transport = isWebSocket ? "websocket" : raw._resourceType === "eventsource" ? "eventsource" : "http";
  const common = {
    v: CAPTURE_VERSION,
    seq: 0,
    transport,
    exchange: `har:${index}`,
    url,
    client: str(raw.pageref) ?? ctx.creator,
    entry: index,
  } as const;
  const push = (record: CaptureRecord): void => void ctx.drafts.push(record);
  const picked = pickHeaders(requestHeaders);

  if (requestBody !== undefined && requestBody !== "") {
    push({ ...common, time: start, kind: "message", direction: "c2s", stream: "body", method, text: requestBody, ...(picked && { headers: picked }) } satisfies MessageRecord);
  }

  const status = harStatus(response, problem);
  // 202 and 204 carry no body (MCP answers to notifications and responses get 202). The SDK clients cancel the
  // unread body of a 202, which Chromium logs as net::ERR_ABORTED after the head: not a failed exchange.
  const bodiless = status === 202 || status === 204;
  const error = bodiless && !rawText ? undefined : failure(response, status);
  if (status > 0) {
    const pickedResponse = pickHeaders(responseHeaders);
    const size = num(content?.size);
    const emptyBody = isWebSocket ? undefined : rawText !== undefined ? rawText === "" : size === 0 || bodiless ? true : undefined;
    push({
      ...common,
      time: headAt,
      kind: "response",
      status,
      ...(pickedResponse && { headers: pickedResponse }),
      ...(emptyBody !== undefined && { emptyBody }),
    } satisfies ResponseRecord);
    // A request that did not finish has no body in the HAR (Playwright keeps none, e.g. for the GET stream the
    // client closed): routine, and the records say it (no emptyBody, an end with its error). A finished response
    // without its body means the HAR was saved without content: nothing of it can be checked.
    if (!isWebSocket && rawText === undefined && error === undefined && (size ?? 0) > 0 && /json|event-stream/.test(mimeType)) {
      problem("the response body is not in the HAR (saved without content?); its messages are missing");
    }
  }

  let lastAt = endAt;
  if (wsMessages) {
    lastAt = Math.max(lastAt, webSocketMessages(wsMessages, { ...common, method }, headAt, problem, push));
  } else if (responseText !== undefined && responseText !== "") {
    if (mimeType.includes("event-stream")) {
      const stream: StreamKind = transport === "eventsource" ? "eventsource" : method === "GET" ? "get-sse" : "post-sse";
      const events: MessageRecord[] = [];
      sseMessages(responseText, { ...common, method }, stream, stream === "get-sse" ? picked : undefined, [headAt, endAt], problem, (record) => {
        push(record);
        if (record.kind === "message") events.push(record);
      });
      if (events.length > 0) ctx.streams.push({ events, from: headAt, to: endAt });
    } else if (/json/.test(mimeType) || ((mimeType === "" || mimeType === "x-unknown") && responseText.includes('"jsonrpc"'))) {
      push({ ...common, time: headAt, kind: "message", direction: "s2c", stream: "body", method, text: responseText } satisfies MessageRecord);
    }
  }

  // `_mcpOpen`: our export's mark of an exchange that had not ended when it was saved.
  if (raw._mcpOpen !== true) push({ ...common, time: lastAt, kind: "end", ...(error !== undefined && { error }) } satisfies EndRecord);
  return start;
}

type Common = Omit<MessageRecord, "kind" | "time" | "direction" | "stream" | "text">;

/**
 * A HAR has no time per SSE event, only the first byte (`wait`) and the last (`receive`): the first event is placed
 * at the response head and the last at the end of the body, the others evenly between — a first guess, which
 * harOrder.ts corrects by what must have happened.
 */
function sseMessages(
  body: string,
  common: Common,
  stream: StreamKind,
  headers: MessageRecord["headers"],
  [from, to]: [number, number],
  problem: (message: string) => void,
  push: (record: CaptureRecord) => void,
): void {
  const { events, unterminated } = splitSse(body);
  // An EventSource drops such an event, and a HAR saved while the stream was open ends this way: either way the
  // capture is incomplete, which the user should know before trusting the analysis.
  if (unterminated) problem("the event stream ends inside an event (no blank line after it); the partial event is kept");
  // Priming events (an id and empty data, 2025-11-25 resumability) carry no JSON-RPC text.
  const kept = events.filter((e) => e.data.trim() !== "");
  kept.forEach((e, i) => {
    push({
      ...common,
      time: kept.length > 1 ? from + ((to - from) * i) / (kept.length - 1) : from,
      kind: "message",
      direction: "s2c",
      stream,
      text: e.data,
      ...(headers && { headers }),
      ...(e.id !== undefined && { eventId: e.id }),
      ...(e.event !== undefined && e.event !== "message" && { event: e.event }),
    } satisfies MessageRecord);
  });
}

/** Returns the time of the last message. */
function webSocketMessages(messages: unknown[], common: Common, fallback: number, problem: (message: string) => void, push: (record: CaptureRecord) => void): number {
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
    push({ ...common, time, kind: "message", direction, stream: "websocket", text } satisfies MessageRecord);
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

/**
 * An entry that carried no MCP: a `page-request` record with its method and its URL's origin and path only (no
 * query, fragment, headers or bodies), at its start — what `url-no-prefetch` needs. Entries with an unreadable date
 * or a URL that is not http(s) make none.
 */
function pageRequest(raw: Record<string, unknown>, index: number, url: string, method: string, ctx: EntryContext, body: () => string | undefined): number | undefined {
  const start = Date.parse(str(raw.startedDateTime) ?? "");
  const at = originAndPath(url);
  if (Number.isNaN(start) || at === undefined) return undefined;
  const metadata = OAUTH_METADATA.test(at) ? oauthMetadata(body()) : undefined;
  ctx.drafts.push({
    v: CAPTURE_VERSION,
    seq: 0,
    time: start,
    transport: "http",
    url: at,
    client: str(raw.pageref) ?? ctx.creator,
    entry: index,
    kind: "page-request",
    method,
    ...(metadata && { metadata }),
  } satisfies PageRequestRecord);
  return start;
}

/** The well-known paths of OAuth metadata (RFC 9728 §3, RFC 8414 §3, OpenID Connect Discovery), path suffixes included. */
const OAUTH_METADATA = /\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)(\/|$)/;

/** The public fields `url-not-mcp-authorization` needs from a metadata document's JSON; undefined if none. */
function oauthMetadata(text: string | undefined): PageRequestRecord["metadata"] {
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(doc)) return undefined;
  const servers = Array.isArray(doc.authorization_servers) ? doc.authorization_servers.filter((s): s is string => typeof s === "string").slice(0, 32) : undefined;
  const out: NonNullable<PageRequestRecord["metadata"]> = {
    ...(typeof doc.resource === "string" && { resource: doc.resource }),
    ...(servers?.length && { authorizationServers: servers }),
    ...(typeof doc.issuer === "string" && { issuer: doc.issuer }),
    ...(typeof doc.authorization_endpoint === "string" && { authorizationEndpoint: doc.authorization_endpoint }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}
