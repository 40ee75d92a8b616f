import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";
import { captureBuilder, CAPS, PV } from "../helpers/capture.ts";

// Export then import: JSONL is lossless; HAR keeps every record and the order the engine needs, though not every
// time (docs/capture-format.md, "Export and redaction").

const demoRecords = (): CaptureRecord[] =>
  importJsonl(readFileSync(new URL("../../demo/demo-capture.jsonl", import.meta.url), "utf8"), "demo.jsonl").records;

/** A flow without what a HAR cannot keep exactly: times, and record numbers (importHar renumbers). */
const flowShape = ({
  startedAt: _s,
  endedAt: _e,
  serverMs: _sm,
  userMs: _um,
  records,
  rounds,
  elicitations,
  ...rest
}: Flow) => ({
  ...rest,
  records: records.length,
  rounds: rounds.map(({ sentAt: _t, answeredAt: _a, requestRecord: _q, responseRecord: _r, ...round }) => round),
  elicitations: elicitations.map(({ askedAt: _t, answeredAt: _a, askRecord: _q, answerRecord: _r, ...e }) => e),
});
const findingShape = ({ id, rule, severity, violator, flow, pointer, message }: Finding) => ({
  id,
  rule,
  severity,
  violator,
  flow,
  pointer,
  message,
});
type Analysis = ReturnType<typeof analyze>;

function assertSameAnalysis(got: Analysis, want: Analysis, { timeTolerance }: { timeTolerance: number }): void {
  assert.deepEqual(got.flows.map(flowShape), want.flows.map(flowShape));
  assert.deepEqual(got.findings.map(findingShape), want.findings.map(findingShape));
  assert.deepEqual(
    got.problems.map((p) => p.message),
    want.problems.map((p) => p.message),
  );
  got.flows.forEach((flow, i) => {
    const other = want.flows[i]!;
    for (const key of ["startedAt", "endedAt", "serverMs", "userMs"] as const) {
      assert.ok(
        Math.abs((flow[key] ?? 0) - (other[key] ?? 0)) <= timeTolerance,
        `${flow.id} ${key}: ${flow[key]} vs ${other[key]}`,
      );
    }
  });
}

/**
 * The same records but for what importHar sets itself (seq, exchange names, entry, times), in capture order or
 * as a multiset, and grouped into exchanges alike.
 */
function sameRecords(got: readonly CaptureRecord[], want: readonly CaptureRecord[], { order = false } = {}): void {
  const sorted = (o: object): [string, unknown][] => Object.entries(o).sort(([a], [b]) => a.localeCompare(b));
  const canon = ({
    seq: _s,
    exchange: _x,
    entry: _e,
    time: _t,
    headers,
    ...rest
  }: CaptureRecord & { headers?: object }): string => JSON.stringify([sorted(rest), sorted(headers ?? {})]);
  const a = got.map(canon);
  const b = want.map(canon);
  if (order) assert.deepEqual(a, b);
  else assert.deepEqual([...a].sort(), [...b].sort());
  const exchanges = (records: readonly CaptureRecord[], texts: string[]): string[] => {
    const groups = new Map<string | undefined, string[]>();
    records.forEach((r, i) => groups.set(r.exchange, [...(groups.get(r.exchange) ?? []), texts[i]!]));
    return [...groups.values()].map((g) => g.sort().join("\n")).sort();
  };
  assert.deepEqual(exchanges(got, a), exchanges(want, b));
}

/** The builder leaves emptyBody unset; the tap knows it, and a HAR says it. */
const withBodies = (records: CaptureRecord[]): CaptureRecord[] =>
  records.map((r) =>
    r.kind === "response" &&
    r.emptyBody === undefined &&
    records.some((m) => m.kind === "message" && m.direction === "s2c" && m.exchange === r.exchange)
      ? { ...r, emptyBody: false }
      : r,
  );

type Har = {
  log: {
    version: string;
    creator: { name: string; version: string };
    pages: { id: string }[];
    entries: Record<string, any>[];
    _mcpRecords?: CaptureRecord[];
  };
};
const parse = (text: string): Har => JSON.parse(text) as Har;

