import { test } from "node:test";
import assert from "node:assert/strict";
import { importHar } from "../../src/capture/har/import.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import { CaptureRecord } from "../../src/capture/record.ts";
import type { MessageRecord } from "../../src/capture/record.ts";
import { COOKIE, SECRET, har, harEntry, rpc, sse } from "./harFixture.ts";

const call = (id: number) =>
  rpc({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "confirm_action", arguments: {} } });
const result = (id: number) => rpc({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `done ${id}` }] } });
const jsonEntry = (i: number) =>
  harEntry({ started: `2026-01-01T00:00:0${i}.000Z`, body: call(i), mimeType: "application/json", text: result(i) });
const texts = (records: CaptureRecord[]) =>
  records.filter((r): r is MessageRecord => r.kind === "message").map((m) => m.text);
const valid = (records: CaptureRecord[]) => records.every((r, i) => r.seq === i && CaptureRecord.safeParse(r).success);

test("a truncated HAR: the complete entries before the cut are imported, and a problem says where it ends", () => {
  const full = har([jsonEntry(0), jsonEntry(1), jsonEntry(2)]);
  const cut = full.slice(0, full.indexOf(`"done 2`) - 30);
  const { records, problems } = importCapture(cut, "cut.har");
  assert.deepEqual(texts(records), [call(0), result(0), call(1), result(1)]);
  assert.ok(valid(records));
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.file, "cut.har");
  assert.equal(problems[0]?.entry, 2);
  assert.match(problems[0]!.message, /truncated HAR: the file ends inside entry 2 .*imported the 2 complete entries/);
});

test("a truncated HAR, cut inside a string, between entries, or in a minified file", () => {
  const minified = JSON.stringify(JSON.parse(har([jsonEntry(0), jsonEntry(1)])));
  for (const [text, entries] of [
    [minified.slice(0, minified.indexOf("done 1") + 3), 1],
    [minified.slice(0, minified.lastIndexOf("},{") + 2), 1],
    [minified.slice(0, -3), 2],
  ] as const) {
    const { records, problems } = importHar(text, "m.har");
    assert.equal(new Set(records.map((r) => r.entry)).size, entries);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /truncated HAR/);
  }
});

test("cutting a HAR anywhere never throws and only ever yields valid records", () => {
  const full = har([
    jsonEntry(0),
    harEntry({
      started: "2026-01-01T00:00:05.000Z",
      body: call(3),
      mimeType: "text/event-stream",
      text: sse(`data: ${result(3)}`),
    }),
  ]);
  for (let end = 0; end <= full.length; end += 7) {
    const { records, problems } = importCapture(full.slice(0, end), "any.har");
    assert.ok(valid(records), `cut at ${end}`);
    if (end < full.length - 1) assert.ok(problems.length > 0, `cut at ${end} is reported`);
  }
});

test("a file that is not JSON, not a HAR, or empty is one problem naming the file", () => {
  for (const [text, pattern] of [
    ["hello, world", /not a HAR file: not JSON/],
    ["", /the file is empty/],
    ['{"log": {"version": "1.2"}}', /no log\.entries/],
    ["[1, 2, 3]", /no log\.entries/],
    ['{"log": {"version": "1.2", "creator": {"na', /truncated before any log\.entries/],
  ] as const) {
    const { records, problems } = importHar(text, "bad.har");
    assert.deepEqual(records, []);
    assert.equal(problems.length, 1, text);
    assert.equal(problems[0]?.file, "bad.har");
    assert.match(problems[0]!.message, pattern);
  }
});

test("a HAR with a syntax error inside one entry keeps the others", () => {
  const text = har([jsonEntry(0), jsonEntry(1), jsonEntry(2)]).replace(
    `"startedDateTime": "2026-01-01T00:00:01.000Z"`,
    `"startedDateTime": 2026-01-01`,
  );
  const { records, problems } = importHar(text, "syntax.har");
  assert.deepEqual([...new Set(records.map((r) => r.entry))], [0, 2]);
  assert.deepEqual(
    problems.map((p) => p.entry),
    [undefined, 1],
  );
  assert.match(problems[0]!.message, /invalid JSON/);
  assert.match(problems[1]!.message, /entry 1 is not valid JSON/);
});

