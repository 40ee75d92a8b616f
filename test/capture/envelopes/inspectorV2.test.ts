import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, type Draft } from "../../../src/capture/envelopes/index.ts";
import { inspectorSession } from "./fixtures.ts";

// Wire shapes: @modelcontextprotocol/inspector 2.12.0, clients/web/build/index.js (the backend's /api/mcp/connect,
// /send and /events handlers, RemoteSession.pushEvent) and the web bundle's RemoteClientTransport (connect body
// {config, authState?, settings?}; send body {sessionId, message, relatedRequestId?, headers?, protocolVersion?}).

const messages = (drafts: Draft[]) => drafts.flatMap((d) => (d.kind === "message" ? [d] : []));

test("Inspector v2: sends are client messages, `message` events server messages, stamped with the connect config's upstream", () => {
  const { records, backend, upstream } = inspectorSession();
  const unwrap = createUnwrapper();
  const out = records.flatMap((r) => unwrap.push(r));
  assert.equal(out.length, out.filter((d) => d.kind === "message").length, "no host head or end survives");
  const got = messages(out).map((m) => [m.direction, JSON.parse(m.text).method ?? `answer ${JSON.parse(m.text).id}`]);
  assert.deepEqual(got, [
    ["c2s", "initialize"],
    ["s2c", "answer 0"],
    ["c2s", "notifications/initialized"],
    ["c2s", "tools/call"],
    ["s2c", "elicitation/create"],
    ["c2s", "answer 7"],
    ["s2c", "answer 1"],
  ]);
  for (const m of messages(out)) {
    assert.equal(m.stream, "envelope");
    assert.equal(m.envelope, "inspector-v2");
    assert.equal(m.server, upstream);
    assert.equal(m.via, `${backend}/api/mcp`);
    assert.equal(m.url, `${backend}/api/mcp`);
    assert.equal(m.upstreamTransport, "streamable-http");
    assert.equal(m.exchange, "iv2:9b1d-session");
    assert.equal(m.method, undefined, "the envelope's HTTP method is not the message's");
    assert.equal(m.headers, undefined);
  }
  assert.deepEqual(unwrap.counts(), { "inspector-v2": 7 });
});

test("Inspector v2: the backend's own event types and the {ok:true} answers are dropped, not counted as unreadable", () => {
  const { records } = inspectorSession();
  const unwrap = createUnwrapper();
  const events = records.filter((r) => r.kind === "message" && r.direction === "s2c" && r.url?.includes("/events"));
  assert.ok(
    events.some((e) => e.kind === "message" && e.event === "fetch_request" && e.text.includes('\\"jsonrpc\\"')),
    "the fixture has a fetch_request report with JSON-RPC text inside",
  );
  const out = records.flatMap((r) => unwrap.push(r));
  assert.ok(!messages(out).some((m) => m.text.includes('"fetch_request"') || m.text.includes('"ok"')));
  assert.equal(unwrap.counts().unreadable, undefined);
});

test("Inspector v2: bad JSON in a send body is dropped and counted; a cut body is kept whole for the engine to report", () => {
  const unwrap = createUnwrapper();
  const base = {
    time: 1,
    transport: "http",
    url: "http://127.0.0.1:6274/api/mcp/send",
    client: "http://127.0.0.1:6274",
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
  } as const;
  assert.deepEqual(unwrap.push({ ...base, exchange: "e1", text: '{"sessionId":"s","message":{"jsonrpc"' }), []);
  const cut = unwrap.push({
    ...base,
    exchange: "e2",
    text: '{"sessionId":"s","message":{"jsonrpc":"2.0","id":1,"method":"tools/ca',
    truncated: 1048576,
  });
  assert.equal(cut.length, 1);
  assert.equal(cut[0]!.kind === "message" && cut[0]!.truncated, 1048576);
  assert.equal(cut[0]!.kind === "message" && cut[0]!.envelope, "inspector-v2");
  // A send whose message is not JSON-RPC (a wrapper only mentioning it) carries nothing.
  assert.deepEqual(unwrap.push({ ...base, exchange: "e3", text: '{"sessionId":"s","message":{"jsonrpc":"2.0"}}' }), []);
  assert.deepEqual(unwrap.counts(), { unreadable: 2 });
});

