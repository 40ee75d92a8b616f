import { entryRecords } from "./harEntry.ts";
import { CaptureRecord } from "./record.ts";
import type { EndRecord, Headers, MessageRecord, ResponseRecord } from "./record.ts";

/**
 * HAR 1.2 of a capture, written so that `importHar` (har.ts) reads back the same records: one entry per HTTP
 * exchange, WebSocket exchanges with Chrome's `_webSocketMessages`, and records HAR has no place for (postMessage,
 * the EventSource of the HTTP+SSE transport, stdio, messages taken out of a host's envelope) kept verbatim in
 * `log._mcpRecords`. The mapping and what HAR
 * cannot say (per-event times) are in docs/capture-format.md, "Export and redaction".
 */
type Json = Record<string, unknown>;
interface Built {
  entry: Json;
  start: number;
  /** Capture position of the exchange's first record: orders entries that start in the same millisecond. */
  first: number;
}

const CREATOR = { name: "mcp-elicitation-inspector", version: "0.1.0" };
/**
 * Added to a request that has nothing else marking it as MCP (a GET stream answered 405 before any session),
 * so importHar does not skip it; importHar keeps only the six headers of record.ts, so it never reaches a record.
 */
const MARKER = { name: "mcp-inspector-export", value: "1" };
const utf8 = new TextEncoder();
/** Exchanges of one transport share a name space only with themselves. */
const groupKey = (r: CaptureRecord): string => `${r.transport}\u0000${r.exchange}`;

export function exportHar(records: readonly CaptureRecord[], options: { creator?: { name: string; version: string } } = {}): string {
  // Through the schema first, like exportJsonl: whatever a record carries beyond the format (a full header set)
  // does not reach the file.
  // importHar orders what it reads by time: a record timed before one earlier in the capture (another client's
  // clock, an edited file) is written at that one's time, or it would come back elsewhere in the capture.
  let latest = -Infinity;
  const clean = records.map((r) => {
    const parsed = CaptureRecord.safeParse(r);
    const record = parsed.success ? parsed.data : r;
    if (record.time < latest) return { ...record, time: latest };
    latest = record.time;
    return record;
  });
  const groups = new Map<string, number[]>();
  /** Capture positions of the records that travel as records (`log._mcpRecords`), whatever the entries. */
  const loose: number[] = [];
  clean.forEach((r, i) => {
    // A message taken out of a host's envelope has no HTTP exchange of its own to be an entry of.
    const enveloped = r.kind === "message" && r.stream === "envelope";
    if (r.exchange === undefined || (r.transport !== "http" && r.transport !== "websocket") || enveloped) return void loose.push(i);
    const key = groupKey(r);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });

  // importHar reads `log._mcpRecords` first, so of an entry's record and a record there at the same time it puts the
  // latter first: an exchange one of whose records is tied so with a later record of the capture travels as records
  // too. That changes the clock's picks for the other entries, so again until no record is tied (each round moves at
  // least one more exchange; most captures need none).
  let { built, rest } = buildEntries(clean, groups, loose);
  for (let tied = tiedExchanges(clean, built, rest); tied.length > 0; tied = tiedExchanges(clean, built, rest)) {
    for (const key of tied) {
      loose.push(...groups.get(key)!);
      groups.delete(key);
    }
    ({ built, rest } = buildEntries(clean, groups, loose));
  }
  built.sort((a, b) => a.start - b.start || a.first - b.first);

  const pages = new Map<string, Json>();
  for (const { entry, start } of built) {
    const id = entry.pageref;
    if (typeof id === "string" && !pages.has(id)) pages.set(id, { startedDateTime: iso(start), id, title: id, pageTimings: {} });
  }
  // `_mcpRecords` before the entries: a streaming import (harStream.ts) reads them before it hands any entry on.
  const log: Json = {
    version: "1.2",
    creator: options.creator ?? CREATOR,
    pages: [...pages.values()],
    ...(rest.length && { _mcpRecords: rest.map((i) => clean[i]!).sort((a, b) => a.seq - b.seq) }),
    entries: built.map((b) => b.entry),
  };
  return `${JSON.stringify({ log }, null, 2)}\n`;
}

