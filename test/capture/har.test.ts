import { test } from "node:test";
import assert from "node:assert/strict";
import { importHar } from "../../src/capture/har/import.ts";
import { CaptureRecord } from "../../src/capture/record.ts";
import type { MessageRecord } from "../../src/capture/record.ts";
import { COOKIE, SECRET, har, harEntry, rpc, sse } from "./harFixture.ts";

const auth = { Authorization: SECRET, Cookie: COOKIE };
const initialize = rpc({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } },
});
const initialized = rpc({
  jsonrpc: "2.0",
  result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
  id: 0,
});
const call = rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "confirm_action", arguments: {} } });
const ask = rpc({
  jsonrpc: "2.0",
  id: 0,
  method: "elicitation/create",
  params: { message: "Go?", requestedSchema: { type: "object", properties: {} } },
});
const answer = rpc({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: {} } });
const result = rpc({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } });

const messages = (records: CaptureRecord[]): MessageRecord[] =>
  records.filter((r): r is MessageRecord => r.kind === "message");
const assertValid = (records: CaptureRecord[]): void => {
  records.forEach((r, i) => {
    assert.equal(r.seq, i);
    assert.ok(CaptureRecord.safeParse(r).success, `record ${i} fits the schema`);
  });
};

test("a JSON exchange becomes request, response, body and end, with picked headers", () => {
  const { records, problems } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        pageref: "page_1",
        headers: { ...auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: initialize,
        mimeType: "application/json",
        responseHeaders: { "Content-Type": "application/json", "Mcp-Session-Id": "s-1", "Set-Cookie": "a=b" },
        text: initialized,
      }),
    ]),
    "one.har",
  );
  assert.deepEqual(problems, []);
  assertValid(records);
  assert.deepEqual(
    records.map((r) => [r.kind, r.kind === "message" ? r.direction : r.kind === "response" ? r.status : ""]),
    [
      ["message", "c2s"],
      ["response", 200],
      ["message", "s2c"],
      ["end", ""],
    ],
  );
  const [request, head, body, end] = records;
  const t0 = Date.parse("2026-01-01T00:00:01.000Z");
  assert.deepEqual(request, {
    v: 1,
    seq: 0,
    transport: "http",
    exchange: "har:0",
    url: "http://127.0.0.1:3000/mcp",
    client: "page_1",
    entry: 0,
    time: t0,
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text: initialize,
    headers: { "content-type": "application/json" },
  });
  assert.equal(head?.kind === "response" && head.headers?.["mcp-session-id"], "s-1");
  assert.equal(head?.kind === "response" && head.emptyBody, false);
  // blocked 1 + send 1 + wait 5; the end adds receive 1.
  assert.equal(head?.time, t0 + 7);
  assert.equal(body?.kind === "message" && body.text, initialized);
  assert.equal(body?.kind === "message" && body.stream, "body");
  assert.equal(end?.time, t0 + 8);
  assert.equal(end?.kind === "end" && end.error, undefined);
});

test("a POST SSE stream interleaves with the answer POST in time order", () => {
  const { records, problems } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        headers: { "Mcp-Session-Id": "s-1", "MCP-Protocol-Version": "2025-11-25" },
        body: call,
        mimeType: "text/event-stream",
        text: sse(`id: a_0\ndata: ${ask}`, `id: a_1\ndata: ${result}`),
        wait: 10,
        receive: 500,
      }),
      harEntry({
        started: "2026-01-01T00:00:01.100Z",
        headers: { "Mcp-Session-Id": "s-1" },
        body: answer,
        status: 202,
        text: "",
        mimeType: "text/plain",
      }),
    ]),
    "sse.har",
  );
  assert.deepEqual(problems, []);
  assertValid(records);
  assert.deepEqual(
    records.map((r) => `${r.entry}:${r.kind}${r.kind === "message" ? `:${r.stream}` : ""}`),
    [
      "0:message:body",
      "0:response",
      "0:message:post-sse",
      "1:message:body",
      "1:response",
      "1:end",
      "0:message:post-sse",
      "0:end",
    ],
  );
  const events = messages(records).filter((m) => m.stream === "post-sse");
  assert.deepEqual(
    events.map((m) => [m.text, m.eventId, m.method]),
    [
      [ask, "a_0", "POST"],
      [result, "a_1", "POST"],
    ],
  );
  const accepted = records.find((r) => r.kind === "response" && r.entry === 1);
  assert.equal(accepted?.kind === "response" && accepted.status, 202);
  assert.equal(accepted?.kind === "response" && accepted.emptyBody, true);
  assert.equal(records.filter((r) => r.exchange === "har:1").length, 3);
});

