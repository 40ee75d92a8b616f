import { createUnwrapper, type Draft, type Unwrapper } from "../../../src/capture/envelopes/index.ts";
import type { CaptureRecord } from "../../../src/capture/record.ts";

/**
 * The records the tap makes of one MCP Inspector v2 session (2.12.0): the page POSTs /api/mcp/connect, opens
 * GET /api/mcp/events?sessionId=… (a fetch stream, `event: <type>` + `data: {"type","data"}`) and POSTs each
 * JSON-RPC message to /api/mcp/send, answered {"ok":true} after the answer went out on the events stream
 * (clients/web/build/index.js: `await responseWait` before `c.json({ ok: true })`). Here: initialize, initialized,
 * a tools/call that elicits, the user's accept, the result; and one of the backend's `fetch_request` reports,
 * which holds the upstream HTTP exchange (JSON-RPC text inside) and is not a message.
 */
export function inspectorSession(
  options: { sessionId?: string; upstream?: string; backend?: string; exchangePrefix?: string; start?: number } = {},
) {
  const sessionId = options.sessionId ?? "9b1d-session";
  const upstream = options.upstream ?? "http://127.0.0.1:3001/mcp";
  const backend = options.backend ?? "http://127.0.0.1:6274";
  const x = options.exchangePrefix ?? "x";
  const client = backend;
  let t = options.start ?? 1_767_225_600_000;
  const at = (): number => (t += 5);
  const records: Draft[] = [];
  const http = { transport: "http" as const, client };
  const post = (exchange: string, path: string, body: unknown, answer: unknown): void => {
    const url = `${backend}/api/mcp/${path}`;
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      headers: { "content-type": "application/json" },
      text: JSON.stringify(body),
    });
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "response",
      status: 200,
      headers: { "content-type": "application/json" },
    });
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "message",
      direction: "s2c",
      stream: "body",
      method: "POST",
      text: JSON.stringify(answer),
    });
    records.push({ ...http, exchange, url, time: at(), kind: "end" });
  };
  const events = `${backend}/api/mcp/events?sessionId=${encodeURIComponent(sessionId)}`;
  const event = (type: string, data: unknown): void =>
    void records.push({
      ...http,
      exchange: `${x}-events`,
      url: events,
      time: at(),
      kind: "message",
      direction: "s2c",
      stream: "get-sse",
      method: "GET",
      ...(type !== "message" && { event: type }),
      text: JSON.stringify({ type, data }),
    });
  const send = (n: number, message: Record<string, unknown>, answer?: () => void): void => {
    const exchange = `${x}-send-${n}`;
    const url = `${backend}/api/mcp/send`;
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      headers: { "content-type": "application/json" },
      text: JSON.stringify({ sessionId, message, protocolVersion: "2025-11-25" }),
    });
    answer?.();
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "response",
      status: 200,
      headers: { "content-type": "application/json" },
    });
    records.push({
      ...http,
      exchange,
      url,
      time: at(),
      kind: "message",
      direction: "s2c",
      stream: "body",
      method: "POST",
      text: '{"ok":true}',
    });
    records.push({ ...http, exchange, url, time: at(), kind: "end" });
  };

  post(`${x}-connect`, "connect", { config: { type: "streamable-http", url: upstream } }, { sessionId });
  records.push({
    ...http,
    exchange: `${x}-events`,
    url: events,
    time: at(),
    kind: "response",
    status: 200,
    headers: { "content-type": "text/event-stream" },
  });
  send(
    1,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "mcp-inspector", version: "0.0.0" },
      },
    },
    () => {
      event("fetch_request", {
        id: "f1",
        method: "POST",
        url: upstream,
        requestBody: '{"jsonrpc":"2.0","id":0,"method":"initialize"}',
        responseBody: '{"jsonrpc":"2.0","id":0,"result":{}}',
      });
      event("message", {
        jsonrpc: "2.0",
        id: 0,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "upstream", version: "1" },
        },
      });
    },
  );
  send(2, { jsonrpc: "2.0", method: "notifications/initialized" });
  const tools = `${x}-send-3`;
  const toolsUrl = `${backend}/api/mcp/send`;
  // tools/call: its send stays open while the server asks and the user answers (its {ok:true} comes after the result).
  records.push({
    ...http,
    exchange: tools,
    url: toolsUrl,
    time: at(),
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text: JSON.stringify({
      sessionId,
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "book", arguments: {} } },
      protocolVersion: "2025-11-25",
    }),
  });
  event("message", {
    jsonrpc: "2.0",
    id: 7,
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
  });
  send(4, { jsonrpc: "2.0", id: 7, result: { action: "accept", content: { name: "Ada" } } });
  event("message", { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "booked" }] } });
  records.push({
    ...http,
    exchange: tools,
    url: toolsUrl,
    time: at(),
    kind: "response",
    status: 200,
    headers: { "content-type": "application/json" },
  });
  records.push({
    ...http,
    exchange: tools,
    url: toolsUrl,
    time: at(),
    kind: "message",
    direction: "s2c",
    stream: "body",
    method: "POST",
    text: '{"ok":true}',
  });
  records.push({ ...http, exchange: tools, url: toolsUrl, time: at(), kind: "end" });
  return { records, sessionId, upstream, backend };
}