test("malformed entries are problems with their index; the rest is imported", () => {
  const noDate = jsonEntry(3);
  noDate.startedDateTime = "yesterday";
  const { records, problems } = importHar(
    har([jsonEntry(0), 42, { request: { method: "POST" } }, noDate, null]),
    "entries.har",
  );
  assert.deepEqual(
    problems.map((p) => [p.file, p.entry]),
    [
      ["entries.har", 1],
      ["entries.har", 2],
      ["entries.har", 3],
      ["entries.har", 4],
    ],
  );
  assert.match(problems[2]!.message, /not a date/);
  assert.deepEqual([...new Set(records.map((r) => r.entry))], [0, 3]);
  assert.ok(valid(records));
});

test("broken SSE framing: no space after data:, CRLF, a missing blank line, a partial event at the end", () => {
  const body =
    `id: 1\r\ndata:${result(1)}\r\n\r\n` + `data: ${result(2)}\ndata: ${result(3)}\n\n` + `data: ${result(4)}`;
  const { records, problems } = importHar(
    har([harEntry({ started: "2026-01-01T00:00:00.000Z", body: call(1), mimeType: "text/event-stream", text: body })]),
    "sse.har",
  );
  assert.deepEqual(texts(records), [call(1), result(1), `${result(2)}\n${result(3)}`, result(4)]);
  const events = records.filter((r): r is MessageRecord => r.kind === "message" && r.direction === "s2c");
  assert.deepEqual(
    events.map((e) => e.eventId),
    ["1", undefined, undefined],
  );
  // The joined event is not JSON: the engine reports it, as the client would have failed on it.
  assert.deepEqual(
    problems.map((p) => p.entry),
    [0],
  );
  assert.match(problems[0]!.message, /ends inside an event/);
});

test("a partial last line is kept verbatim (the engine reports the broken JSON)", () => {
  const body = `data: ${result(1)}\n\ndata: {"jsonrpc":"2.0","id":2,"res`;
  const { records } = importHar(
    har([harEntry({ started: "2026-01-01T00:00:00.000Z", body: call(1), mimeType: "text/event-stream", text: body })]),
    "p.har",
  );
  assert.deepEqual(texts(records).slice(1), [result(1), `{"jsonrpc":"2.0","id":2,"res`]);
});

