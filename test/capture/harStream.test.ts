import assert from "node:assert/strict";
import { test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { importHarStream, type HarStreamOptions } from "../../src/capture/har/stream.ts";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeConcatenatedHar } from "../../bench/harConcat.ts";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { har, harEntry, rpc, sse } from "./harFixture.ts";

// The HAR import as it streams (har/stream.ts): pieces of any size, log members in any order, encodings, progress and
// cancel, and the record window past which records are handed on while the file is still being read.

const session = { "mcp-session-id": "s-1", "mcp-protocol-version": "2025-11-25" };
const call = (id: number) =>
  rpc({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "deploy", arguments: {} } });
const ask = (id: number) =>
  rpc({
    jsonrpc: "2.0",
    id,
    method: "elicitation/create",
    params: { message: "Zürich — 東京 ✓?", requestedSchema: { type: "object", properties: {} } },
  });
const answer = (id: number) => rpc({ jsonrpc: "2.0", id, result: { action: "accept", content: {} } });
const done = (id: number) => rpc({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `done ${id}` }] } });
const at = (s: number) => new Date(Date.parse("2026-01-01T00:00:00.000Z") + s * 1000).toISOString();

/** Calls that ask on their stream, answered by a POST of their own while the stream is open, a second apart. */
function asking(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => [
    harEntry({
      started: at(i),
      headers: session,
      body: call(i + 1),
      mimeType: "text/event-stream",
      text: sse(`data: ${ask(100 + i)}`, `data: ${done(i + 1)}`),
      wait: 5,
      receive: 600,
    }),
    harEntry({
      started: at(i + 0.3),
      headers: session,
      body: answer(100 + i),
      status: 202,
      mimeType: "text/plain",
      text: "",
    }),
  ]).flat();
}

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function streamed(bytes: Uint8Array, size: number, options: HarStreamOptions = {}) {
  const records: CaptureRecord[] = [];
  const result = await importHarStream(pieces(bytes, size), "s.har", {
    ...options,
    onRecords: (batch) => void records.push(...batch),
  });
  return { records, problems: result.problems, count: result.records };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

test("pieces of any size, cutting UTF-8 sequences and escapes anywhere, give the records of the whole text", async () => {
  const text = har(asking(3));
  const whole = importHar(text, "s.har");
  assert.deepEqual(whole.problems, []);
  for (const size of [1, 3, 7, 64, 4096]) {
    const got = await streamed(utf8(text), size);
    assert.deepEqual(got.records, whole.records, `pieces of ${size} bytes`);
    assert.deepEqual(got.problems, []);
    assert.equal(got.count, whole.records.length);
  }
  // Minified: no whitespace between tokens.
  const minified = JSON.stringify(JSON.parse(text));
  assert.deepEqual((await streamed(utf8(minified), 5)).records, whole.records);
});

test("entries as any writer lays them out: pretty-printed, minified, or with every line at the same indentation", () => {
  const entries = asking(3);
  const want = importHar(
    JSON.stringify({ log: { version: "1.2", creator: { name: "x", version: "1" }, entries } }),
    "s.har",
  );
  assert.deepEqual(want.problems, []);
  // Every line at column 0: the first closing bracket at the entry's own indentation is not the entry's end.
  const flat = JSON.stringify(
    { log: { version: "1.2", creator: { name: "x", version: "1" }, entries } },
    null,
    1,
  ).replace(/\n +/g, "\n");
  // Entries closed and opened on one line ("}, {"), as some writers do.
  const joined = JSON.stringify(
    { log: { version: "1.2", creator: { name: "x", version: "1" }, entries } },
    null,
    2,
  ).replace(/\n {6}\},\n {6}\{/g, "\n      }, {");
  assert.ok(joined.includes("}, {"));
  for (const text of [flat, joined, har(entries).replace('"WebInspector"', '"x"').replace('"537.36"', '"1"')]) {
    const got = importHar(text, "s.har");
    assert.deepEqual(got.problems, []);
    assert.deepEqual(got.records, want.records);
  }
});

test("log members in any order: creator, pages and _mcpRecords after the entries read as before them", () => {
  const t = Date.parse(at(0));
  const pm = {
    v: 1 as const,
    transport: "postMessage" as const,
    exchange: "pm:a>b",
    url: "https://widget.example.com",
    client: "https://app.example.com",
  };
  const extra: CaptureRecord[] = [
    { ...pm, seq: 0, time: t + 100, kind: "message", direction: "c2s", stream: "postMessage", text: call(9) },
    { ...pm, seq: 1, time: t + 2500, kind: "message", direction: "s2c", stream: "postMessage", text: done(9) },
  ];
  const entries = asking(3);
  const canonical = JSON.stringify({
    log: {
      version: "1.2",
      creator: { name: "WebInspector", version: "537.36" },
      pages: [],
      _mcpRecords: extra,
      entries,
    },
  });
  const reordered = JSON.stringify({
    log: {
      entries,
      pages: [],
      _mcpRecords: extra,
      creator: { name: "WebInspector", version: "537.36" },
      version: "1.2",
    },
  });
  const want = importHar(canonical, "s.har");
  assert.deepEqual(want.problems, []);
  assert.ok(want.records.some((r) => r.transport === "postMessage"));
  assert.ok(
    want.records.every((r) => r.transport === "postMessage" || r.client === "WebInspector 537.36"),
    "entries without a pageref are the creator's",
  );
  assert.deepEqual(importHar(reordered, "s.har"), want);
  // Streamed from the first entry on, what came after the entries cannot be waited for: said so.
  const early = importHar(reordered, "s.har", { window: 0 });
  assert.equal(early.records.length, want.records.length);
  assert.ok(early.records.filter((r) => r.transport === "http").every((r) => r.client === ""));
  assert.deepEqual(
    early.problems.map((p) => p.message.replace(/: .*/, "")),
    ["log._mcpRecords comes after log.entries"],
  );
  // Our export writes its extra records before the entries.
  const exported = exportHar(want.records);
  assert.ok(exported.indexOf('"_mcpRecords"') < exported.indexOf('"entries"'));
  assert.deepEqual(importHar(exported, "again.har", { window: 0 }).problems, []);
});

test("past the window, records are handed on while the file is read, in time order and the same as whole", async () => {
  const text = har(asking(400));
  const whole = importHar(text, "s.har");
  const bytes = utf8(text);
  const handed: number[] = [];
  let read = 0;
  const records: CaptureRecord[] = [];
  await importHarStream(pieces(bytes, 4096), "s.har", {
    window: 0,
    onProgress: (n) => void (read = n),
    onRecords(batch) {
      records.push(...batch);
      handed.push(read);
    },
  });
  assert.equal(read, bytes.length);
  assert.deepEqual(records, whole.records);
  assert.ok(handed[0]! < bytes.length / 2, `the first records came after ${handed[0]} of ${bytes.length} bytes`);
  // Each question is placed before its answer, which is a later entry of the file.
  const asked = records.filter(
    (r): r is MessageRecord => r.kind === "message" && r.text.includes("elicitation/create"),
  );
  const answered = records.filter((r): r is MessageRecord => r.kind === "message" && r.text.includes('"action"'));
  assert.equal(asked.length, 400);
  asked.forEach((q, i) => assert.ok(q.seq < answered[i]!.seq));
  const { flows, findings } = analyze(records);
  assert.equal(flows.filter((f) => f.status === "complete").length, 400);
  assert.deepEqual(
    findings.filter((f) => f.severity !== "info"),
    [],
  );
});

test("entries far out of time order, streamed, are all imported, and a problem names each that came late", async () => {
  const entries = asking(6);
  const shuffled = [...entries.slice(6), ...entries.slice(0, 6)];
  const text = har(shuffled);
  const whole = importHar(text, "s.har");
  const got = await streamed(utf8(text), 100, { window: 0 });
  assert.equal(got.records.length, whole.records.length);
  assert.ok(got.records.every((r, i) => r.seq === i));
  // The first record of the file was handed on before the file went back in time: every entry of the second half
  // (same endpoint) goes back before it.
  assert.deepEqual(
    got.problems.map((p) => p.entry),
    [6, 7, 8, 9, 10, 11],
  );
  for (const p of got.problems)
    assert.match(
      p.message,
      /^entry \d+ goes back in time before records of http:\/\/127\.0\.0\.1:3000\/mcp that were already analysed/,
    );
});

test("UTF-16 with a BOM is read; UTF-16 without one, and an empty file, are said so", async () => {
  const text = har(asking(1));
  const want = importHar(text, "s.har").records;
  const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, "utf16le"))]);
  const be = new Uint8Array([0xfe, 0xff, ...new Uint8Array(Buffer.from(text, "utf16le").swap16())]);
  const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]);
  for (const bytes of [le, be, bom8]) assert.deepEqual((await streamed(bytes, 333)).records, want);
  const bare = await streamed(new Uint8Array(Buffer.from(text, "utf16le")), 333);
  assert.deepEqual(
    bare.problems.map((p) => p.message),
    ["the file is UTF-16LE encoded; capture files are UTF-8 (save or convert it as UTF-8)"],
  );
  for (const empty of ["", "  \n", "\uFEFF"])
    assert.deepEqual(
      (await streamed(utf8(empty), 1)).problems.map((p) => p.message),
      ["the file is empty: no capture records"],
    );
});

