import assert from "node:assert/strict";
import { importHar, type CaptureImport } from "../../src/capture/har/import.ts";
import { createHarImport } from "../../src/capture/har/stream.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import { CaptureRecord } from "../../src/capture/record.ts";
import { redactRecords } from "../../src/capture/redact.ts";
import { createCaptureDecoder } from "../../src/capture/textDecode.ts";
import { analyze } from "../../src/engine/index.ts";
import { canonicalJson } from "../../src/util/json.ts";
import { SECRETS, type Input } from "./arbitraries.ts";

/**
 * The properties every input must keep (issue 11): nothing throws past an importer, the engine or an exporter;
 * no internal error; every imported record passes the capture schema; export → import → export is a fixed point
 * (the same records and the same flows); the default (redacted) exports never contain a planted secret; a HAR
 * read as a file is, its bytes in pieces through the streaming import (har/stream.ts), gives the records it gives
 * read whole, and so it does in a window so small that it must let endpoints go (whatever the entries' order, the
 * window holds no more than it is given); and Object.prototype and Array.prototype are unchanged (no member added,
 * removed or replaced).
 */

/** A prototype's own members as [name, value] runs: a member added, removed or replaced changes it. */
const members = (o: object): unknown[] => {
  const keys = Reflect.ownKeys(o);
  const out = new Array<unknown>(keys.length * 2);
  keys.forEach((key, i) => {
    out[2 * i] = key;
    out[2 * i + 1] = (o as Record<PropertyKey, unknown>)[key];
  });
  return out;
};
const changed = (o: object, before: unknown[]): string | undefined => {
  const now = members(o);
  let at = now.findIndex((x, i) => !Object.is(x, before[i]));
  if (at < 0) {
    if (now.length === before.length) return undefined;
    at = now.length;
  }
  return String((at < now.length ? now : before)[at - (at % 2)]);
};
const OBJECT_MEMBERS = members(Object.prototype);
const ARRAY_MEMBERS = members(Array.prototype);

const stage = <T>(name: string, fn: () => T): T => {
  try {
    return fn();
  } catch (error) {
    const e = error as Error;
    throw new Error(
      `${name} threw: ${e?.message ?? String(error)}${e?.stack ? `\n${e.stack.split("\n").slice(1, 4).join("\n")}` : ""}`,
    );
  }
};

const utf8 = new TextEncoder();

/**
 * A HAR's UTF-8 bytes through the streaming import as importHarStream reads a file (textDecode.ts, then
 * createHarImport), synchronously: cut where the text itself picks (the same input, the same cuts), a tenth of
 * the pieces 1 to 3 bytes long so that UTF-8 sequences are split too. `window`: the record window's budget
 * (0: stream from the first record); `hold`: what the streaming window may hold.
 */
function importInPieces(text: string, file: string, window?: number, hold?: number): CaptureImport & { held: number } {
  const bytes = utf8.encode(text);
  const records: CaptureRecord[] = [];
  const importer = createHarImport(file, {
    ...(window !== undefined && { window }),
    ...(hold !== undefined && { hold }),
    onRecords(batch) {
      for (const r of batch) records.push(r);
    },
  });
  const decoder = createCaptureDecoder(file);
  let seed = text.length;
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = seed % 10 === 0 ? 1 + (seed % 3) : 1 + (seed % 4093);
    importer.write(decoder.write(bytes.subarray(at, at + size)));
    if (decoder.refused) return { records: [], problems: [decoder.refused], held: 0 };
    at += size;
  }
  importer.write(decoder.end());
  if (decoder.refused) return { records: [], problems: [decoder.refused], held: 0 };
  const { problems, held } = importer.end();
  return { records, problems, held };
}

/** A streaming window of a few records (a record costs 400 bytes and its text, lane.ts). */
const SMALL_HOLD = 4096;

type Flows = ReturnType<typeof analyze>["flows"];
const shape = (flows: Flows) =>
  flows.map((f) => `${f.kind} ${f.status} ${f.method} ${f.rounds.length} ${f.elicitations.length}`);
const unnamed = (records: readonly CaptureRecord[]) =>
  records.map(({ entry: _e, exchange: _x, ...r }) => canonicalJson(r));