interface Entry extends Built {
  key: string;
  /** Capture positions of the exchange's records, and the records importHar makes of the entry, in the same order. */
  indexes: number[];
  back: CaptureRecord[];
}

/** The exchanges of `groups` as entries, where an entry holds them; the capture positions of the rest. */
function buildEntries(clean: readonly CaptureRecord[], groups: Map<string, number[]>, loose: readonly number[]): { built: Entry[]; rest: number[] } {
  const clock = createClock(clean, groups);
  const built: Entry[] = [];
  const rest = [...loose];
  for (const [key, indexes] of groups) {
    const group = indexes.map((i) => clean[i]!);
    const url = group.find((r) => r.url !== undefined)?.url;
    // importHar needs request.url; an exchange without one can only travel as records.
    if (url === undefined) {
      rest.push(...indexes);
      continue;
    }
    const made = group[0]!.transport === "websocket" ? webSocketEntry(group, indexes, url) : httpEntry(clock, group, indexes, url);
    // An exchange no HAR entry can hold as it is (two JSON bodies, a head after the body, records of two clients)
    // travels as records too: an export must read back as the capture it was.
    // An exchange still open when exported (no end record: a stream the page had not closed) says so, and importHar
    // then adds no end to it.
    if (group[group.length - 1]!.kind !== "end" && !group.some((r) => r.kind === "end")) made.entry._mcpOpen = true;
    const back = readBack(made.entry, group);
    if (back) built.push({ ...made, key, indexes, back });
    else rest.push(...indexes);
  }
  return { built, rest };
}

/** The exchanges of `built` with a record read back at the time of a record of `rest` that comes after it in the capture. */
function tiedExchanges(clean: readonly CaptureRecord[], built: readonly Entry[], rest: readonly number[]): string[] {
  /** Time → the last capture position of a record of `rest` at that time. */
  const lastAt = new Map<number, number>();
  for (const i of rest) lastAt.set(clean[i]!.time, Math.max(lastAt.get(clean[i]!.time) ?? -1, i));
  if (lastAt.size === 0) return [];
  return built.filter(({ back, indexes }) => back.some((r, k) => (lastAt.get(r.time) ?? -1) > indexes[k]!)).map((b) => b.key);
}

function httpEntry(clock: Clock, group: CaptureRecord[], indexes: number[], url: string): Built {
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
  const { headAt, endAt } = clock.span(start, response?.time, events, end && position.get(end), group[group.length - 1]!.time);

  const sse = incoming.some((m) => m.stream !== "body");
  let content: Json;
  if (incoming.length) {
    const text = sse ? incoming.map(sseEvent).join("") : incoming.map((m) => m.text).join("\n");
    content = { size: utf8.encode(text).length, mimeType: sse ? "text/event-stream" : "application/json", text };
  } else if (response?.emptyBody === true) {
    content = { size: 0, mimeType: response.headers?.["content-type"] ?? "x-unknown", text: "" };
  } else if (response?.emptyBody === false) {
    // A body that carried no message (a stream closed before its first event): an SSE comment says "not empty".
    const stream = /event-stream/i.test(response.headers?.["content-type"] ?? "");
    content = stream ? { size: 3, mimeType: "text/event-stream", text: ":\n\n" } : { size: 1, mimeType: "text/plain", text: "\n" };
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
      bodySize: body ? utf8.encode(body.text).length : 0,
    },
    response: harResponse(response, resHeaders, content, end),
    cache: {},
    timings: harTimings(start, headAt, endAt),
    _resourceType: "fetch",
  };
  return { entry, start, first: indexes[0]! };
}