test("a GET stream: get-sse events carry the GET's headers; priming events are dropped; other event types are marked", () => {
  const { records } = importHar(
    har([
      harEntry({
        method: "GET",
        started: "2026-01-01T00:00:02.000Z",
        headers: { ...auth, "Mcp-Session-Id": "s-1", "Last-Event-ID": "x_3" },
        mimeType: "text/event-stream; charset=utf-8",
        text: sse("id: x_4\ndata:", "event: endpoint\ndata: /messages?sessionId=1", `event: message\ndata: ${ask}`),
      }),
    ]),
    "get.har",
  );
  const events = messages(records);
  assert.deepEqual(
    events.map((m) => [m.stream, m.direction, m.event, m.text]),
    [
      ["get-sse", "s2c", "endpoint", "/messages?sessionId=1"],
      ["get-sse", "s2c", undefined, ask],
    ],
  );
  assert.deepEqual(events[1]?.headers, { "mcp-session-id": "s-1", "last-event-id": "x_3" });
});

test("entries that are not MCP make one page-request record each: method, origin and path, nothing else; indexes point at the HAR entries", () => {
  const { records, problems } = importHar(
    har([
      harEntry({
        method: "GET",
        url: "http://127.0.0.1:3000/?q=secret#top",
        started: "2026-01-01T00:00:00.000Z",
        headers: auth,
        mimeType: "text/html",
        text: "<!doctype html><p>hi",
      }),
      harEntry({
        method: "GET",
        url: "http://127.0.0.1:3000/logo.png",
        started: "2026-01-01T00:00:00.100Z",
        mimeType: "image/png",
        text: "iVBORw0KGgo=",
        encoding: "base64",
      }),
      harEntry({
        url: "http://127.0.0.1:3000/api?token=t0k",
        started: "2026-01-01T00:00:00.200Z",
        body: '{"query":"{ me }"}',
        mimeType: "application/json",
        text: '{"data":{}}',
      }),
      harEntry({
        method: "GET",
        url: "data:image/png;base64,iVBORw0KGgo=",
        started: "2026-01-01T00:00:00.250Z",
        mimeType: "image/png",
        text: "",
      }),
      harEntry({
        started: "2026-01-01T00:00:00.300Z",
        body: initialize,
        mimeType: "application/json",
        text: initialized,
      }),
    ]),
    "mixed.har",
  );
  assert.deepEqual(problems, []);
  assertValid(records);
  const pages = records.filter((r) => r.kind === "page-request");
  assert.deepEqual(
    pages.map((r) => ({ ...r })),
    [
      {
        v: 1,
        seq: 0,
        time: Date.parse("2026-01-01T00:00:00.000Z"),
        transport: "http",
        url: "http://127.0.0.1:3000/",
        client: "WebInspector 537.36",
        entry: 0,
        kind: "page-request",
        method: "GET",
      },
      {
        v: 1,
        seq: 1,
        time: Date.parse("2026-01-01T00:00:00.100Z"),
        transport: "http",
        url: "http://127.0.0.1:3000/logo.png",
        client: "WebInspector 537.36",
        entry: 1,
        kind: "page-request",
        method: "GET",
      },
      {
        v: 1,
        seq: 2,
        time: Date.parse("2026-01-01T00:00:00.200Z"),
        transport: "http",
        url: "http://127.0.0.1:3000/api",
        client: "WebInspector 537.36",
        entry: 2,
        kind: "page-request",
        method: "POST",
      },
    ],
  );
  assert.ok(
    !JSON.stringify(pages).includes("secret") &&
      !JSON.stringify(pages).includes("t0k") &&
      !JSON.stringify(pages).includes(SECRET),
  );
  assert.deepEqual([...new Set(records.filter((r) => r.kind !== "page-request").map((r) => r.exchange))], ["har:4"]);
});

test("OAuth metadata documents keep the four public fields url-not-mcp-authorization needs, and nothing else of the answer", () => {
  const prm = {
    resource: "https://mcp.example.com/mcp",
    authorization_servers: ["https://auth.example.com", 7],
    scopes_supported: ["mcp"],
    secret_hint: "x",
  };
  const as = {
    issuer: "https://auth.example.com",
    authorization_endpoint: "https://auth.example.com/authorize",
    token_endpoint: "https://auth.example.com/token",
  };
  const { records, problems } = importHar(
    har([
      harEntry({
        method: "GET",
        url: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
        started: "2026-01-01T00:00:00.000Z",
        mimeType: "application/json",
        text: JSON.stringify(prm),
      }),
      harEntry({
        method: "GET",
        url: "https://auth.example.com/.well-known/oauth-authorization-server",
        started: "2026-01-01T00:00:00.100Z",
        mimeType: "application/json",
        text: Buffer.from(JSON.stringify(as)).toString("base64"),
        encoding: "base64",
      }),
      harEntry({
        method: "GET",
        url: "https://auth.example.com/.well-known/openid-configuration",
        started: "2026-01-01T00:00:00.200Z",
        mimeType: "application/json",
        text: "{not json",
      }),
      harEntry({
        method: "GET",
        url: "https://mcp.example.com/api/config",
        started: "2026-01-01T00:00:00.300Z",
        mimeType: "application/json",
        text: JSON.stringify(as),
      }),
    ]),
    "oauth.har",
  );
  assert.deepEqual(problems, []);
  assertValid(records);
  assert.deepEqual(
    records.map((r) => (r.kind === "page-request" ? r.metadata : r.kind)),
    [
      { resource: "https://mcp.example.com/mcp", authorizationServers: ["https://auth.example.com"] },
      { issuer: "https://auth.example.com", authorizationEndpoint: "https://auth.example.com/authorize" },
      undefined,
      undefined,
    ],
  );
});

