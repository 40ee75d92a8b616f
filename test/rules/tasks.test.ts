// rules.md §3.11 Interplay with tasks (2025-11-25).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/tasks.ts";
import { form, legacySession, legacyToolCall, request, result, streamCall } from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const RELATED = "io.modelcontextprotocol/related-task";
const nameTask = {
  message: "Name?",
  requestedSchema: { type: "object", properties: { n: { type: "string" } } },
  task: { ttl: 60000 },
};
const approve = {
  message: "Approve the deployment?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
};
const related = (taskId: string) => ({ _meta: { [RELATED]: { taskId } } });

/** A task-augmented elicitation/create to a client with these capabilities. */
const augmented = (capabilities: Record<string, unknown>) => (b: Builder) => {
  const h = legacySession(b, "2025-11-25", capabilities);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(6, "elicitation/create", nameTask));
};

/** tasks/result for task-123 whose stream carries elicitation 8 with `params`, answered with `answer`. */
const taskElicitation = (params: unknown, answer: unknown) => (b: Builder) => {
  const h = legacySession(b, "2025-11-25", { elicitation: {}, tasks: { requests: { elicitation: { create: {} } } } });
  const x = streamCall(b, request(3, "tasks/result", { taskId: "task-123" }), h);
  b.sse(x, request(8, "elicitation/create", params));
  b.accepted(result(8, answer), h);
};
const accepted = { action: "accept", content: { ok: true } };

const valid: Case[] = [
  {
    name: "task-r2-augmented-capability: the client declared tasks.requests.elicitation.create",
    capture: augmented({ elicitation: {}, tasks: { requests: { elicitation: { create: {} } } } }),
  },
  {
    name: "task-r2-related-task-meta: request and response both carry the task id",
    capture: taskElicitation({ ...approve, ...related("task-123") }, { ...accepted, ...related("task-123") }),
  },
  {
    name: "task rules stay out of ordinary elicitations",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(1, "elicitation/create", form()));
      b.accepted(result(1, accepted), h);
    },
  },
];

const invalid: InvalidCase[] = [
  {
    name: "task-r2-augmented-capability: to a client without tasks.requests.elicitation.create (catalogue example)",
    capture: augmented({ elicitation: {} }),
    findings: [
      { rule: "task-r2-augmented-capability", severity: "warning", pointer: "/params/task", violator: "server" },
    ],
    also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
  },
  {
    name: "task-r2-related-task-meta: an elicitation on the tasks/result stream without related-task _meta (catalogue example)",
    capture: taskElicitation(approve, { ...accepted, ...related("task-123") }),
    findings: [{ rule: "task-r2-related-task-meta", severity: "error", pointer: "/params", violator: "server" }],
    also: ({ findings, flows }) => {
      assert.equal(findings[0]!.flow, flows[0]!.id);
      assert.equal(flows[0]!.method, "tasks/result");
    },
  },
  {
    name: "task-r2-related-task-meta: the client's ElicitResult lacks the related-task _meta",
    capture: taskElicitation({ ...approve, ...related("task-123") }, accepted),
    findings: [{ rule: "task-r2-related-task-meta", severity: "error", pointer: "/result", violator: "client" }],
    also: ({ findings, flows, records }) => {
      assert.equal(findings[0]!.flow, flows[0]!.id);
      // The answer's POST (then its 202 and end).
      assert.equal(findings[0]!.record, records.length - 3);
    },
  },
  {
    name: "task-r2-related-task-meta: a taskId that names another task",
    capture: taskElicitation({ ...approve, ...related("task-999") }, { ...accepted, ...related("task-999") }),
    findings: [{ rule: "task-r2-related-task-meta", severity: "error", pointer: "/params", violator: "server" }],
  },
];

ruleTester("tasks", meta, { valid, invalid });
