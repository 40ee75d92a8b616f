import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, type Draft } from "../../../src/capture/envelopes/index.ts";
import { isBareJsonRpc } from "../../../src/capture/envelopes/jsonRpc.ts";

const body = (text: string, direction: "c2s" | "s2c" = "c2s", extra: Partial<Draft> = {}): Draft =>
  ({
    time: 1,
    transport: "http",
    exchange: "h1",
    url: "https://host.example/api/chat",
    client: "https://host.example",
    kind: "message",
    direction,
    stream: "body",
    method: "POST",
    text,
    ...extra,
  }) as Draft;

test("generic: one member holding a JSON-RPC message is the message, in the record's direction", () => {
  const unwrap = createUnwrapper();
  const [m] = unwrap.push(
    body('{"conversation":"c1","rpc":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}}'),
  );
  assert.ok(m?.kind === "message");
  assert.deepEqual(
    [m.direction, m.stream, m.envelope, m.exchange, m.url],
    ["c2s", "envelope", "generic", undefined, "https://host.example/api/chat"],
  );
  assert.equal(m.text, '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}');
  // A batch under one member, from a WebSocket frame: the socket is the exchange (one connection, one scope).
  const [b] = unwrap.push({
    time: 2,
    transport: "websocket",
    exchange: "ws:1",
    url: "wss://host.example/socket",
    kind: "message",
    direction: "s2c",
    stream: "websocket",
    text: '{"batch":[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{}}]}',
  });
  assert.ok(b?.kind === "message");
  assert.deepEqual([b.direction, b.exchange], ["s2c", "ws:1"]);
  assert.deepEqual(unwrap.counts(), { generic: 2 });
});

test("generic: a member that only looks like JSON-RPC, or two of them, carries nothing: dropped and counted", () => {
  const unwrap = createUnwrapper();
  assert.deepEqual(unwrap.push(body('{"message":{"jsonrpc":"2.0","note":"not a message"}}')), []);
  assert.deepEqual(unwrap.push(body('{"a":{"jsonrpc":"2.0","method":"x"},"b":{"jsonrpc":"2.0","method":"y"}}')), []);
  assert.deepEqual(unwrap.counts(), { unreadable: 2 });
});

test("generic: bare messages, bodies of Streamable HTTP and objects with no JSON-RPC member go on as they came", () => {
  const unwrap = createUnwrapper();
  for (const text of [
    '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
    '{"result":{"nested":{"jsonrpc":"2.0","id":9,"method":"x"}},"jsonrpc":"2.0","id":1}',
    '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    '{"error":"bad request, expected jsonrpc"}',
    "not json",
  ]) {
    const r = body(text);
    assert.deepEqual(unwrap.push(r), [r], text);
  }
  const sdk = body('{"wrapped":{"jsonrpc":"2.0","id":1,"method":"ping"}}', "c2s", {
    headers: { "mcp-protocol-version": "2025-11-25" },
  });
  assert.deepEqual(unwrap.push(sdk), [sdk], "a request that names an MCP version is Streamable HTTP: bare by the spec");
  assert.deepEqual(unwrap.counts(), {});
});

test("isBareJsonRpc reads member names only, and never says yes to an envelope", () => {
  assert.equal(isBareJsonRpc('{"jsonrpc":"2.0","id":1}'), true);
  assert.equal(isBareJsonRpc(' { "method" : "x", "params" : {"a":[1,{"b":"}"}]}, "jsonrpc":"2.0"}'), true);
  assert.equal(isBareJsonRpc('[{"jsonrpc":"2.0"}]'), true);
  assert.equal(isBareJsonRpc('{"message":{"jsonrpc":"2.0","id":1,"method":"x"}}'), false);
  assert.equal(isBareJsonRpc('{"a":"\\"jsonrpc\\"","b":1}'), false);
  assert.equal(isBareJsonRpc('{"note":"jsonrpc"}'), false);
  assert.equal(isBareJsonRpc("{}"), false);
  assert.equal(isBareJsonRpc("42"), false);
});
