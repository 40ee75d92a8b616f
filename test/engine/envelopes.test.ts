import { test } from "node:test";
import assert from "node:assert/strict";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { inspectorSession, mcpBTab, PROXY, proxySessions, store } from "../capture/envelopes/fixtures.ts";
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
  assert.deepEqual(
    [flow.kind, flow.method, flow.target, flow.status, flow.server, flow.via, flow.envelope],
    ["server-request", "tools/call", "book", "complete", upstream, `${backend}/api/mcp`, "inspector-v2"],
  );
  assert.deepEqual(
    flow.elicitations.map((e) => [e.mode, e.action]),
    [["form", "accept"]],
  );
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
  const b = inspectorSession({
    sessionId: "sb",
    upstream: "http://127.0.0.1:4002/mcp",
    exchangePrefix: "b",
    start: 1_767_225_700_000,
  });
  const again = inspectorSession({
    sessionId: "sc",
    upstream: "http://127.0.0.1:4001/mcp",
    exchangePrefix: "c",
    start: 1_767_225_800_000,
  });
  const r = analyze(store([...a.records, ...b.records, ...again.records]));
  assert.deepEqual(
    r.flows.map((f) => [f.server, f.session, f.status]),
    [
      ["http://127.0.0.1:4001/mcp", "iv2:sa", "complete"],
      ["http://127.0.0.1:4002/mcp", "iv2:sb", "complete"],
      ["http://127.0.0.1:4001/mcp", "iv2:sc", "complete"],
    ],
  );
  assert.deepEqual(rules(r), [], "the same ids in another backend session are no reuse");
});

test("Inspector v1 proxy with two upstreams: two servers, one via; Streamable HTTP rules still apply through the proxy", () => {
  const r = analyze(store(proxySessions()));
  assert.deepEqual(
    r.flows.map((f) => [f.server, f.via, f.envelope, f.elicitations[0]?.action]),
    [
      ["http://127.0.0.1:3001/mcp", PROXY, "proxy", "decline"],
      ["http://127.0.0.1:3002/mcp", PROXY, "proxy", "decline"],
    ],
  );
  // The second session's POSTs lack MCP-Protocol-Version: through a proxy that is still a Streamable HTTP finding.
  const missing = r.findings.filter((f) => f.rule === "rev-header-missing");
  assert.ok(
    missing.length > 0 &&
      missing.every((f) => r.flows.find((fl) => fl.id === f.flow)?.server !== "http://127.0.0.1:3001/mcp"),
  );
});

test("MCP-B tab transport: both ends in one window, directions from the envelope, one flow", () => {
  const r = analyze(store(mcpBTab()));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(
    r.flows.map((f) => [f.method, f.status, f.envelope, f.elicitations[0]?.action]),
    [["tools/call", "complete", "mcp-b", "cancel"]],
  );
  assert.deepEqual(rules(r), ["form-secret-field"]);
});
