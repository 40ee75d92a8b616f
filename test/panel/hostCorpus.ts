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
  const b = inspectorSession({
    sessionId: "sb",
    upstream: "http://127.0.0.1:4002/mcp",
    exchangePrefix: "b",
    start: 1_767_225_700_000,
  });
  return [...a.records, ...b.records];
}

/** An MCP-B tab transport session (both ends in one window) whose form asks for an API key, cancelled. */
export function mcpBDrafts(start = 1_767_225_900_000): Draft[] {
  const origin = "http://127.0.0.1:5173";
  let time = start;
  const post = (direction: string, payload: unknown): Draft => ({
    time: (time += 5),
    transport: "postMessage",
    exchange: `pm:${origin}>${origin}`,
    url: origin,
    client: origin,
    kind: "message",
    direction: "s2c",
    stream: "postMessage",
    text: JSON.stringify({ channel: "mcp-default", type: "mcp", direction, payload }),
  });
  return [
    post("client-to-server", "mcp-check-ready"),
    post("server-to-client", "mcp-server-ready"),
    post("client-to-server", {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { elicitation: {} },
        clientInfo: { name: "c", version: "1" },
      },
    }),
    post("server-to-client", {
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } },
    }),
    post("client-to-server", { jsonrpc: "2.0", method: "notifications/initialized" }),
    post("client-to-server", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "signup" } }),
    post("server-to-client", {
      jsonrpc: "2.0",
      id: 0,
      method: "elicitation/create",
      params: {
        message: "Please paste the API key of your account",
        requestedSchema: { type: "object", properties: { api_key: { type: "string" } } },
      },
    }),
    post("client-to-server", { jsonrpc: "2.0", id: 0, result: { action: "cancel" } }),
    post("server-to-client", { jsonrpc: "2.0", id: 1, result: { content: [] } }),
  ];
}

/** Both hosts in one capture: three servers, two of them behind one backend. */
export function hostsCapture(): CaptureRecord[] {
  return unwrap([...twoUpstreamDrafts(), ...mcpBDrafts()]);
}

/** The made-up host of the Decode-as tests: `{"v": 1, "payload": "<JSON-RPC as a string>"}` both ways, POST /agent/rpc. */
const AGENT = "http://127.0.0.1:4100/agent/rpc";
const agentExchange: [unknown, unknown][] = [
  [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "agent", version: "1" },
      },
    },
    {
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "agent", version: "1" },
      },
    },
  ],
  [{ jsonrpc: "2.0", method: "notifications/initialized" }, {}],
  [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } },
    {
      jsonrpc: "2.0",
      id: 7,
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Deploy to production now?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      },
    },
  ],
  [
    { jsonrpc: "2.0", id: 7, result: { action: "decline" } },
    { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "not deployed" }] } },
  ],
];
const wrap = (m: unknown): string => JSON.stringify({ v: 1, payload: JSON.stringify(m) });
export const AGENT_RULE = {
  id: "d1",
  label: "agent API",
  url: "/agent/rpc",
  method: "POST",
  pointer: "/payload",
  direction: "both",
} as const;

/** The agent host's traffic as a tap without rules would have written it: raw bodies, nothing unwrapped. */
export function agentRecords(): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  let time = 1_767_226_000_000;
  agentExchange.forEach(([body, answer], i) => {
    const base = {
      v: 1 as const,
      transport: "http" as const,
      url: AGENT,
      client: "http://127.0.0.1:4100",
      exchange: `ag${i}`,
    };
    out.push({
      ...base,
      seq: out.length,
      time: (time += 10),
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      headers: { "content-type": "application/json" },
      text: wrap(body),
    });
    out.push({
      ...base,
      seq: out.length,
      time: (time += 10),
      kind: "response",
      status: 200,
      headers: { "content-type": "application/json" },
    });
    out.push({
      ...base,
      seq: out.length,
      time: (time += 10),
      kind: "message",
      direction: "s2c",
      stream: "body",
      method: "POST",
      text: wrap(answer),
    });
    out.push({ ...base, seq: out.length, time: (time += 10), kind: "end" });
  });
  return out;
}

/** The same traffic as a HAR saved from the Network panel. */
export function agentHar(): string {
  const entries = agentExchange.map(([body, answer], i) => ({
    startedDateTime: new Date(1_767_226_000_000 + i * 100).toISOString(),
    time: 8,
    request: {
      method: "POST",
      url: AGENT,
      httpVersion: "HTTP/1.1",
      headers: [{ name: "Content-Type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      postData: { mimeType: "application/json", text: wrap(body) },
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { size: -1, mimeType: "application/json", text: wrap(answer) },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 1, wait: 5, receive: 1 },
  }));
  return JSON.stringify({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } });
}
