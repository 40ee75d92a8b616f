import { test } from "node:test";
import assert from "node:assert/strict";
import {
  captureBuilder,
  error,
  form,
  legacySession,
  legacyToolCall,
  request,
  result,
  streamCall,
} from "../helpers/capture.ts";

// A client that answers elicitation/create with a JSON-RPC error (use-mcp answers -32601: it declares no
// elicitation) asked nobody: the time until that answer is not time waiting on the user.

test("an elicitation answered with a JSON-RPC error: no user time, the flow ends with the server's answer", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", {});
  const x = streamCall(b, legacyToolCall(1), h);
  b.wait(100);
  b.sse(x, request(0, "elicitation/create", form()));
  b.wait(1_000);
  const answer = b.accepted(error(0, -32601, "Method not found"), h);
  b.wait(50);
  b.sse(x, result(1, { content: [{ type: "text", text: "no elicitation" }], isError: true }));
  b.end(x);
  const r = b.analyze();
  const flow = r.flows[0]!;
  const el = flow.elicitations[0]!;
  assert.ok(answer);
  assert.equal(el.action, null);
  assert.match(el.answerPointer ?? "", /\/error$/);
  assert.ok(el.answeredAt! - el.askedAt >= 1_000);
  assert.equal(flow.userMs, 0, "the client's error answer is not user time");
  assert.equal(flow.userMs + flow.serverMs, flow.endedAt! - flow.startedAt, "the rest of the flow stays the server's");
  assert.equal(flow.status, "complete");
});

test("an error answer while another question of the flow is still open leaves the clock with the user", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form()));
  b.sse(x, request(1, "elicitation/create", form()));
  b.wait(500);
  b.accepted(error(1, -32603, "Internal error"), h);
  b.wait(500);
  b.accepted(result(0, { action: "accept", content: { ok: true } }), h);
  b.sse(x, result(1, { content: [] }));
  b.end(x);
  const flow = b.analyze().flows[0]!;
  const [first] = flow.elicitations;
  assert.equal(first!.action, "accept");
  assert.equal(flow.userMs, first!.answeredAt! - first!.askedAt, "the user still had the first question");
});