test("Inspector v2: a reattached session (events and sends with no connect seen) still unwraps, without a server", () => {
  const unwrap = createUnwrapper();
  const out = unwrap.push({
    time: 1,
    transport: "http",
    exchange: "ev",
    url: "http://127.0.0.1:6274/api/mcp/events?sessionId=abc",
    kind: "message",
    direction: "s2c",
    stream: "get-sse",
    text: '{"type":"message","data":{"jsonrpc":"2.0","id":3,"result":{}}}',
  });
  assert.equal(out.length, 1);
  const m = out[0]!;
  assert.ok(m.kind === "message");
  assert.equal(m.server, undefined);
  assert.equal(m.exchange, "iv2:abc");
  assert.equal(m.text, '{"jsonrpc":"2.0","id":3,"result":{}}');
});

test("Inspector v2: a fresh unwrapper given the stamped messages of a session (a woken worker's replay) relearns its upstream", () => {
  const { records, upstream, backend } = inspectorSession();
  const half = records.findIndex((r) => r.kind === "message" && r.text.includes("tools/call"));
  const first = createUnwrapper();
  const stored = messages(records.slice(0, half).flatMap((r) => first.push(r)));
  assert.ok(stored.length > 0 && stored.every((m) => m.server === upstream));
  const woken = createUnwrapper();
  for (const m of stored) assert.deepEqual(woken.push(m), [m], "a stamped record passes through unchanged");
  assert.deepEqual(woken.counts(), {}, "relearning counts nothing");
  const later = messages(records.slice(half).flatMap((r) => woken.push(r)));
  assert.equal(later.length, 4);
  for (const m of later)
    assert.deepEqual(
      [m.server, m.upstreamTransport, m.via, m.exchange],
      [upstream, "streamable-http", `${backend}/api/mcp`, "iv2:9b1d-session"],
    );
  // Without the replay the same sends lose their server: what the test above is about.
  const cold = messages(records.slice(half).flatMap((r) => createUnwrapper().push(r)));
  assert.ok(cold.every((m) => m.server === undefined));
});

test("Inspector v2: two backend sessions to two upstreams keep their own servers and exchanges", () => {
  const a = inspectorSession({ sessionId: "sa", upstream: "http://127.0.0.1:4001/mcp", exchangePrefix: "a" });
  const b = inspectorSession({ sessionId: "sb", upstream: "http://127.0.0.1:4002/mcp", exchangePrefix: "b" });
  const unwrap = createUnwrapper();
  const out = messages([...a.records, ...b.records].flatMap((r) => unwrap.push(r)));
  assert.deepEqual(
    [...new Set(out.map((m) => `${m.exchange} ${m.server}`))],
    ["iv2:sa http://127.0.0.1:4001/mcp", "iv2:sb http://127.0.0.1:4002/mcp"],
  );
});

test("Inspector v2: nothing of the connect config but its type and url is kept (headers, env and tokens stay out)", () => {
  const unwrap = createUnwrapper();
  const url = "http://127.0.0.1:6274/api/mcp/connect";
  unwrap.push({
    time: 1,
    transport: "http",
    exchange: "c",
    url,
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text: JSON.stringify({
      config: { type: "stdio", command: "node", args: ["server.js", "--key=sk-secret"], env: { API_KEY: "sk-secret" } },
      authState: { oauthTokens: { access_token: "tok" } },
    }),
  });
  unwrap.push({
    time: 2,
    transport: "http",
    exchange: "c",
    url,
    kind: "message",
    direction: "s2c",
    stream: "body",
    text: '{"sessionId":"s1"}',
  });
  const [m] = unwrap.push({
    time: 3,
    transport: "http",
    exchange: "s",
    url: "http://127.0.0.1:6274/api/mcp/send",
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text: '{"sessionId":"s1","message":{"jsonrpc":"2.0","id":0,"method":"ping"}}',
  });
  assert.ok(m && m.kind === "message");
  assert.equal(m.server, "stdio:node");
  assert.equal(m.upstreamTransport, "stdio");
  assert.ok(!JSON.stringify(m).includes("secret") && !JSON.stringify(m).includes("tok"));
});
