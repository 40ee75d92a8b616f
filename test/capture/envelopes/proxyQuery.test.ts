import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, type Draft } from "../../../src/capture/envelopes/index.ts";

// URL shapes: @modelcontextprotocol/inspector-server 1.0.3, build/index.js (createTransport reads `transportType`,
// `url`, `command`; routes /mcp, /sse, /stdio, POST /message?sessionId=…).

const proxy = "http://127.0.0.1:6277";
const message = (url: string, extra: Partial<Draft> = {}): Draft =>
  ({
    time: 1,
    transport: "http",
    exchange: "p1",
    url,
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    headers: { "mcp-protocol-version": "2025-11-25" },
    text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    ...extra,
  }) as Draft;

test("proxy: the upstream of ?url= is the server, the proxy is via; the stream kind and headers stay", () => {
  const unwrap = createUnwrapper();
  const upstream = "http://127.0.0.1:3001/mcp";
  const [m] = unwrap.push(message(`${proxy}/mcp?url=${encodeURIComponent(upstream)}&transportType=streamable-http`));
  assert.ok(m?.kind === "message");
  assert.deepEqual(
    [m.server, m.via, m.upstreamTransport, m.envelope, m.stream, m.headers?.["mcp-protocol-version"]],
    [upstream, `${proxy}/mcp`, "streamable-http", "proxy", "body", "2025-11-25"],
  );
  const head: Draft = {
    time: 2,
    transport: "http",
    exchange: "p1",
    url: `${proxy}/mcp?url=${encodeURIComponent(upstream)}`,
    kind: "response",
    status: 200,
  };
  assert.deepEqual(unwrap.push(head), [head]);
  assert.deepEqual(unwrap.counts(), { proxy: 1 });
});

test("proxy: the HTTP+SSE endpoint event carries the stream's stamp over to the POST URL it names", () => {
  const unwrap = createUnwrapper();
  const upstream = "http://127.0.0.1:3002/sse";
  const sse = `${proxy}/sse?url=${encodeURIComponent(upstream)}&transportType=sse`;
  unwrap.push({
    time: 1,
    transport: "eventsource",
    exchange: "es",
    url: sse,
    kind: "message",
    direction: "s2c",
    stream: "eventsource",
    event: "endpoint",
    text: "/message?sessionId=abc",
  });
  const [post] = unwrap.push(message(`${proxy}/message?sessionId=abc`));
  assert.ok(post?.kind === "message");
  assert.deepEqual([post.server, post.via, post.upstreamTransport], [upstream, `${proxy}/sse`, "sse"]);
});

test("proxy: a fresh unwrapper given the stored endpoint event (a woken worker's replay) still stamps the POSTs it names", () => {
  const upstream = "http://127.0.0.1:3002/sse";
  const sse = `${proxy}/sse?url=${encodeURIComponent(upstream)}&transportType=sse`;
  const [endpoint] = createUnwrapper().push({
    time: 1,
    transport: "eventsource",
    exchange: "es",
    url: sse,
    kind: "message",
    direction: "s2c",
    stream: "eventsource",
    event: "endpoint",
    text: "/message?sessionId=abc",
  });
  assert.ok(endpoint?.kind === "message" && endpoint.envelope === "proxy");
  const woken = createUnwrapper();
  assert.deepEqual(woken.push(endpoint), [endpoint]);
  const [post] = woken.push(message(`${proxy}/message?sessionId=abc`));
  assert.ok(post?.kind === "message");
  assert.deepEqual([post.server, post.via, post.upstreamTransport], [upstream, `${proxy}/sse`, "sse"]);
});

test("proxy: a stdio upstream is named by its command only; a url= that is not http(s) is no upstream", () => {
  const unwrap = createUnwrapper();
  const [m] = unwrap.push(
    message(
      `${proxy}/mcp?transportType=stdio&command=node&args=server.js&env=${encodeURIComponent('{"API_KEY":"sk-1"}')}`,
    ),
  );
  assert.ok(m?.kind === "message");
  assert.deepEqual([m.server, m.upstreamTransport], ["stdio:node", "stdio"]);
  const plain = message("https://app.example/mcp?url=javascript:alert(1)");
  assert.deepEqual(unwrap.push(plain), [plain]);
});
