import { entryRecords } from "./entry.ts";
import { MAX_SPAN } from "./checks.ts";
import { createClock, type Clock } from "./exportClock.ts";
import { httpEntry, iso, webSocketEntry, type Json } from "./exportEntry.ts";
import { CaptureRecord } from "../record.ts";

/**
 * HAR 1.2 of a capture, written so that `importHar` (import.ts) reads back the same records: one entry per HTTP
 * exchange (exportEntry.ts), WebSocket exchanges with Chrome's `_webSocketMessages`, and records HAR has no
 * place for (postMessage, the EventSource of the HTTP+SSE transport, stdio, messages taken out of a host's
 * envelope) kept verbatim in `log._mcpRecords`. The mapping and what HAR cannot say (per-event times) are in
 * docs/capture-format.md, "Export and redaction".
 *
 * The file is made as text parts (`harParts`), an entry at a time, for a Blob: never one string, nor every
 * entry's object at once. `exportHar` joins them.
 */
export interface HarExportOptions {
  creator?: { name: string; version: string };
}

const CREATOR = { name: "mcp-elicitation-inspector", version: "0.1.0" };
/** Exchanges of one transport share a name space only with themselves. */
const groupKey = (r: CaptureRecord): string => `${r.transport}\u0000${r.exchange}`;

export function exportHar(records: readonly CaptureRecord[], options: HarExportOptions = {}): string {
  let out = "";
  for (const part of harParts(records, options)) out += part;
  return out;
}

/** The HAR of a capture as text parts in file order: `JSON.stringify({ log }, null, 2)` and a line break, in pieces. */
export function* harParts(records: readonly CaptureRecord[], options: HarExportOptions = {}): Generator<string> {
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
  // Not held from here on (a caller that passes copies, as the panel's redacted export does, lets them go).
  records = [];
  const groups = new Map<string, number[]>();
  /** Capture positions of the records that travel as records (`log._mcpRecords`), whatever the entries. */
  const loose: number[] = [];
  clean.forEach((r, i) => {
    // A message taken out of a host's envelope has no HTTP exchange of its own to be an entry of.
    const enveloped = r.kind === "message" && r.stream === "envelope";
    if (r.exchange === undefined || (r.transport !== "http" && r.transport !== "websocket") || enveloped)
      return void loose.push(i);
    const key = groupKey(r);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });

  // importHar reads `log._mcpRecords` first, so of an entry's record and a record there at the same time it puts the
  // latter first: an exchange one of whose records is tied so with a later record of the capture travels as records
  // too. That changes the clock's picks for the other entries, so again until no record is tied (each round moves at
  // least one more exchange; most captures need none).
  let { built, rest, clock } = buildEntries(clean, groups, loose);
  for (let tied = tiedExchanges(clean, built, rest); tied.length > 0; tied = tiedExchanges(clean, built, rest)) {
    for (const key of tied) {
      for (const i of groups.get(key)!) loose.push(i);
      groups.delete(key);
    }
    ({ built, rest, clock } = buildEntries(clean, groups, loose));
  }
  built.sort((a, b) => a.start - b.start || a.first - b.first);

  const pages = new Map<string, Json>();
  for (const { indexes, start } of built) {
    const id = clean[indexes[0]!]!.client;
    if (id !== undefined && !pages.has(id))
      pages.set(id, { startedDateTime: iso(start), id, title: id, pageTimings: {} });
  }
  yield `{\n  "log": {\n    "version": "1.2",\n    "creator": ${nested(JSON.stringify(options.creator ?? CREATOR, null, 2), 2)},\n    "pages": `;
  yield* arrayParts(pages.values(), 2);
  // `_mcpRecords` before the entries: a streaming import (stream.ts) reads them before it hands any entry on.
  if (rest.length) {
    yield `,\n    "_mcpRecords": `;
    yield* arrayParts(
      rest.map((i) => apart(clean[i]!)).sort((a, b) => a.seq - b.seq),
      2,
    );
  }
  yield `,\n    "entries": `;
  // Each entry is made again as it is written (the same entry: the clock is that of the last round).
  yield* arrayParts(
    (function* () {
      for (const { indexes } of built) yield makeEntry(clock, clean, indexes)!.entry;
    })(),
    2,
  );
  yield "\n  }\n}\n";
}

/**
 * A record that travels as a record keeps its exchange's name, but importHar names each entry's exchange `har:N` by
 * its place in the file, which this file's entries need not share with the capture it was read from: such a name
 * is given a prefix of its own, so that it never meets an entry's.
 */
const apart = (r: CaptureRecord): CaptureRecord =>
  r.exchange?.startsWith("har:") ? { ...r, exchange: `records:${r.exchange}` } : r;