function webSocketEntry(group: CaptureRecord[], indexes: number[], url: string): Built {
  const messages = group.filter((r): r is MessageRecord => r.kind === "message");
  const response = group.find((r): r is ResponseRecord => r.kind === "response");
  const end = group.find((r): r is EndRecord => r.kind === "end");
  const start = Math.floor(group[0]!.time);
  const headAt = Math.max(start, response?.time ?? start);
  const endAt = Math.max(headAt, end?.time ?? group[group.length - 1]!.time);
  const reqHeaders = messages.some((m) => m.text.includes('"jsonrpc"')) ? [] : [MARKER];
  const entry: Json = {
    ...(group[0]!.client !== undefined && { pageref: group[0]!.client }),
    startedDateTime: iso(start),
    time: endAt - start,
    request: { method: "GET", url, httpVersion: "HTTP/1.1", cookies: [], headers: reqHeaders, queryString: queryString(url), headersSize: -1, bodySize: 0 },
    response: harResponse(response, pairs(response?.headers), { size: 0, mimeType: "x-unknown" }, end),
    cache: {},
    timings: harTimings(start, headAt, endAt),
    _resourceType: "websocket",
    // importHar reads times below 1e11 as seconds (Chrome) and above as milliseconds (Playwright); epoch
    // milliseconds are written as such, exactly, and small synthetic clocks as seconds.
    _webSocketMessages: messages.map((m) => ({ type: m.direction === "c2s" ? "send" : "receive", time: m.time >= 1e11 ? m.time : m.time / 1000, opcode: 1, data: m.text })),
  };
  return { entry, start, first: indexes[0]! };
}

/**
 * The records importHar makes of `entry` when they are `group`: the same records in the same order, but for what
 * HAR cannot keep (times, seqs, entry numbers and exchange names); else undefined.
 */
function readBack(entry: Json, group: readonly CaptureRecord[]): CaptureRecord[] | undefined {
  // The entry as importHar reads it (its records, in its time order), without writing and parsing it: the entry
  // holds only JSON values, as its text would give.
  const back = entryRecords(entry, `${CREATOR.name} ${CREATOR.version}`).sort((a, b) => a.time - b.time);
  if (back.length !== group.length) return undefined;
  for (let i = 0; i < group.length; i++) if (!sameRecord(back[i]!, group[i]!)) return undefined;
  return back;
}

/** What HAR cannot keep of a record. */
const UNKEPT = new Set(["seq", "time", "entry", "exchange", "v"]);

/**
 * `back` is `original` but for what HAR cannot keep; importHar gives each record of an entry its method, so a
 * record that had none is compared without. Member by member rather than as JSON text: the texts are most of a
 * record, and they are compared once instead of written out twice.
 */
function sameRecord(back: CaptureRecord, original: CaptureRecord): boolean {
  const methodless = (original as { method?: string }).method === undefined;
  return sameJson(back, original, (key) => UNKEPT.has(key) || (methodless && key === "method"));
}

/** Equal as JSON values, members in any order (records are shallow: headers, metadata and its list). */
function sameJson(a: unknown, b: unknown, skip?: (key: string) => boolean): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  const keysA = Object.keys(a).filter((k) => !skip?.(k));
  const keysB = Object.keys(b).filter((k) => !skip?.(k));
  return keysA.length === keysB.length && keysA.every((k) => Object.hasOwn(b, k) && sameJson((a as Json)[k], (b as Json)[k]));
}

