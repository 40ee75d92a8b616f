import { test } from "node:test";
import assert from "node:assert/strict";
import type { Draft } from "../../src/capture/envelopes/index.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { inspectorSession, store } from "../capture/envelopes/fixtures.ts";
import { rules } from "../helpers/capture.ts";

// The engine on enveloped records (record.ts `envelope`, `server`, `via`, stream "envelope"): the server key is
// the upstream, and messages that came in a host's envelope are correlated by JSON-RPC id in their scope, with no
// Streamable HTTP delivery rule applied (their HTTP facts were the envelope's).

test("Inspector v2 session: one tools/call flow on the upstream, via the backend, answered accept; no delivery findings", () => {
  const { records, upstream, backend } = inspectorSession();
  const r = analyze(store(records));
  assert.deepEqual(r.problems, []);
  assert.equal(r.flows.length, 1);
  const flow = r.flows[0]!;
  assert.deepEqual([flow.kind, flow.method, flow.target, flow.status, flow.server, flow.via, flow.envelope], ["server-request", "tools/call", "book", "complete", upstream, `${backend}/api/mcp`, "inspector-v2"]);
  assert.deepEqual(flow.elicitations.map((e) => [e.mode, e.action]), [["form", "accept"]]);
  // Without the stream kind's meaning, every request after initialize would lack its MCP-Protocol-Version header.
  assert.deepEqual(rules(r), []);
});

test("Inspector v2 before unwrapping (what the issue saw): wrappers and {ok:true} answers are input problems, no flows", () => {
  const raw = inspectorSession().records.map((d, seq) => ({ ...d, v: 1, seq }) as CaptureRecord);
  const r = analyze(raw);
  assert.equal(r.flows.length, 0);
  assert.ok(r.problems.length > 5);
});

test("two upstreams behind one backend are two servers; a reconnect to the same upstream is a new scope (its ids start again)", () => {
  const a = inspectorSession({ sessionId: "sa", upstream: "http://127.0.0.1:4001/mcp", exchangePrefix: "a" });
  const b = inspectorSession({ sessionId: "sb", upstream: "http://127.0.0.1:4002/mcp", exchangePrefix: "b", start: 1_767_225_700_000 });
  const again = inspectorSession({ sessionId: "sc", upstream: "http://127.0.0.1:4001/mcp", exchangePrefix: "c", start: 1_767_225_800_000 });
  const r = analyze(store([...a.records, ...b.records, ...again.records]));
  assert.deepEqual(r.flows.map((f) => [f.server, f.session, f.status]), [
    ["http://127.0.0.1:4001/mcp", "iv2:sa", "complete"],
    ["http://127.0.0.1:4002/mcp", "iv2:sb", "complete"],
    ["http://127.0.0.1:4001/mcp", "iv2:sc", "complete"],
  ]);
  assert.deepEqual(rules(r), [], "the same ids in another backend session are no reuse");
});

test("Inspector v1 proxy with two upstreams: two servers, one via; Streamable HTTP rules still apply through the proxy", () => {
  const proxy = "http://127.0.0.1:6277/mcp";
  const drafts: Draft[] = [];
  let time = 1000;
  const session = (upstream: string, sid: string, n: number, header: boolean): void => {
    const url = `${proxy}?url=${encodeURIComponent(upstream)}&transportType=streamable-http`;
    const x = (k: string) => `${sid}-${k}`;
    const post = (k: string, body: unknown, headers: Record<string, string>) =>
      drafts.push({ time: (time += 10), transport: "http", exchange: x(k), url, client: "page", kind: "message", direction: "c2s", stream: "body", method: "POST", headers, text: JSON.stringify(body) });
    const head = (k: string, status: number, headers: Record<string, string> = {}) => drafts.push({ time: (time += 10), transport: "http", exchange: x(k), url, client: "page", kind: "response", status, headers, ...(status === 202 && { emptyBody: true }) });
    const event = (k: string, body: unknown) => drafts.push({ time: (time += 10), transport: "http", exchange: x(k), url, client: "page", kind: "message", direction: "s2c", stream: "post-sse", method: "POST", text: JSON.stringify(body) });
    const end = (k: string) => drafts.push({ time: (time += 10), transport: "http", exchange: x(k), url, client: "page", kind: "end" });
    post("init", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "inspector", version: "1" } } }, {});
    head("init", 200, { "content-type": "text/event-stream", "mcp-session-id": sid });
    event("init", { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } });
    end("init");
    const h = { "mcp-session-id": sid, ...(header && { "mcp-protocol-version": "2025-11-25" }) };
    post("ok", { jsonrpc: "2.0", method: "notifications/initialized" }, h);
    head("ok", 202);
    end("ok");
    post("call", { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "ask" } }, h);
    head("call", 200, { "content-type": "text/event-stream" });
    event("call", { jsonrpc: "2.0", id: 100 + n, method: "elicitation/create", params: { message: "Go?", requestedSchema: { type: "object", properties: { go: { type: "boolean" } } } } });
    post("answer", { jsonrpc: "2.0", id: 100 + n, result: { action: "decline" } }, h);
    head("answer", 202);
    end("answer");
    event("call", { jsonrpc: "2.0", id: n, result: { content: [] } });
    end("call");
  };
  session("http://127.0.0.1:3001/mcp", "p1", 1, true);
  session("http://127.0.0.1:3002/mcp", "p2", 1, false);
  const r = analyze(store(drafts));
  assert.deepEqual(r.flows.map((f) => [f.server, f.via, f.envelope, f.elicitations[0]?.action]), [
    ["http://127.0.0.1:3001/mcp", proxy, "proxy", "decline"],
    ["http://127.0.0.1:3002/mcp", proxy, "proxy", "decline"],
  ]);
  // The second session's POSTs lack MCP-Protocol-Version: through a proxy that is still a Streamable HTTP finding.
  const missing = r.findings.filter((f) => f.rule === "rev-header-missing");
  assert.ok(missing.length > 0 && missing.every((f) => r.flows.find((fl) => fl.id === f.flow)?.server !== "http://127.0.0.1:3001/mcp"));
});

test("MCP-B tab transport: both ends in one window, directions from the envelope, one flow", () => {
  const origin = "http://127.0.0.1:5173";
  let time = 0;
  const post = (direction: string, payload: unknown): Draft => ({ time: (time += 5), transport: "postMessage", exchange: `pm:${origin}>${origin}`, url: origin, client: origin, kind: "message", direction: "s2c", stream: "postMessage", text: JSON.stringify({ channel: "mcp-default", type: "mcp", direction, payload }) });
  const drafts = [
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
  const r = analyze(store(drafts));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.flows.map((f) => [f.method, f.status, f.envelope, f.elicitations[0]?.action]), [["tools/call", "complete", "mcp-b", "cancel"]]);
  assert.deepEqual(rules(r), ["form-secret-field"]);
});