test("invalid JSON in a message is kept verbatim", () => {
  const broken = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{name:'x'}`;
  const { records, problems } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:00.000Z",
        body: broken,
        mimeType: "application/json",
        text: `{"jsonrpc":"2.0","id":1,"result":`,
      }),
    ]),
    "j.har",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(texts(records), [broken, `{"jsonrpc":"2.0","id":1,"result":`]);
});

test("a 5 MB message is imported intact from HAR (JSON and SSE) and through JSONL", () => {
  const big = rpc({
    jsonrpc: "2.0",
    id: 7,
    result: { content: [{ type: "text", text: "x".repeat(5 * 1024 * 1024) }] },
  });
  const { records, problems } = importHar(
    har([
      harEntry({ started: "2026-01-01T00:00:00.000Z", body: call(7), mimeType: "application/json", text: big }),
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        body: call(7),
        mimeType: "text/event-stream",
        text: sse(`data: ${big}`),
      }),
    ]),
    "big.har",
  );
  assert.deepEqual(problems, []);
  const bigOnes = texts(records).filter((t) => t.length > 1000);
  assert.equal(bigOnes.length, 2);
  assert.ok(bigOnes.every((t) => t === big));
  const again = importJsonl(exportJsonl(records), "big.jsonl");
  assert.deepEqual(again.records, records);
});

test("base64 bodies are decoded (UTF-8 included); a body that is not base64 is a problem", () => {
  const utf8 = rpc({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Zürich — 東京 ✓" }] } });
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
  const { records, problems } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:00.000Z",
        headers: { "mcp-protocol-version": "2025-11-25" },
        body: call(1),
        mimeType: "application/json",
        text: b64(utf8),
        encoding: "base64",
      }),
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        headers: { "mcp-protocol-version": "2025-11-25" },
        body: call(2),
        mimeType: "text/event-stream",
        text: b64(sse(`data: ${utf8}`)),
        encoding: "base64",
      }),
      harEntry({
        started: "2026-01-01T00:00:02.000Z",
        headers: { "mcp-protocol-version": "2025-11-25" },
        body: call(3),
        mimeType: "application/json",
        text: "%%% not base64 %%%",
        encoding: "base64",
      }),
    ]),
    "b64.har",
  );
  assert.deepEqual(texts(records), [call(1), utf8, call(2), utf8, call(3)]);
  assert.deepEqual(
    problems.map((p) => p.entry),
    [2],
  );
  assert.match(problems[0]!.message, /base64/);
});

test("WebSocket messages: send is c2s, receive s2c, binary frames decoded, control frames skipped, seconds or milliseconds", () => {
  const t = Date.parse("2026-01-01T00:00:00.000Z");
  const ws = (started: string, time: (s: number) => number) =>
    harEntry({
      method: "GET",
      url: "ws://127.0.0.1:3000/mcp",
      started,
      headers: { "Sec-WebSocket-Protocol": "mcp", Authorization: SECRET },
      status: 101,
      extra: {
        _resourceType: "websocket",
        _webSocketMessages: [
          { type: "send", time: time(1), opcode: 1, data: call(1) },
          { type: "receive", time: time(2), opcode: 2, data: Buffer.from(result(1)).toString("base64") },
          { type: "receive", time: time(3), opcode: 9, data: "" },
          { type: "bogus" },
        ],
      },
    });
  const { records, problems } = importHar(
    har([
      ws("2026-01-01T00:00:00.000Z", (s) => t / 1000 + s),
      ws("2026-01-01T00:00:10.000Z", (s) => t + 10_000 + s * 1000),
    ]),
    "ws.har",
  );
  const msgs = records.filter((r): r is MessageRecord => r.kind === "message");
  assert.deepEqual(
    msgs.map((m) => [m.entry, m.direction, m.stream, m.transport, m.text, m.time - t]),
    [
      [0, "c2s", "websocket", "websocket", call(1), 1000],
      [0, "s2c", "websocket", "websocket", result(1), 2000],
      [1, "c2s", "websocket", "websocket", call(1), 11000],
      [1, "s2c", "websocket", "websocket", result(1), 12000],
    ],
  );
  assert.deepEqual(
    records.filter((r) => r.kind === "response").map((r) => r.kind === "response" && r.status),
    [101, 101],
  );
  assert.deepEqual(
    problems.map((p) => p.entry),
    [0, 1],
  );
});

test("Authorization and Cookie values never appear in any record", () => {
  const secretHeaders = {
    Authorization: SECRET,
    Cookie: COOKIE,
    "Proxy-Authorization": SECRET,
    "mcp-session-id": "s-1",
  };
  const { records } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:00.000Z",
        headers: secretHeaders,
        body: call(1),
        mimeType: "application/json",
        text: result(1),
        responseHeaders: { "Content-Type": "application/json", "Set-Cookie": COOKIE, "WWW-Authenticate": SECRET },
      }),
      harEntry({
        method: "GET",
        started: "2026-01-01T00:00:01.000Z",
        headers: secretHeaders,
        mimeType: "text/event-stream",
        text: sse(`data: ${result(2)}`),
      }),
    ]),
    "secrets.har",
  );
  assert.ok(records.length >= 7);
  for (const serialized of [JSON.stringify(records), exportJsonl(records)]) {
    assert.ok(!serialized.includes("DO-NOT-LEAK"), "no secret in the output");
    assert.ok(!/authorization|cookie/i.test(serialized), "no such header names either");
  }
  assert.ok(JSON.stringify(records).includes('"mcp-session-id":"s-1"'));
});