/** One SSE event (HTML § 9.2.6): `data:` per line, so a text with line breaks reads back joined by "\n". */
/** An entry's `response`, HTTP and WebSocket alike (sizes unknown). */
function harResponse(response: ResponseRecord | undefined, headers: { name: string; value: string }[], content: Json, end: EndRecord | undefined): Json {
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

const harTimings = (start: number, headAt: number, endAt: number): Json => ({ blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: headAt - start, receive: endAt - headAt });

function sseEvent(m: MessageRecord): string {
  let out = "";
  if (m.eventId !== undefined) out += `id: ${m.eventId}\n`;
  if (m.event !== undefined) out += `event: ${m.event}\n`;
  for (const line of m.text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

interface Clock {
  /** Where importHar will put a record that sits at a fixed time: a request body at its whole-millisecond start. */
  at(index: number): number;
  /** `start + wait` and `start + time` of an HTTP entry (see below). */
  span(start: number, head: number | undefined, events: number[], end: number | undefined, last: number): { headAt: number; endAt: number };
}

/** Ties between entries go by entry order, which need not be capture order: keep a little clear of them. */
const CLEAR = 1e-3;

/**
 * HAR keeps fewer times than a capture, and importHar sorts what it reads by time: the clock picks the times it
 * does keep so that the records come back in capture order.
 *
 * - `startedDateTime` has whole milliseconds. A request body is rounded down, or up when rounding down would
 *   pass more records of other exchanges (a message weighs two, a head or an end one): a client's answer sent
 *   within the millisecond of the question must not come back before it.
 * - An event stream has one time for its head and first event (`start + wait`) and one for its last event and
 *   its end (`start + time`); the events between are spread evenly. The first event keeps its time; the last is
 *   placed as close to its own as the events between allow (each must stay between the records of other exchanges
 *   around it), and the end with it unless other exchanges' records fall between them.
 */
function createClock(records: readonly CaptureRecord[], groups: Map<string, number[]>): Clock {
  const groupOf = new Int32Array(records.length);
  let g = 0;
  for (const indexes of groups.values()) {
    g++;
    for (const i of indexes) groupOf[i] = g;
  }
  const weight = (r: CaptureRecord): number => (r.kind === "message" ? 2 : 1);
  const fixed = new Map<number, number>();
  for (const indexes of groups.values()) {
    const body = indexes.find((i) => { const r = records[i]!; return r.kind === "message" && r.direction === "c2s"; });
    if (body === undefined || records[body]!.transport !== "http") continue;
    const time = records[body]!.time;
    const down = Math.floor(time);
    const up = Math.ceil(time);
    let below = 0;
    let above = 0;
    for (let j = body - 1; j >= 0 && records[j]!.time >= down; j--) if (groupOf[j] !== groupOf[body]) below += weight(records[j]!);
    for (let j = body + 1; j < records.length && records[j]!.time <= up; j++) if (groupOf[j] !== groupOf[body]) above += weight(records[j]!);
    fixed.set(body, below <= above ? down : up);
  }
  const at = (i: number): number => fixed.get(i) ?? records[i]!.time;
  // The nearest records of other exchanges before and after each record (-1: none), in one pass each way.
  const before = new Int32Array(records.length).fill(-1);
  const after = new Int32Array(records.length).fill(-1);
  for (let i = 1; i < records.length; i++) before[i] = groupOf[i - 1] !== groupOf[i] ? i - 1 : before[i - 1]!;
  for (let i = records.length - 2; i >= 0; i--) after[i] = groupOf[i + 1] !== groupOf[i] ? i + 1 : after[i + 1]!;
  const around = (i: number): [number, number] => [before[i]! < 0 ? -Infinity : at(before[i]!) + CLEAR, after[i]! < 0 ? Infinity : at(after[i]!) - CLEAR];

  return {
    at,
    span(start, head, events, end, last) {
      const first = events[0];
      const headAt = Math.max(start, first !== undefined ? records[first]!.time : (head ?? start));
      if (events.length < 2) return { headAt, endAt: Math.max(headAt, end !== undefined ? records[end]!.time : last) };
      // Event k lands at headAt + (endAt - headAt) * k / (n - 1): each window bounds endAt.
      const n = events.length;
      let lo = headAt;
      let hi = Infinity;
      events.forEach((e, k) => {
        if (k === 0) return;
        const share = k / (n - 1);
        const [below, above] = around(e);
        lo = Math.max(lo, headAt + (below - headAt) / share);
        hi = Math.min(hi, headAt + (above - headAt) / share);
      });
      const want = records[events[n - 1]!]!.time;
      if (lo > hi) return { headAt, endAt: Math.max(headAt, want) };
      if (end !== undefined) {
        const [below, above] = around(end);
        const endLo = Math.max(lo, below);
        const endHi = Math.min(hi, above);
        if (endLo <= endHi) return { headAt, endAt: clamp(want, endLo, endHi) };
      }
      return { headAt, endAt: clamp(want, lo, hi) };
    },
  };
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

const iso = (ms: number): string => new Date(ms).toISOString();

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
      return eq < 0 ? { name: decode(pair), value: "" } : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
    });
}
