import assert from "node:assert/strict";
import type { CaptureRecord, Headers, MessageRecord, PageRequestRecord } from "../../src/capture/record.ts";
import { analyze, type EngineOptions, type Finding } from "../../src/engine/index.ts";
import type { RuleId } from "../../src/engine/ruleKit/types.ts";

/**
 * Builds synthetic capture records for rule tests: one HTTP exchange per POST, SSE events on its stream,
 * the standalone GET stream, JSON bodies and status lines. Real SDK traffic is tested in real-traffic.test.ts.
 */
export function captureBuilder(url = "http://127.0.0.1:3000/mcp", client = "test") {
  const records: CaptureRecord[] = [];
  let seq = 0;
  let time = 1_000;
  let exchanges = 0;
  const base = () => ({ v: 1 as const, seq: seq++, time: (time += 10), transport: "http" as const, url, client });
  const text = (m: unknown) => (typeof m === "string" ? m : JSON.stringify(m));
  const api = {
    records,
    /** A POST carrying `body` (c2s). Returns the exchange id. */
    post(body: unknown, headers: Headers = {}): string {
      const exchange = `x${++exchanges}`;
      records.push({
        ...base(),
        kind: "message",
        direction: "c2s",
        stream: "body",
        method: "POST",
        exchange,
        headers,
        text: text(body),
      });
      return exchange;
    },
    /** The response head of an exchange. */
    status(exchange: string, status: number, headers: Headers = {}, emptyBody?: boolean): void {
      records.push({
        ...base(),
        kind: "response",
        exchange,
        status,
        headers,
        ...(emptyBody === undefined ? {} : { emptyBody }),
      });
    },
    /** An SSE event on the exchange's stream (post-sse, or get-sse for a GET exchange). */
    sse(
      exchange: string,
      body: unknown,
      stream: MessageRecord["stream"] = "post-sse",
      headers?: Headers,
      eventId?: string,
    ): void {
      records.push({
        ...base(),
        kind: "message",
        direction: "s2c",
        stream,
        method: stream === "get-sse" ? "GET" : "POST",
        exchange,
        text: text(body),
        ...(headers ? { headers } : {}),
        ...(eventId === undefined ? {} : { eventId }),
      });
    },
    /** A JSON response body. */
    json(exchange: string, body: unknown): void {
      records.push({
        ...base(),
        kind: "message",
        direction: "s2c",
        stream: "body",
        method: "POST",
        exchange,
        text: text(body),
      });
    },
    end(exchange: string, error?: string): void {
      records.push({ ...base(), kind: "end", exchange, ...(error ? { error } : {}) });
    },
    /** A whole POST answered with a JSON body: request, 200, body, end. */
    call(body: unknown, response: unknown, headers: Headers = {}, status = 200): string {
      const x = api.post(body, headers);
      api.status(x, status, { "content-type": "application/json" });
      api.json(x, response);
      api.end(x);
      return x;
    },
    /** A POST the server accepts with 202 and no body (notifications, responses). */
    accepted(body: unknown, headers: Headers = {}): string {
      const x = api.post(body, headers);
      api.status(x, 202, {}, true);
      api.end(x);
      return x;
    },
    /** A standalone GET SSE stream (its 200 head); send events with `sse(x, body, "get-sse", headers)`. */
    get(headers: Headers = {}): string {
      const exchange = `x${++exchanges}`;
      records.push({
        ...base(),
        kind: "response",
        exchange,
        status: 200,
        headers: { "content-type": "text/event-stream", ...headers },
      });
      return exchange;
    },
    /** Another request of the page that carried no MCP (as HAR imports make them): origin and path only. */
    pageRequest(pageUrl: string, method = "GET", metadata?: PageRequestRecord["metadata"]): number {
      const record = { ...base(), url: pageUrl, kind: "page-request" as const, method, ...(metadata && { metadata }) };
      records.push(record);
      return record.seq;
    },
    /** Later records go to another server endpoint (several MCP servers in one capture). */
    useServer(next: string): void {
      url = next;
    },
    /** Later records come from another client (page origin): stateless clients on one endpoint. */
    useClient(next: string): void {
      client = next;
    },
    /** Time of the next record (each record advances the clock by 10 ms). */
    wait(ms: number): void {
      time += ms;
    },
    analyze(options?: EngineOptions) {
      return analyze(records, options);
    },
  };
  return api;
}

export const PV = "io.modelcontextprotocol/protocolVersion";
export const CAPS = "io.modelcontextprotocol/clientCapabilities";
/** 2026-07-28 request `_meta`. */
export const meta = (
  caps: Record<string, unknown> = { elicitation: { form: {}, url: {} } },
  version = "2026-07-28",
) => ({ [PV]: version, [CAPS]: caps });
/** 2026-07-28 POST headers for a request. */
export const modernHeaders = (method: string, name?: string): Headers => ({
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});