/** JSON text of a value as JSON.stringify(…, null, 2) writes it `depth` levels down (a raw line break is only ever between tokens). */
const nested = (json: string, depth: number): string => json.replace(/\n/g, `\n${"  ".repeat(depth)}`);

/** An array `depth` levels down, as JSON.stringify(…, null, 2) writes it, an item per part. */
function* arrayParts(items: Iterable<unknown>, depth: number): Generator<string> {
  const pad = "  ".repeat(depth + 1);
  let first = true;
  for (const item of items) {
    yield `${first ? "[\n" : ",\n"}${pad}${nested(JSON.stringify(item, null, 2), depth + 1)}`;
    first = false;
  }
  yield first ? "[]" : `\n${"  ".repeat(depth)}]`;
}

interface Entry {
  key: string;
  start: number;
  /** Capture position of the exchange's first record: orders entries that start in the same millisecond. */
  first: number;
  /** Capture positions of the exchange's records, and the times importHar gives the records it makes of the entry, in the same order. */
  indexes: number[];
  backTimes: number[];
}

/** The entry of one exchange (`indexes`), where an entry can hold it; undefined when it can only travel as records. */
function makeEntry(
  clock: Clock,
  clean: readonly CaptureRecord[],
  indexes: number[],
): { entry: Json; start: number; group: CaptureRecord[] } | undefined {
  const group = indexes.map((i) => clean[i]!);
  const url = group.find((r) => r.url !== undefined)?.url;
  // importHar needs request.url; an exchange without one can only travel as records.
  if (url === undefined) return undefined;
  // An entry's times may say at most MAX_SPAN (importHar refuses longer ones): an exchange whose records lie further
  // apart (a record clamped to time 0 among records of today) can only travel as records. Half of it, for the
  // milliseconds the clock adds.
  let first = Infinity;
  let last = -Infinity;
  for (const r of group) {
    first = Math.min(first, r.time);
    last = Math.max(last, r.time);
  }
  if (last - first > MAX_SPAN / 2) return undefined;
  const made =
    group[0]!.transport === "websocket" ? webSocketEntry(group, indexes, url) : httpEntry(clock, group, indexes, url);
  // An exchange still open when exported (no end record: a stream the page had not closed) says so, and importHar
  // then adds no end to it.
  if (group[group.length - 1]!.kind !== "end" && !group.some((r) => r.kind === "end")) made.entry._mcpOpen = true;
  return { entry: made.entry, start: made.start, group };
}

/** The exchanges of `groups` as entries, where an entry holds them; the capture positions of the rest. */
function buildEntries(
  clean: readonly CaptureRecord[],
  groups: Map<string, number[]>,
  loose: readonly number[],
): { built: Entry[]; rest: number[]; clock: Clock } {
  const clock = createClock(clean, groups);
  const built: Entry[] = [];
  const rest = [...loose];
  for (const [key, indexes] of groups) {
    const made = makeEntry(clock, clean, indexes);
    // An exchange no HAR entry can hold as it is (two JSON bodies, a head after the body, records of two clients)
    // travels as records too: an export must read back as the capture it was.
    const back = made && readBack(made.entry, made.group);
    if (made && back)
      built.push({ key, start: made.start, first: indexes[0]!, indexes, backTimes: back.map((r) => r.time) });
    else for (const i of indexes) rest.push(i);
  }
  return { built, rest, clock };
}

/**
 * The exchanges of `built` with a record read back at the time of a record that importHar reads before it but that
 * comes after it in the capture: one of `rest` (read first), or one of an entry written before it. importHar keeps
 * the file's order among records of one time, and entries are written in start order, which need not be that of
 * their tied records (an entry whose request has no record starts at its response).
 */
function tiedExchanges(clean: readonly CaptureRecord[], built: readonly Entry[], rest: readonly number[]): string[] {
  /** Time → the last capture position of a record read so far at that time. */
  const lastAt = new Map<number, number>();
  for (const i of rest) lastAt.set(clean[i]!.time, Math.max(lastAt.get(clean[i]!.time) ?? -1, i));
  const tied: string[] = [];
  for (const { key, backTimes, indexes } of [...built].sort((a, b) => a.start - b.start || a.first - b.first)) {
    if (backTimes.some((t, k) => (lastAt.get(t) ?? -1) > indexes[k]!)) tied.push(key);
    backTimes.forEach((t, k) => lastAt.set(t, Math.max(lastAt.get(t) ?? -1, indexes[k]!)));
  }
  return tied;
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
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  const keysA = Object.keys(a).filter((k) => !skip?.(k));
  const keysB = Object.keys(b).filter((k) => !skip?.(k));
  return (
    keysA.length === keysB.length && keysA.every((k) => Object.hasOwn(b, k) && sameJson((a as Json)[k], (b as Json)[k]))
  );
}
