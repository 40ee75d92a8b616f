import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, ENVELOPE_LABELS, envelopeLabel, type Draft } from "../../../src/capture/envelopes/index.ts";

test("records stamped already pass through unchanged (JSONL, our HAR export)", () => {
  const unwrap = createUnwrapper();
  const stamped: Draft = {
    time: 1,
    transport: "http",
    exchange: "iv2:s",
    url: "http://127.0.0.1:6274/api/mcp",
    kind: "message",
    direction: "c2s",
    stream: "envelope",
    envelope: "inspector-v2",
    server: "http://u/mcp",
    text: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  };
  assert.deepEqual(unwrap.push(stamped), [stamped]);
  assert.deepEqual(unwrap.counts(), {});
});

test("a decode rule goes before the built-in adapters", () => {
  const unwrap = createUnwrapper({
    rules: [{ id: "mine", url: "/api/mcp/send", pointer: "/message", direction: "c2s" }],
  });
  const [m] = unwrap.push({
    time: 1,
    transport: "http",
    exchange: "s",
    url: "http://127.0.0.1:6274/api/mcp/send",
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text: '{"sessionId":"x","message":{"jsonrpc":"2.0","method":"notifications/initialized"}}',
  });
  assert.ok(m?.kind === "message");
  assert.equal(m.envelope, "decode:mine");
});

test("page requests, heads and ends of other traffic go on as they came", () => {
  const unwrap = createUnwrapper();
  const records: Draft[] = [
    { time: 1, transport: "http", url: "https://a.example/", kind: "page-request", method: "GET" },
    {
      time: 1,
      transport: "http",
      exchange: "e",
      url: "https://a.example/mcp",
      kind: "response",
      status: 202,
      emptyBody: true,
    },
    { time: 1, transport: "http", exchange: "e", url: "https://a.example/mcp", kind: "end" },
  ];
  for (const r of records) assert.deepEqual(unwrap.push(r), [r]);
});

test("labels for the panel", () => {
  assert.deepEqual(ENVELOPE_LABELS, {
    "inspector-v2": "MCP Inspector backend",
    "mcp-b": "MCP-B postMessage",
    generic: "nested JSON-RPC",
    proxy: "proxy",
  });
  assert.equal(envelopeLabel("decode:d1"), "decoder d1");
});