/**
 * Records compared as JSON, what a file can say (-0 is written 0), members in any order: a record an envelope
 * adapter made lists them in its own order, the schema in another, and a file in the schema's. `json` is
 * JSON.stringify(a), at hand already: most comparisons are equal in that order too.
 */
const sameRecords = (a: readonly CaptureRecord[], b: readonly CaptureRecord[], json = JSON.stringify(a)): boolean =>
  json === JSON.stringify(b) || canonicalJson(a) === canonicalJson(b);

/** The streaming window's slack for entries out of start order (horizon.ts SLACK, ms). */
const SLACK = 2000;
/** Whether a HAR's entries, in file order, start more than SLACK before an earlier one (false if it is not a HAR). */
function goesBackInTime(text: string): boolean {
  let entries: unknown;
  try {
    entries = (JSON.parse(text) as { log?: { entries?: unknown } })?.log?.entries;
  } catch {
    return false;
  }
  if (!Array.isArray(entries)) return false;
  let latest = -Infinity;
  for (const e of entries) {
    const start = Date.parse((e as { startedDateTime?: unknown })?.startedDateTime as string);
    if (Number.isNaN(start)) continue;
    if (start < latest - SLACK) return true;
    latest = Math.max(latest, start);
  }
  return false;
}
const SSE_STREAMS = new Set(["post-sse", "get-sse", "eventsource"]);
const isSseEvent = (r: { kind: string; direction?: string; stream?: string }): boolean =>
  r.kind === "message" && r.direction === "s2c" && SSE_STREAMS.has(r.stream ?? "");

export function checkInput(input: Input): void {
  try {
    check(input);
  } finally {
    const object = changed(Object.prototype, OBJECT_MEMBERS);
    assert.equal(object, undefined, `Object.prototype changed: ${object}`);
    const array = changed(Array.prototype, ARRAY_MEMBERS);
    assert.equal(array, undefined, `Array.prototype changed: ${array}`);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype polluted");
  }
}