describe("demo capture (real SDK traffic of both eras)", () => {
  const records = demoRecords();

  test("JSONL: export then import gives the same records, flows, findings and problems", () => {
    const back = importJsonl(exportJsonl(records), "demo.jsonl");
    assert.deepEqual(back.problems, []);
    assert.deepEqual(back.records, records);
    assert.deepEqual(analyze(back.records), analyze(records));
  });

  test("HAR: export then import gives the same flows and findings", () => {
    const text = exportHar(records);
    const back = importCapture(text, "demo.har");
    assert.equal(back.format, "har");
    assert.deepEqual(back.problems, []);
    sameRecords(back.records, records);
    assertSameAnalysis(analyze(back.records), analyze(records), { timeTolerance: 2 });
  });

  test("HAR 1.2 shape: creator, pages by client, one entry per HTTP exchange, bodies and SSE re-framed", () => {
    const log = parse(exportHar(records)).log;
    assert.equal(log.version, "1.2");
    assert.deepEqual(log.creator, { name: "mcp-elicitation-inspector", version: "0.1.0" });
    assert.deepEqual(parse(exportHar(records, { creator: { name: "ci", version: "9" } })).log.creator, {
      name: "ci",
      version: "9",
    });
    assert.deepEqual(
      log.pages.map((p) => p.id),
      ["test-client"],
    );
    assert.equal(log.entries.length, new Set(records.map((r) => r.exchange)).size);
    assert.equal(log._mcpRecords, undefined);
    const times = log.entries.map((e) => Date.parse(e.startedDateTime as string));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    for (const e of log.entries) {
      assert.equal(e.pageref, "test-client");
      assert.match(e.startedDateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      for (const field of [
        "method",
        "url",
        "httpVersion",
        "headers",
        "queryString",
        "cookies",
        "headersSize",
        "bodySize",
      ])
        assert.ok(field in e.request, field);
      for (const field of [
        "status",
        "statusText",
        "httpVersion",
        "headers",
        "cookies",
        "content",
        "redirectURL",
        "headersSize",
        "bodySize",
      ])
        assert.ok(field in e.response, field);
      assert.ok(e.timings.wait >= 0 && e.timings.receive >= 0 && e.time >= 0);
    }
    const sse = log.entries.find(
      (e) =>
        e.response.content.mimeType === "text/event-stream" && e.response.content.text.includes("elicitation/create"),
    );
    assert.match(sse?.response.content.text, /^id: [^\n]+\ndata: \{"method":"elicitation\/create"/m);
    const accepted = log.entries.find((e) => e.response.status === 202);
    assert.deepEqual(accepted?.response.content, { size: 0, mimeType: "x-unknown", text: "" });
    assert.equal(accepted?.request.postData.mimeType, "application/json");
  });
});

describe("synthetic captures", () => {
  test("a stream with progress around a question keeps its order: events between are spread, the end moves to fit", () => {
    const c = captureBuilder();
    const x = c.post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "deploy", arguments: {}, _meta: { progressToken: "p" } },
      },
      { "mcp-session-id": "s" },
    );
    c.status(x, 200, { "content-type": "text/event-stream" }, false);
    const progress = (n: number) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p", progress: n },
    });
    c.sse(x, progress(1));
    c.sse(x, progress(2));
    c.sse(x, {
      jsonrpc: "2.0",
      id: 0,
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Deploy to production?",
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
      },
    });
    // The user thinks for 5 s; the server then reports progress twice and answers.
    c.wait(5_000);
    c.accepted(
      { jsonrpc: "2.0", id: 0, result: { action: "accept", content: { confirm: true } } },
      { "mcp-session-id": "s" },
    );
    c.sse(x, progress(3));
    c.sse(x, progress(4));
    c.sse(x, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "deployed" }] } });
    c.end(x);
    const back = importHar(exportHar(c.records), "progress.har");
    assert.deepEqual(back.problems, []);
    sameRecords(back.records, c.records, { order: true });
    const want = analyze(c.records);
    assert.equal(want.flows[0]?.elicitations[0]?.action, "accept");
    // HAR has no time per event: the order holds, but the result lands seconds later than it came.
    assertSameAnalysis(analyze(back.records), want, { timeTolerance: Infinity });
  });

  test("a request sent within the millisecond of the question it answers stays after it", () => {
    const c = captureBuilder();
    const x = c.post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } },
      { "mcp-session-id": "s" },
    );
    c.status(x, 200, { "content-type": "text/event-stream" }, false);
    c.sse(x, {
      jsonrpc: "2.0",
      id: 0,
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Deploy?",
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
      },
    });
    c.accepted(
      { jsonrpc: "2.0", id: 0, result: { action: "accept", content: { confirm: true } } },
      { "mcp-session-id": "s" },
    );
    c.sse(x, { jsonrpc: "2.0", id: 1, result: { content: [] } });
    c.end(x);
    // Question at .2, answer at .7 of the same millisecond; the answer's 202 and end in the next one.
    const times = [1000.1, 1000.15, 1000.2, 1000.7, 1001.2, 1001.3, 1002, 1003];
    const records = c.records.map((r, i) => ({ ...r, time: 1_767_225_600_000 + times[i]! }));
    const back = importHar(exportHar(records), "tight.har");
    sameRecords(back.records, records, { order: true });
    assertSameAnalysis(analyze(back.records), analyze(records), { timeTolerance: 1 });
  });

  test("JSON bodies, 202s, an empty stream, errors and a GET without session: every record comes back", () => {
    const c = captureBuilder();
    const init = c.call(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      {
        jsonrpc: "2.0",
        id: 0,
        result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
      },
    );
    assert.ok(init);
    c.accepted({ jsonrpc: "2.0", method: "notifications/initialized" });
    // A GET stream that opened and closed before any event; a GET the server refused (nothing says MCP).
    const open = c.get({ "mcp-session-id": "s" });
    c.end(open, "abort");
    const last = c.records[c.records.length - 1]!;
    const refused = { v: 1, transport: "http", exchange: "refused", url: last.url, client: last.client } as const;
    c.records.push({
      ...refused,
      seq: c.records.length,
      time: last.time + 5,
      kind: "response",
      status: 405,
      emptyBody: true,
    });
    c.records.push({ ...refused, seq: c.records.length, time: last.time + 6, kind: "end" });
    c.wait(10);
    const failed = c.post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } });
    c.end(failed, "net::ERR_CONNECTION_REFUSED");
    const records = withBodies(c.records);
    const text = exportHar(records);
    assert.match(text, /"name": "mcp-inspector-export"/);
    const back = importHar(text, "mixed.har");
    assert.deepEqual(back.problems, []);
    sameRecords(back.records, records, { order: true });
    assertSameAnalysis(analyze(back.records), analyze(records), { timeTolerance: 1 });
  });

  test("WebSocket frames travel as _webSocketMessages; postMessage and EventSource records as log._mcpRecords", () => {
    const t = 1_767_225_600_000;
    const ws = {
      v: 1 as const,
      transport: "websocket" as const,
      exchange: "w1",
      url: "wss://api.example.com/mcp",
      client: "https://app.example.com",
    };
    const pm = {
      v: 1 as const,
      transport: "postMessage" as const,
      exchange: "pm:a>b",
      url: "https://widget.example.com",
      client: "https://app.example.com",
    };
    const es = {
      v: 1 as const,
      transport: "eventsource" as const,
      exchange: "e1",
      url: "https://old.example.com/sse",
      client: "https://app.example.com",
    };
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } });
    const done = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    const records: CaptureRecord[] = [
      { ...ws, seq: 0, time: t, kind: "response", status: 101 },
      { ...ws, seq: 1, time: t + 1.5, kind: "message", direction: "c2s", stream: "websocket", text: call },
      { ...pm, seq: 2, time: t + 2, kind: "message", direction: "c2s", stream: "postMessage", text: call },
      {
        ...es,
        seq: 3,
        time: t + 3,
        kind: "response",
        status: 200,
        headers: { "content-type": "text/event-stream" },
        emptyBody: false,
      },
      {
        ...es,
        seq: 4,
        time: t + 3.5,
        kind: "message",
        direction: "s2c",
        stream: "eventsource",
        method: "GET",
        event: "endpoint",
        text: "/messages?sessionId=1",
      },
      { ...ws, seq: 5, time: t + 4.25, kind: "message", direction: "s2c", stream: "websocket", text: done },
      { ...ws, seq: 6, time: t + 9, kind: "end" },
    ];
    const log = parse(exportHar(records)).log;
    assert.equal(log.entries.length, 1);
    const entry = log.entries[0]!;
    assert.equal(entry._resourceType, "websocket");
    assert.deepEqual(entry._webSocketMessages, [
      { type: "send", time: t + 1.5, opcode: 1, data: call },
      { type: "receive", time: t + 4.25, opcode: 1, data: done },
    ]);
    assert.deepEqual(log._mcpRecords, [records[2], records[3], records[4]]);
    const back = importHar(JSON.stringify({ log }), "ws.har");
    assert.deepEqual(back.problems, []);
    // importHar gives every record of an entry its request method, and reads log._mcpRecords back in time order.
    sameRecords(
      back.records,
      records.map((r) => (r.transport === "websocket" && r.kind === "message" ? { ...r, method: "GET" } : r)),
      { order: true },
    );
  });

  test("only the record format reaches the file: an Authorization header smuggled into a record does not", () => {
    const c = captureBuilder();
    c.call({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 1, result: { tools: [] } }, {
      "mcp-session-id": "s",
      authorization: "Bearer smuggled-4242",
    } as never);
    const text = exportHar(c.records);
    assert.ok(!text.includes("smuggled-4242"));
    assert.ok(!/authorization/i.test(text));
  });

  test("a 2026-07-28 retry round trip: requestState and inputResponses come back untouched", () => {
    const c = captureBuilder();
    const meta = { [PV]: "2026-07-28", [CAPS]: { elicitation: { form: {} } } };
    const h = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "deploy" };
    const ask = {
      mode: "form",
      message: "Which environment?",
      requestedSchema: { type: "object", properties: { env: { type: "string" } } },
    };
    c.call(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {}, _meta: meta } },
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          resultType: "input_required",
          inputRequests: { env: { method: "elicitation/create", params: ask } },
          requestState: "st-1",
        },
      },
      h,
    );
    c.call(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "deploy",
          arguments: {},
          _meta: meta,
          inputResponses: { env: { action: "accept", content: { env: "prod" } } },
          requestState: "st-1",
        },
      },
      { jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [] } },
      h,
    );
    const records = withBodies(c.records);
    const back = importHar(exportHar(records), "mrtr.har");
    sameRecords(back.records, records, { order: true });
    const flows = analyze(back.records).flows;
    assert.equal(flows[0]?.kind, "mrtr");
    assert.equal(flows[0]?.rounds.length, 2);
    assertSameAnalysis(analyze(back.records), analyze(records), { timeTolerance: 1 });
  });
});