test("an entry is MCP by its headers alone (an empty GET stream still shows)", () => {
  const { records } = importHar(
    har([
      harEntry({
        method: "GET",
        started: "2026-01-01T00:00:00.000Z",
        headers: { "mcp-protocol-version": "2025-11-25" },
        mimeType: "text/event-stream",
        text: "",
      }),
    ]),
    "empty.har",
  );
  assert.deepEqual(
    records.map((r) => r.kind),
    ["response", "end"],
  );
});

test("client is the pageref, else the HAR creator", () => {
  const { records } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:00.000Z",
        body: initialize,
        mimeType: "application/json",
        text: initialized,
      }),
    ]),
    "c.har",
  );
  assert.ok(records.every((r) => r.client === "WebInspector 537.36"));
});

test("records are sorted by time across entries, stable for ties, numbered from 0", () => {
  const { records } = importHar(
    har([
      harEntry({ started: "2026-01-01T00:00:05.000Z", body: call, mimeType: "application/json", text: result }),
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        body: initialize,
        mimeType: "application/json",
        text: initialized,
      }),
    ]),
    "order.har",
  );
  assertValid(records);
  assert.deepEqual(
    records.map((r) => r.entry),
    [1, 1, 1, 1, 0, 0, 0, 0],
  );
  for (let i = 1; i < records.length; i++) assert.ok(records[i]!.time >= records[i - 1]!.time);
});

test("a failed request ends with its error; a request without response has no response record", () => {
  const { records } = importHar(
    har([
      harEntry({
        started: "2026-01-01T00:00:00.000Z",
        body: call,
        status: 0,
        extra: {
          response: { status: 0, headers: [], content: { size: 0, mimeType: "x-unknown" }, _error: "net::ERR_ABORTED" },
        },
      }),
      harEntry({
        started: "2026-01-01T00:00:01.000Z",
        body: call,
        status: 0,
        extra: {
          response: {
            status: 0,
            headers: [],
            content: { size: 0, mimeType: "x-unknown" },
            _failureText: "net::ERR_CONNECTION_REFUSED",
          },
        },
      }),
    ]),
    "failed.har",
  );
  assert.deepEqual(
    records.map((r) => r.kind),
    ["message", "end", "message", "end"],
  );
  assert.deepEqual(
    records.filter((r) => r.kind === "end").map((r) => r.kind === "end" && r.error),
    ["abort", "net::ERR_CONNECTION_REFUSED"],
  );
});

test("a body missing from the HAR (saved without content) is a problem, not a silent gap", () => {
  const entry = harEntry({ started: "2026-01-01T00:00:00.000Z", body: call, mimeType: "application/json" });
  (entry.response as { content: { size: number } }).content.size = 120;
  const { records, problems } = importHar(har([entry]), "nocontent.har");
  assert.deepEqual(
    records.map((r) => r.kind),
    ["message", "response", "end"],
  );
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.entry, 0);
  assert.match(problems[0]!.message, /not in the HAR/);
});

test("a 202 whose unread body the client cancelled (net::ERR_ABORTED) is not a failed exchange", () => {
  const entry = harEntry({
    started: "2026-01-01T00:00:00.000Z",
    headers: { "mcp-session-id": "s-1" },
    body: answer,
    status: 202,
  });
  const response = entry.response as { content: Record<string, unknown>; _failureText?: string };
  response.content = { size: -1, mimeType: "x-unknown" };
  response._failureText = "net::ERR_ABORTED";
  const { records, problems } = importHar(har([entry]), "accepted.har");
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records.map((r) => [
      r.kind,
      r.kind === "response" ? r.emptyBody : r.kind === "end" ? r.error : r.kind === "message" ? r.text : r.method,
    ]),
    [
      ["message", answer],
      ["response", true],
      ["end", undefined],
    ],
  );
});

test("an event stream cut before the recorder kept its body: head and abort, no emptyBody, no problem (routine)", () => {
  const entry = harEntry({
    method: "GET",
    started: "2026-01-01T00:00:00.000Z",
    headers: { "mcp-session-id": "s-1" },
    mimeType: "text/event-stream",
  });
  const response = entry.response as { content: Record<string, unknown>; _failureText?: string };
  response.content = { size: -1, mimeType: "text/event-stream" };
  response._failureText = "net::ERR_ABORTED";
  const { records, problems } = importHar(har([entry]), "cut-stream.har");
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records.map((r) => [r.kind, r.kind === "end" ? r.error : r.kind === "response" ? r.emptyBody : ""]),
    [
      ["response", undefined],
      ["end", "abort"],
    ],
  );
});