function check(input: Input): void {
  assert.ok(!input.text.startsWith("EXPORT-THREW"), `exportHar threw on a valid capture: ${input.text}`);
  const file = input.format === "har" ? "fuzz.har" : "fuzz.jsonl";
  const imported = stage("import", () => importCapture(input.text, file));
  for (const r of imported.records)
    assert.ok(
      CaptureRecord.safeParse(r).success,
      `an imported record fails the capture schema: ${JSON.stringify(r).slice(0, 300)}`,
    );
  // A HAR read as a file (the input itself, or for JSONL its HAR export, below), in pieces and streaming from the
  // first record: the same records with the same times, but that some can come later than later ones (the records
  // of entries out of time order; a problem says so); else the same problems too.
  const streamed = (text: string, whole: CaptureImport): void => {
    // A window that lets endpoints go every few records: the same records, whatever their times and numbers.
    const small = stage("importHar streaming in a small window", () => importInPieces(text, "fuzz.har", 0, SMALL_HOLD));
    assert.ok(small.held <= SMALL_HOLD, `the streaming window held ${small.held} bytes, past its ${SMALL_HOLD}`);
    const untimed = (records: readonly CaptureRecord[]) =>
      records.map(({ seq: _s, time: _t, ...r }) => canonicalJson(r)).sort();
    assert.deepEqual(
      untimed(small.records),
      untimed(whole.records),
      "the HAR read in a small window gives other records than read whole",
    );
    const streaming = stage("importHar streaming, in pieces", () => importInPieces(text, "fuzz.har", 0));
    if (sameRecords(whole.records, streaming.records))
      return assert.deepEqual(
        streaming.problems,
        whole.problems,
        "the HAR read in pieces, streaming, gives other problems than read whole",
      );
    // Entries that go back in time past the streaming window's slack (horizon.ts SLACK) begin a new stretch: a
    // stream is placed once the horizon passed its last byte, and a record that bounds its events (a client's answer
    // it must precede or follow, notifications/initialized) may be read after that, further on in the file. A whole
    // import learns every record first; a streaming one cannot hold every stream until the end and stay bounded. So
    // for such a file the events of SSE streams may be placed elsewhere within their stream's span (order.ts), and
    // are compared without their times; every other record, and which events there are, must still be the same.
    const backInTime = goesBackInTime(text);
    const bag = (records: readonly CaptureRecord[]) =>
      records.map(({ seq: _s, ...r }) => canonicalJson(backInTime && isSseEvent(r) ? { ...r, time: 0 } : r)).sort();
    assert.deepEqual(
      bag(streaming.records),
      bag(whole.records),
      "the HAR read in pieces, streaming, gives other records than read whole",
    );
  };
  if (input.format === "har") streamed(input.text, imported);
  const result = stage("analyze", () => analyze(imported.records));
  const internal = result.problems.find((p) => p.message.startsWith("Internal error"));
  assert.equal(internal, undefined, internal?.message);
  for (const f of result.findings)
    if (f.flow !== null)
      assert.ok(
        result.flows.some((x) => x.id === f.flow),
        `finding ${f.rule} names ${f.flow}, which is not in the report`,
      );

  // Each step runs once. The importers, the exporters and the engine are functions of their input text or records
  // (compared as JSON, as the properties compare them): an export text equal to one already read back reads back
  // the same, and records equal to ones already analysed or exported give the same flows and the same export.
  const jsonl = stage("exportJsonl", () => exportJsonl(imported.records));
  const har = stage("exportHar", () => exportHar(imported.records));
  // The default exports: redacted; no planted secret survives.
  const redacted = stage("redact", () => redactRecords(imported.records));
  const redactedJsonl = stage("exportJsonl (redacted)", () => exportJsonl(redacted));
  // The same JSONL is the same records through the schema, which is all exportHar reads of them.
  const redactedHar = redactedJsonl === jsonl ? har : stage("exportHar (redacted)", () => exportHar(redacted));
  for (const secret of SECRETS) {
    assert.ok(!redactedJsonl.includes(secret), `the redacted JSONL export contains ${secret}`);
    assert.ok(!redactedHar.includes(secret), `the redacted HAR export contains ${secret}`);
  }

  // An empty capture exports to an empty file, which an import calls empty: nothing to compare.
  if (imported.records.length === 0) return;
  // JSONL: a fixed point at once.
  const fromJsonl = stage("importJsonl (re-import)", () => importJsonl(jsonl, "again.jsonl"));
  assert.deepEqual(fromJsonl.problems, [], "the JSONL export does not re-import cleanly");
  const importedJson = JSON.stringify(imported.records);
  if (!sameRecords(imported.records, fromJsonl.records, importedJson))
    assert.equal(
      canonicalJson(fromJsonl.records),
      canonicalJson(imported.records),
      "JSONL export → import changed the records",
    );
  // HAR: from the first import on (times rounded to milliseconds; same-millisecond entries may be renumbered once).
  // A HAR that is already its own export (an unmutated one of harInput) was read back when it was imported.
  const first =
    har === input.text && imported.problems.length === 0
      ? imported
      : stage("importHar (re-import)", () => importHar(har, "fuzz.har"));
  if (input.format === "jsonl") streamed(har, first);
  assert.deepEqual(first.problems, [], "the HAR export does not re-import cleanly");
  const firstJson = JSON.stringify(first.records);
  if (firstJson !== importedJson)
    assert.deepEqual(
      shape(stage("analyze (re-import)", () => analyze(first.records)).flows),
      shape(result.flows),
      "HAR export → import changed the flows",
    );
  const secondText = firstJson === importedJson ? har : stage("exportHar (again)", () => exportHar(first.records));
  // Read back as `first` was.
  if (secondText === har) return;
  const second = stage("importHar (again)", () => importHar(secondText, "again.har"));
  assert.deepEqual(second.problems, []);
  assert.deepEqual(
    unnamed(second.records),
    unnamed(first.records),
    "HAR export → import → export → import changed the records",
  );
  const secondJson = JSON.stringify(second.records);
  if (secondJson === firstJson) return;
  const thirdText = stage("exportHar (third)", () => exportHar(second.records));
  if (thirdText === secondText) return;
  const third = stage("importHar (third)", () => importHar(thirdText, "again.har"));
  if (!sameRecords(second.records, third.records, secondJson))
    assert.equal(
      canonicalJson(third.records),
      canonicalJson(second.records),
      "HAR is not a fixed point after two round trips",
    );
}
