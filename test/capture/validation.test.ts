import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { har, harEntry, rpc, sse } from "./harFixture.ts";

// The importers validate what they make: every record passes the capture schema, numbers out of range are refused
// or clamped with a problem naming the entry, and export → import → export is a fixed point.

const call = rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } });
const answer = sse(`data: ${rpc({ jsonrpc: "2.0", id: 1, result: { content: [] } })}`);
const entry = (extra: Record<string, unknown> = {}, o: Partial<Parameters<typeof harEntry>[0]> = {}) =>
  harEntry({
    started: "2026-01-01T00:00:00.000Z",
    body: call,
    mimeType: "text/event-stream",
    text: answer,
    ...o,
    extra,
  });

/**
 * Export → import → export: the same text, the same records and the same flows. JSONL keeps every record exactly.
 * HAR rounds times to its milliseconds (startedDateTime), and entries that start in the same millisecond may be
 * numbered anew by the first round trip (the records, their order and contents stay, their `entry` and `exchange`
 * names follow the new numbering); from then on text and records are a fixed point.
 */
function assertFixedPoint(records: CaptureRecord[]): void {
  const shape = (rs: CaptureRecord[]) =>
    analyze(rs).flows.map((f) => [f.kind, f.status, f.rounds.length, f.elicitations.length]);
  const unnamed = (rs: CaptureRecord[]) => rs.map(({ entry: _e, exchange: _x, ...r }) => r);
  const first = importHar(exportHar(records), "x.har");
  assert.deepEqual(first.problems, []);
  const second = importHar(exportHar(first.records), "x.har");
  assert.deepEqual(second.problems, []);
  assert.deepEqual(unnamed(second.records), unnamed(first.records));
  const har = exportHar(second.records);
  const third = importHar(har, "x.har");
  assert.deepEqual(third.records, second.records);
  assert.equal(exportHar(third.records), har);
  assert.deepEqual(shape(third.records), shape(records));
  const jsonl = exportJsonl(records);
  const again = importJsonl(jsonl, "x.jsonl");
  assert.deepEqual(again.problems, []);
  assert.deepEqual(again.records, records);
  assert.equal(exportJsonl(again.records), jsonl);
}

function valid(records: CaptureRecord[]): void {
  for (const r of records) assert.ok(CaptureRecord.safeParse(r).success, JSON.stringify(r).slice(0, 200));
}

describe("importer validation", () => {
  test("a timing of 1e21 ms and two of 1e308 (their sum is Infinity): taken as 0, each named with its entry; the exports work and re-import", () => {
    const r = importHar(
      har([
        entry({ timings: { blocked: 1, send: 1, wait: 1e21, receive: 1 } }),
        entry({ timings: { blocked: 1e308, dns: 1e308, wait: 3, receive: 1 } }),
      ]),
      "t.har",
    );
    valid(r.records);
    assert.ok(
      r.problems.some(
        (p) =>
          p.entry === 0 && p.message === "entry 0: timings.wait 1e+21 ms is out of range (over a year); taken as 0",
      ),
      JSON.stringify(r.problems),
    );
    assert.equal(r.problems.filter((p) => p.entry === 1 && /timings\.(blocked|dns) 1e\+308/.test(p.message)).length, 2);
    assert.ok(r.records.every((x) => x.time < 1.8e12));
    assertFixedPoint(r.records);
  });

  test("an entry time out of range (a WebSocket message time of 1e300) is placed at the previous record's time, with a problem", () => {
    const ws = harEntry({
      started: "2026-01-01T00:00:00.000Z",
      method: "GET",
      url: "ws://127.0.0.1:3000/ws",
      status: 101,
      extra: { _resourceType: "websocket", _webSocketMessages: [{ type: "send", time: 1e300, opcode: 1, data: call }] },
    });
    const r = importHar(har([ws]), "w.har");
    valid(r.records);
    assert.ok(
      r.problems.some(
        (p) => p.entry === 0 && p.message.startsWith("entry 0: a message record's time 1e+300 is out of range"),
      ),
      JSON.stringify(r.problems),
    );
    assertFixedPoint(r.records);
  });

  test('statuses 1.5, 1e308, -1 and "200" are not statuses: reported with the entry, taken as no response', () => {
    for (const status of [1.5, 1e308, -1, "200"]) {
      const r = importHar(har([entry({}, { status: status as number })]), "s.har");
      valid(r.records);
      assert.ok(
        r.problems.some(
          (p) =>
            p.entry === 0 &&
            p.message.startsWith(`entry 0: response.status ${JSON.stringify(status)} is not an HTTP status`),
        ),
        `${status}: ${JSON.stringify(r.problems)}`,
      );
      assert.equal(r.records.filter((x) => x.kind === "response").length, 0);
      assertFixedPoint(r.records);
    }
  });

  test("request.headers as an object (not HAR's array) is reported, not taken silently as no headers", () => {
    const e = entry();
    (e.request as Record<string, unknown>).headers = { "mcp-session-id": "s1" };
    const r = importHar(har([e]), "h.har");
    assert.ok(
      r.problems.some(
        (p) =>
          p.entry === 0 &&
          p.message === "entry 0: request.headers is object, not an array of {name, value}; no request headers read",
      ),
      JSON.stringify(r.problems),
    );
  });

  test("JSONL: times, statuses and sizes out of range are refused, with the line", () => {
    const base = { v: 1, seq: 0, transport: "http", exchange: "x", url: "http://127.0.0.1/mcp" };
    const lines = [
      { ...base, time: 1e21, kind: "end" },
      { ...base, time: 1, kind: "response", status: 1.5 },
      { ...base, time: 1, kind: "response", status: 1e308 },
      { ...base, time: 1, kind: "message", direction: "s2c", stream: "body", text: "{}", truncated: -5 },
      { ...base, time: 1, kind: "end" },
    ].map((l) => JSON.stringify(l));
    const r = importJsonl(lines.join("\n"), "r.jsonl");
    assert.equal(r.records.length, 1);
    assert.deepEqual(
      r.problems.map((p) => p.line),
      [1, 2, 3, 4],
    );
    valid(r.records);
  });

  test("the demo capture and a real Chromium-style HAR: export → import → export is a fixed point", () => {
    const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo.jsonl").records;
    assertFixedPoint(demo);
  });
});
