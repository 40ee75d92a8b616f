import { test } from "node:test";
import assert from "node:assert/strict";
import { captureBuilder, expectFinding, expectNone, findingsOf, form, legacySession, legacyToolCall, request, result, streamCall } from "../helpers/capture.ts";

// rules.md §3.11 Interplay with tasks (2025-11-25).

const RELATED = "io.modelcontextprotocol/related-task";
const nameTask = { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } }, task: { ttl: 60000 } };
const approve = { message: "Approve the deployment?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } };

test("task-r2-augmented-capability: task-augmented elicitation/create to a client without tasks.requests.elicitation.create (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {} });
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(6, "elicitation/create", nameTask));
  const r = b.analyze();
  const f = expectFinding(r, "task-r2-augmented-capability", { severity: "warning", violator: "server" });
  assert.equal(f.pointer, "/params/task");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("task-r2-augmented-capability: clean when the client declared tasks.requests.elicitation.create", () => {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {}, tasks: { requests: { elicitation: { create: {} } } } });
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(6, "elicitation/create", nameTask));
  expectNone(b.analyze(), "task-r2-augmented-capability");
});

/** tasks/result for task-123 whose stream carries elicitation 8 with `params`, answered with `answer`. */
function taskElicitation(params: unknown, answer: unknown) {
  const b = captureBuilder();
  const h = legacySession(b, "2025-11-25", { elicitation: {}, tasks: { requests: { elicitation: { create: {} } } } });
  const x = streamCall(b, request(3, "tasks/result", { taskId: "task-123" }), h);
  b.sse(x, request(8, "elicitation/create", params));
  const answerSeq = b.records.length;
  b.accepted(result(8, answer), h);
  return { b, answerSeq };
}

test("task-r2-related-task-meta: an elicitation on the tasks/result stream without related-task _meta (catalogue example)", () => {
  const { b } = taskElicitation(approve, { action: "accept", content: { ok: true }, _meta: { [RELATED]: { taskId: "task-123" } } });
  const r = b.analyze();
  const f = expectFinding(r, "task-r2-related-task-meta", { severity: "error", violator: "server" });
  assert.equal(f.pointer, "/params");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(r.flows[0]!.method, "tasks/result");
});

test("task-r2-related-task-meta: the client's ElicitResult lacks the related-task _meta", () => {
  const { b, answerSeq } = taskElicitation({ ...approve, _meta: { [RELATED]: { taskId: "task-123" } } }, { action: "accept", content: { ok: true } });
  const r = b.analyze();
  const f = expectFinding(r, "task-r2-related-task-meta", { violator: "client", record: answerSeq });
  assert.equal(f.pointer, "/result");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(findingsOf(r, "task-r2-related-task-meta").length, 1);
});

test("task-r2-related-task-meta: a taskId that names another task", () => {
  const { b } = taskElicitation({ ...approve, _meta: { [RELATED]: { taskId: "task-999" } } }, { action: "accept", content: { ok: true }, _meta: { [RELATED]: { taskId: "task-999" } } });
  expectFinding(b.analyze(), "task-r2-related-task-meta", { violator: "server", pointer: "/params" });
});

test("task-r2-related-task-meta: clean when request and response both carry the task id", () => {
  const { b } = taskElicitation({ ...approve, _meta: { [RELATED]: { taskId: "task-123" } } }, { action: "accept", content: { ok: true }, _meta: { [RELATED]: { taskId: "task-123" } } });
  expectNone(b.analyze(), "task-r2-related-task-meta");
});

test("task rules stay out of ordinary elicitations", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(1, "elicitation/create", form()));
  b.accepted(result(1, { action: "accept", content: { ok: true } }), h);
  const r = b.analyze();
  expectNone(r, "task-r2-related-task-meta");
  expectNone(r, "task-r2-augmented-capability");
});
