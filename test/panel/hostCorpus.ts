import type { Draft } from "../../src/capture/envelopes/index.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { inspectorSession, store as unwrap } from "../capture/envelopes/fixtures.ts";

/** Captures of issue 9's hosts for the panel tests, as the worker stores them (through the envelope stage). */

/** Two upstreams behind one MCP Inspector v2 backend (two backend sessions). */
export function twoUpstreams(): CaptureRecord[] {
  return unwrap(twoUpstreamDrafts());
}
function twoUpstreamDrafts(): Draft[] {
  const a = inspectorSession({ sessionId: "sa", upstream: "http://127.0.0.1:4001/mcp", exchangePrefix: "a" });
  const b = inspectorSession({ sessionId: "sb", upstream: "http://127.0.0.1:4002/mcp", exchangePrefix: "b", start: 1_767_225_700_000 });
  return [...a.records, ...b.records];
}

/** An MCP-B tab transport session (both ends in one window) whose form asks for an API key, cancelled. */
export function mcpBDrafts(start = 1_767_225_900_000): Draft[] {
  const origin = "http://127.0.0.1:5173";
  let time = start;
  const post = (direction: string, payload: unknown): Draft => ({ time: (time += 5), transport: "postMessage", exchange: `pm:${origin}>${origin}`, url: origin, client: origin, kind: "message", direction: "s2c", stream: "postMessage", text: JSON.stringify({ channel: "mcp-default", type: "mcp", direction, payload }) });
  return [
    post("client-to-server", "mcp-check-ready"),
    post("server-to-client", "mcp-server-ready"),
    post("client-to-server", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } } }),
    post("server-to-client", { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } }),
    post("client-to-server", { jsonrpc: "2.0", method: "notifications/initialized" }),
    post("client-to-server", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "signup" } }),
    post("server-to-client", { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: { message: "Please paste the API key of your account", requestedSchema: { type: "object", properties: { api_key: { type: "string" } } } } }),
    post("client-to-server", { jsonrpc: "2.0", id: 0, result: { action: "cancel" } }),
    post("server-to-client", { jsonrpc: "2.0", id: 1, result: { content: [] } }),
  ];
}

/** Both hosts in one capture: three servers, two of them behind one backend. */
export function hostsCapture(): CaptureRecord[] {
  return unwrap([...twoUpstreamDrafts(), ...mcpBDrafts()]);
}
