import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, type Draft } from "../../../src/capture/envelopes/index.ts";

// Wire shape: @mcp-b/transports 5.1.0 dist/index.js — postMessage({channel, type: "mcp", direction, payload}),
// channels "mcp-default" (tab) and "mcp-iframe", handshake payloads "mcp-check-ready" / "mcp-server-ready" /
// "mcp-server-stopped".

const origin = "http://127.0.0.1:5173";
/** A window message as the tap records it: its data as JSON, `url`/`client` by the tap's guess of the sender. */
const posted = (data: unknown, guess: "c2s" | "s2c" = "s2c", url = origin, client = origin): Draft => ({
  time: 1,
  transport: "postMessage",
  exchange: `pm:${client}>${url}`,
  url,
  client,
  kind: "message",
  direction: guess,
  stream: "postMessage",
  text: JSON.stringify(data),
});
const envelope = (direction: string, payload: unknown, channel = "mcp-default") => ({
  channel,
  type: "mcp",
  direction,
  payload,
});

test("MCP-B: the payload is the message, the direction the envelope's, one exchange per channel", () => {
  const unwrap = createUnwrapper();
  const [c2s] = unwrap.push(
    posted(envelope("client-to-server", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } })),
  );
  const [s2c] = unwrap.push(posted(envelope("server-to-client", { jsonrpc: "2.0", id: 1, result: {} }, "mcp-iframe")));
  assert.ok(c2s?.kind === "message" && s2c?.kind === "message");
  assert.deepEqual(
    [c2s.direction, c2s.stream, c2s.transport, c2s.envelope, c2s.exchange],
    ["c2s", "envelope", "postMessage", "mcp-b", "mcp-b:mcp-default"],
  );
  assert.equal(c2s.text, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}');
  assert.deepEqual([s2c.direction, s2c.exchange], ["s2c", "mcp-b:mcp-iframe"]);
  assert.deepEqual(unwrap.counts(), { "mcp-b": 2 });
});

test("MCP-B: handshake strings are dropped; a payload that is not JSON-RPC is dropped and counted", () => {
  const unwrap = createUnwrapper();
  for (const s of ["mcp-check-ready", "mcp-server-ready", "mcp-server-stopped"])
    assert.deepEqual(unwrap.push(posted(envelope("server-to-client", s))), []);
  assert.deepEqual(unwrap.push(posted(envelope("client-to-server", { jsonrpc: "2.0" }))), []);
  assert.deepEqual(unwrap.counts(), { unreadable: 1 });
});

test("MCP-B across frames: a wrong guess of the sender is undone (url is the server side's origin, client the client's)", () => {
  const parent = "http://127.0.0.1:5173";
  const child = "http://127.0.0.1:5174";
  const unwrap = createUnwrapper();
  // Received in the iframe (the server), guessed as coming from the server: url/client swapped by the tap.
  const [m] = unwrap.push(
    posted(envelope("client-to-server", { jsonrpc: "2.0", id: 2, method: "ping" }, "mcp-iframe"), "s2c", parent, child),
  );
  assert.ok(m?.kind === "message");
  assert.deepEqual([m.direction, m.url, m.client], ["c2s", child, parent]);
});

test("MCP-B: other window messages are left alone", () => {
  const unwrap = createUnwrapper();
  const bare = posted({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual(unwrap.push(bare), [bare]);
  const other = posted({ type: "mcp", direction: "sideways", channel: "x", payload: {} });
  assert.deepEqual(unwrap.push(other), [other]);
});