/** What the worker does with the tap's records: each through the unwrapper, then numbered and stored. */
export function store(drafts: readonly Draft[], unwrap: Unwrapper = createUnwrapper()): CaptureRecord[] {
  return drafts.flatMap((d) => unwrap.push(d)).map((d, seq) => ({ ...d, v: 1, seq }) as CaptureRecord);
}

/** Inspector v1's proxy (inspector-server 1.0.3) in front of two upstreams: a session each, a tools/call that elicits, declined. */
export const PROXY = "http://127.0.0.1:6277/mcp";
export function proxySessions(): Draft[] {
  const drafts: Draft[] = [];
  let time = 1000;
  const session = (upstream: string, sid: string, n: number, header: boolean): void => {
    const url = `${PROXY}?url=${encodeURIComponent(upstream)}&transportType=streamable-http`;
    const x = (k: string) => `${sid}-${k}`;
    const post = (k: string, body: unknown, headers: Record<string, string>) =>
      drafts.push({
        time: (time += 10),
        transport: "http",
        exchange: x(k),
        url,
        client: "page",
        kind: "message",
        direction: "c2s",
        stream: "body",
        method: "POST",
        headers,
        text: JSON.stringify(body),
      });
    const head = (k: string, status: number, headers: Record<string, string> = {}) =>
      drafts.push({
        time: (time += 10),
        transport: "http",
        exchange: x(k),
        url,
        client: "page",
        kind: "response",
        status,
        headers,
        ...(status === 202 && { emptyBody: true }),
      });
    const event = (k: string, body: unknown) =>
      drafts.push({
        time: (time += 10),
        transport: "http",
        exchange: x(k),
        url,
        client: "page",
        kind: "message",
        direction: "s2c",
        stream: "post-sse",
        method: "POST",
        text: JSON.stringify(body),
      });
    const end = (k: string) =>
      drafts.push({ time: (time += 10), transport: "http", exchange: x(k), url, client: "page", kind: "end" });
    post(
      "init",
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: {} },
          clientInfo: { name: "inspector", version: "1" },
        },
      },
      {},
    );
    head("init", 200, { "content-type": "text/event-stream", "mcp-session-id": sid });
    event("init", {
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } },
    });
    end("init");
    const h = { "mcp-session-id": sid, ...(header && { "mcp-protocol-version": "2025-11-25" }) };
    post("ok", { jsonrpc: "2.0", method: "notifications/initialized" }, h);
    head("ok", 202);
    end("ok");
    post("call", { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "ask" } }, h);
    head("call", 200, { "content-type": "text/event-stream" });
    event("call", {
      jsonrpc: "2.0",
      id: 100 + n,
      method: "elicitation/create",
      params: { message: "Go?", requestedSchema: { type: "object", properties: { go: { type: "boolean" } } } },
    });
    post("answer", { jsonrpc: "2.0", id: 100 + n, result: { action: "decline" } }, h);
    head("answer", 202);
    end("answer");
    event("call", { jsonrpc: "2.0", id: n, result: { content: [] } });
    end("call");
  };
  session("http://127.0.0.1:3001/mcp", "p1", 1, true);
  session("http://127.0.0.1:3002/mcp", "p2", 1, false);
  return drafts;
}

/** An MCP-B tab transport session (@mcp-b/transports 5.1.0): handshake strings, initialize, a tools/call that asks for an API key, cancelled. */
export function mcpBTab(): Draft[] {
  const origin = "http://127.0.0.1:5173";
  let time = 0;
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
  const drafts = [
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
  return drafts;
}

/** A made-up host for decode rules: POST /agent/turn `{"frame":{"rpc":"<JSON-RPC as a string>"}}` both ways, as a HAR. */
export const AGENT_RULE = {
  id: "agent",
  url: "https://agent.example/agent/turn",
  method: "POST",
  pointer: "/frame/rpc",
  direction: "both",
} as const;
export function agentHar(): string {
  const entry = (i: number, request: unknown, answer: unknown) => ({
    startedDateTime: new Date(1_767_225_600_000 + i * 100).toISOString(),
    time: 10,
    request: {
      method: "POST",
      url: "https://agent.example/agent/turn",
      httpVersion: "HTTP/1.1",
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      postData: { mimeType: "application/json", text: JSON.stringify(request) },
    },
    response: {
      status: 200,
      statusText: "",
      httpVersion: "HTTP/1.1",
      headers: [],
      cookies: [],
      content: { size: -1, mimeType: "application/json", text: JSON.stringify(answer) },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 5 },
  });
  const wrap = (m: unknown) => ({ frame: { rpc: JSON.stringify(m) } });
  return JSON.stringify({
    log: {
      version: "1.2",
      creator: { name: "test", version: "1" },
      entries: [
        entry(
          0,
          wrap({
            jsonrpc: "2.0",
            id: 0,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: { elicitation: {} },
              clientInfo: { name: "c", version: "1" },
            },
          }),
          wrap({
            jsonrpc: "2.0",
            id: 0,
            result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } },
          }),
        ),
        entry(
          1,
          wrap({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "go" } }),
          wrap({
            jsonrpc: "2.0",
            id: 5,
            method: "elicitation/create",
            params: {
              message: "Which account should be charged?",
              requestedSchema: { type: "object", properties: { account: { type: "string" } } },
            },
          }),
        ),
        entry(
          2,
          wrap({ jsonrpc: "2.0", id: 5, result: { action: "accept", content: { account: "main" } } }),
          wrap({ jsonrpc: "2.0", id: 1, result: { content: [] } }),
        ),
      ],
    },
  });
}