/** A 2025-xx session: initialize (+ session id), initialized; returns request headers for later POSTs. */
export function legacySession(
  b: ReturnType<typeof captureBuilder>,
  revision = "2025-11-25",
  capabilities: Record<string, unknown> = { elicitation: { form: {}, url: {} } },
  sessionId = "s1",
  opts: { initialized?: boolean } = {},
): Headers {
  const x = b.post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: revision, capabilities, clientInfo: { name: "c", version: "1" } },
  });
  b.status(x, 200, { "content-type": "application/json", "mcp-session-id": sessionId });
  b.json(x, {
    jsonrpc: "2.0",
    id: 0,
    result: { protocolVersion: revision, capabilities: {}, serverInfo: { name: "s", version: "1" } },
  });
  b.end(x);
  const headers: Headers = { "mcp-session-id": sessionId, "mcp-protocol-version": revision };
  if (opts.initialized !== false) b.accepted({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return headers;
}

export const form = (
  props: Record<string, unknown> = { ok: { type: "boolean" } },
  message = "Please confirm the deployment",
) => ({ message, requestedSchema: { type: "object", properties: props } });
export const rules = (r: { findings: { rule: string }[] }) => r.findings.map((f) => f.rule);

/** The findings of one rule. */
export const findingsOf = (r: { findings: Finding[] }, rule: RuleId): Finding[] =>
  r.findings.filter((f) => f.rule === rule);

/** Asserts that some finding of `rule` has every field of `expected`; returns it. */
export function expectFinding(r: { findings: Finding[] }, rule: RuleId, expected: Partial<Finding> = {}): Finding {
  const all = findingsOf(r, rule);
  const hit = all.find((f) =>
    Object.entries(expected).every(([k, v]) => (f as unknown as Record<string, unknown>)[k] === v),
  );
  assert.ok(
    hit,
    `expected a ${rule} finding with ${JSON.stringify(expected)}; got ${all.length ? JSON.stringify(all, null, 1) : `none (rules fired: ${rules(r).join(", ") || "none"})`}`,
  );
  return hit;
}

/** Asserts that `rule` did not fire. */
export function expectNone(r: { findings: Finding[] }, rule: RuleId): void {
  const all = findingsOf(r, rule);
  assert.equal(all.length, 0, `expected no ${rule} finding; got ${JSON.stringify(all, null, 1)}`);
}

// ---- JSON-RPC message builders -------------------------------------------------------------------

export const request = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
export const notification = (method: string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  method,
  ...(params === undefined ? {} : { params }),
});
export const result = (id: unknown, body: unknown) => ({ jsonrpc: "2.0", id, result: body });
export const error = (id: unknown, code: number, message = "error", data?: unknown) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});
/** A 2026-07-28 tools/call with its `_meta` (caps: the request's clientCapabilities). */
export const toolCall = (
  id: unknown,
  name = "deploy",
  args: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
  caps?: Record<string, unknown>,
) => request(id, "tools/call", { name, arguments: args, ...extra, _meta: meta(caps) });
/** A 2025-xx tools/call (no `_meta`). */
export const legacyToolCall = (id: unknown, name = "deploy", args: Record<string, unknown> = {}) =>
  request(id, "tools/call", { name, arguments: args });
/** An `inputRequests` entry asking `elicitation/create`. */
export const ask = (params: unknown = form()) => ({ method: "elicitation/create", params });
export const urlParams = (
  elicitationId = "e1",
  url = "https://mcp.example.com/connect",
  message = "Connect your account",
) => ({ mode: "url", elicitationId, url, message });
/** An InputRequiredResult. */
export const irr = (inputRequests?: Record<string, unknown>, requestState?: unknown) => ({
  resultType: "input_required",
  ...(inputRequests === undefined ? {} : { inputRequests }),
  ...(requestState === undefined ? {} : { requestState }),
});
/** A final CallToolResult (2026-07-28 shape; pass `legacy` for 2025-xx). */
export const done = (legacy = false) => ({
  ...(legacy ? {} : { resultType: "complete" }),
  content: [{ type: "text", text: "done" }],
});

/** A 2025-xx POST (session headers `h`) answered with an SSE stream; returns the exchange for `sse`/`end`. */
export function streamCall(b: ReturnType<typeof captureBuilder>, body: unknown, h: Headers): string {
  const x = b.post(body, h);
  b.status(x, 200, { "content-type": "text/event-stream" });
  return x;
}
