// Interplay with tasks (rules.md §3.11, 2025-11-25): a task-augmented elicitation/create needs the client's
// tasks capability, and the elicitations of a task (and their answers) carry its id in _meta.
import { idKey } from "../../protocol/jsonrpc.ts";
import { META_RELATED_TASK } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "task-r2-augmented-capability",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "`params.task` without the client's tasks.requests.elicitation.create",
    section: "3.11",
    spec: { revision: "2025-11-25", path: "basic/utilities/tasks" },
  },
  {
    id: "task-r2-related-task-meta",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "server",
    violatorNote: "server / client",
    detection: "stateful",
    title: "Task-related elicitation without the related-task `_meta`",
    section: "3.11",
    spec: { revision: "2025-11-25", path: "basic/utilities/tasks" },
  },
];

export const tasks: RuleModule = {
  meta,
  create: ({ report, on }) => ({
    elicitationAsked({ where, msg, ep, req: origin, pointer: p }) {
      const { scope } = msg;
      if (where !== "server-request" || scope.revision !== "2025-11-25") return;
      const params = isObject(ep) ? ep : {};
      if ("task" in params && on("task-r2-augmented-capability")) {
        const caps = scope.caps;
        const create =
          isObject(caps) &&
          isObject(caps.tasks) &&
          isObject(caps.tasks.requests) &&
          isObject(caps.tasks.requests.elicitation)
            ? caps.tasks.requests.elicitation.create
            : undefined;
        if (create === undefined)
          report({
            rule: "task-r2-augmented-capability",
            pointer: `${p}/task`,
            message:
              "Task-augmented elicitation/create sent to a client without capabilities.tasks.requests.elicitation.create.",
          });
      }
      if (origin?.method === "tasks/result") {
        const meta = params._meta;
        const related = isObject(meta) ? meta[META_RELATED_TASK] : undefined;
        const taskId = isObject(origin.params) ? origin.params.taskId : undefined;
        if (!isObject(related) || (taskId !== undefined && related.taskId !== taskId)) {
          report({
            rule: "task-r2-related-task-meta",
            violator: "server",
            pointer: `${p}`,
            message: `Elicitation on the stream of tasks/result lacks _meta["${META_RELATED_TASK}"].taskId${taskId !== undefined ? ` = ${JSON.stringify(taskId)}` : ""}.`,
          });
        }
      }
    },
    /** The client half: the answer to a task's elicitation carries the task id too (tasks.mdx § "Associating Task-Related Messages"). */
    elicitationAnswered({ kind, msg, ep, er, flow, pointer: p }) {
      const { scope } = msg;
      if (kind !== "server-request" || !flow || scope.revision !== "2025-11-25") return;
      const asked = isObject(ep) && isObject(ep._meta) ? ep._meta[META_RELATED_TASK] : undefined;
      let taskId = isObject(asked) ? asked.taskId : undefined;
      if (taskId === undefined && flow.method === "tasks/result") {
        const origin = flow.rounds[0] ? scope.clientRequests.get(idKey(flow.rounds[0].requestId)) : undefined;
        taskId = origin && origin.method === "tasks/result" ? origin.params.taskId : undefined;
      }
      if (typeof taskId !== "string") return;
      const related = isObject(er) && isObject(er._meta) ? er._meta[META_RELATED_TASK] : undefined;
      if (!isObject(related) || related.taskId !== taskId) {
        report({
          rule: "task-r2-related-task-meta",
          violator: "client",
          pointer: p,
          message: `The answer to an elicitation of task ${JSON.stringify(taskId)} lacks _meta["${META_RELATED_TASK}"].taskId = ${JSON.stringify(taskId)}.`,
        });
      }
    },
  }),
};
