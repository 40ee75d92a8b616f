import { test } from "node:test";
import assert from "node:assert/strict";
import { detectFormat, importCapture } from "../../src/capture/import.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { har, harEntry, rpc } from "./harFixture.ts";

const call = rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "confirm_action", arguments: {} } });
const sample: CaptureRecord[] = [
  {
    v: 1,
    seq: 0,
    time: 1767225600000,
    transport: "http",
    exchange: "x0",
    url: "http://127.0.0.1:3000/mcp",
    client: "http://127.0.0.1:3000",
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    headers: { "mcp-session-id": "s-1" },
    text: call,
  },
  {
    v: 1,
    seq: 1,
    time: 1767225600010.5,
    transport: "http",
    exchange: "x0",
    kind: "response",
    status: 200,
    headers: { "content-type": "text/event-stream" },
    emptyBody: false,
  },
  {
    v: 1,
    seq: 2,
    time: 1767225600011,
    transport: "http",
    exchange: "x0",
    kind: "message",
    direction: "s2c",
    stream: "post-sse",
    eventId: "a_0",
    text: '{"jsonrpc":"2.0","id":1,"result":{}}',
  },
  { v: 1, seq: 3, time: 1767225600012, transport: "http", exchange: "x0", kind: "end", error: "abort" },
];
const lines = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n");
const withoutSeq = (r: CaptureRecord) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== "seq"));

test("export then import gives the same records; one line per record", () => {
  const text = exportJsonl(sample);
  assert.equal(text.split("\n").length, sample.length + 1);
  assert.ok(text.endsWith("\n"));
  assert.deepEqual(importJsonl(text, "a.jsonl"), { records: sample, problems: [] });
});

test("export drops fields the format does not have (a stray Authorization header included)", () => {
  const leaky = {
    ...sample[0]!,
    headers: { "mcp-session-id": "s-1", authorization: "Bearer nope" },
    debugOnly: 1,
  } as unknown as CaptureRecord;
  const text = exportJsonl([leaky]);
  assert.ok(!text.includes("Bearer") && !text.includes("debugOnly"));
});

test("blank lines and CRLF line ends are fine; v defaults to 1", () => {
  const text = `\r\n${lines(sample.map(({ v: _v, ...rest }) => rest)).replaceAll("\n", "\r\n\r\n")}\r\n\r\n`;
  assert.deepEqual(importJsonl(text, "crlf.jsonl"), { records: sample, problems: [] });
});

test("a bad line is a problem with file and line number; the others are imported", () => {
  const text = [
    lines([sample[0]!]),
    "{not json",
    '{"kind":"message","seq":5}',
    "[]",
    lines([{ ...sample[1]!, v: 2 }]),
    lines(sample.slice(2)),
  ].join("\n");
  const { records, problems } = importJsonl(text, "bad.jsonl");
  assert.deepEqual(
    records.map((r) => r.seq),
    [0, 2, 3],
  );
  assert.deepEqual(
    problems.map((p) => [p.file, p.line]),
    [
      ["bad.jsonl", 2],
      ["bad.jsonl", 3],
      ["bad.jsonl", 4],
      ["bad.jsonl", 5],
    ],
  );
  assert.match(problems[0]!.message, /line 2: not JSON/);
  // zod/mini has no messages of its own: the importers check with English ones (src/capture/checkRecord.ts).
  assert.match(
    problems[1]!.message,
    /line 3: not a capture record \(time: Invalid input: expected number, received undefined/,
  );
  assert.match(problems[3]!.message, /capture version 2 is not supported/);
});

test("too many bad lines are listed up to 100, then counted", () => {
  const { records, problems } = importJsonl(`${"garbage\n".repeat(250)}${lines(sample)}`, "noise.jsonl");
  assert.equal(records.length, sample.length);
  assert.equal(problems.length, 101);
  assert.match(problems[100]!.message, /150 more bad lines/);
});

test("seq: gaps are kept; missing seq renumbers quietly; a seq going backwards renumbers with a problem", () => {
  const gaps = sample.map((r, i) => ({ ...r, seq: i * 10 }));
  assert.deepEqual(
    importJsonl(lines(gaps), "gaps.jsonl").records.map((r) => r.seq),
    [0, 10, 20, 30],
  );

  const none = importJsonl(lines(sample.map(withoutSeq)), "none.jsonl");
  assert.deepEqual(none, { records: sample, problems: [] });

  const some = importJsonl(lines([withoutSeq(sample[0]!), ...sample.slice(1)]), "some.jsonl");
  assert.deepEqual(
    some.records.map((r) => r.seq),
    [0, 1, 2, 3],
  );
  assert.match(some.problems[0]!.message, /1 of 4 records have no seq/);

  const backwards = importJsonl(lines([sample[0]!, sample[2]!, sample[1]!, sample[3]!]), "back.jsonl");
  assert.deepEqual(
    backwards.records.map((r) => r.seq),
    [0, 1, 2, 3],
  );
  assert.deepEqual(
    backwards.records.map((r) => r.kind),
    ["message", "message", "response", "end"],
    "line order is kept",
  );
  assert.equal(backwards.problems[0]?.line, 3);
  assert.match(backwards.problems[0]!.message, /seq 1 does not follow 2/);
});

test("importCapture tells HAR from JSONL by content, then by name", () => {
  const harText = har([
    harEntry({
      started: "2026-01-01T00:00:00.000Z",
      body: call,
      mimeType: "application/json",
      text: '{"jsonrpc":"2.0","id":1,"result":{}}',
    }),
  ]);
  assert.equal(detectFormat(harText, "capture.txt"), "har");
  assert.equal(detectFormat(harText.slice(0, 100), "capture"), "har");
  assert.equal(detectFormat(JSON.stringify({ x: 1, log: { entries: [] } }), "x.har"), "har");
  assert.equal(detectFormat(`{\n "version": 1,\n "log": {\n "entries": []}}`, "pretty"), "har");
  assert.equal(detectFormat(exportJsonl(sample), "capture.har.txt"), "jsonl");
  assert.equal(detectFormat("", "empty"), "jsonl");

  const fromHar = importCapture(harText, "a.har");
  assert.equal(fromHar.format, "har");
  assert.equal(fromHar.records.length, 4);
  const fromJsonl = importCapture(exportJsonl(sample), "a.jsonl");
  assert.equal(fromJsonl.format, "jsonl");
  assert.deepEqual(fromJsonl.records, sample);
});

test("the example in docs/capture-format.md is a valid capture", async () => {
  const { readFile } = await import("node:fs/promises");
  const doc = await readFile(new URL("../../docs/capture-format.md", import.meta.url), "utf8");
  const example = /```jsonl\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(example);
  const { records, problems } = importJsonl(example, "capture-format.md");
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records.map((r) => r.kind),
    ["message", "response", "message", "message", "response", "end", "message", "end"],
  );
  assert.deepEqual(exportJsonl(records), example);
});