test("an AbortSignal stops the import between two pieces, and the source is closed", async () => {
  const bytes = utf8(har(asking(20)));
  const controller = new AbortController();
  let given = 0;
  let closed = false;
  async function* source(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < bytes.length; at += 256) {
        if (++given === 10) controller.abort();
        yield bytes.subarray(at, at + 256);
      }
    } finally {
      closed = true;
    }
  }
  await assert.rejects(importHarStream(source(), "s.har", { signal: controller.signal }), { name: "AbortError" });
  assert.equal(given, 10);
  assert.ok(closed);
});

test("a merge of recordings, each going back in time on its own endpoint, streams in a bounded window to the same flows", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "mcp-har-merged-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "merged.har");
  const { copies } = writeConcatenatedHar(path, 2 ** 20);
  const text = await readFile(path, "utf8");
  const whole = importHar(text, "m.har", { window: 2 ** 30 });
  const hold = 64 * 1024;
  const records: CaptureRecord[] = [];
  const result = await importHarStream(pieces(utf8(text), 65536), "m.har", {
    window: 0,
    hold,
    onRecords: (batch) => void records.push(...batch),
  });
  assert.deepEqual(result.problems, [], "no entry is out of order within its own endpoint");
  assert.ok(result.held > 0 && result.held <= hold, `held ${result.held} bytes of a ${hold} window`);
  assert.equal(records.length, whole.records.length);
  const flows = (recs: CaptureRecord[]) =>
    analyze(recs)
      .flows.map((f) => `${f.kind} ${f.method} ${f.target} ${f.status} ${f.elicitations.map((e) => e.action)}`)
      .sort();
  const expected = flows(whole.records);
  assert.equal(expected.length % copies, 0);
  assert.deepEqual(flows(records), expected);
});
