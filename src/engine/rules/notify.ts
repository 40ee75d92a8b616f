// notifications/elicitation/complete (rules.md §3.8, 2025-11-25 only): its shape, who sends it, and whether the
// elicitationId it names was issued to this session and is completed once.
import type { Revision } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { Report, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "notify-revision",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`notifications/elicitation/complete` outside 2025-11-25",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-direction",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "client",
    detection: "exact",
    title: "Client sends the completion notification",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-elicitation-id",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "server",
    detection: "exact",
    title: "`params.elicitationId` missing or not a string",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-known-id",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "Unknown `elicitationId`",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-same-client",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful (HTTP: `Mcp-Session-Id`; stdio: process)",
    title: "Notification sent to a different session or client",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-params-extra",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25",
    violator: "server",
    detection: "exact",
    title: "Extra params such as `action`",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "notify-duplicate",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "Repeated completion for the same id",
    section: "3.8",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
];

/** Shape rules of the server's notification (2025-11-25 § "Completion Notifications for URL Mode Elicitation"). */
function checkCompletionShape(params: unknown, at: string, revision: Revision | null, report: Report): boolean {
  if (revision !== null && revision !== "2025-11-25") {
    report({
      rule: "notify-revision",
      pointer: `${at}/method`,
      message: `notifications/elicitation/complete in a ${revision} session; it exists only in 2025-11-25.`,
    });
    // The other notify-* rules are 2025-11-25 rules; outside it the notification itself is the mistake.
    return false;
  }
  const id = isObject(params) ? params.elicitationId : undefined;
  if (typeof id !== "string") {
    report({
      rule: "notify-elicitation-id",
      pointer: isObject(params) ? `${at}/params` : at,
      message: "Completion notification lacks a string params.elicitationId.",
    });
    return false;
  }
  const extra = Object.keys(params as object).filter((k) => k !== "elicitationId" && k !== "_meta");
  if (extra.length) {
    report({
      rule: "notify-params-extra",
      pointer: `${at}/params/${extra[0]}`,
      message: `Completion notification carries ${extra.join(", ")}; it carries only elicitationId, no outcome.`,
    });
  }
  return true;
}

export const notify: RuleModule = {
  meta,
  create: ({ report }) => ({
    completion({ msg, params, revision, id, known, otherSession, repeated }) {
      const at = msg.at;
      if (!checkCompletionShape(params, at, revision, report)) return;
      if (!known) {
        if (otherSession !== undefined)
          report({
            rule: "notify-same-client",
            flow: otherSession,
            pointer: `${at}/params/elicitationId`,
            message: `Completion for "${id}" was delivered to another session than the one that issued it.`,
          });
        else
          report({
            rule: "notify-known-id",
            pointer: `${at}/params/elicitationId`,
            message: `Completion for unknown elicitationId "${id}".`,
          });
        return;
      }
      if (repeated)
        report({
          rule: "notify-duplicate",
          flow: known,
          pointer: `${at}/params/elicitationId`,
          message: `Repeated completion for elicitationId "${id}".`,
        });
    },
    clientNotification({ msg, method, completionFlow }) {
      if (method !== "notifications/elicitation/complete") return;
      report({
        rule: "notify-direction",
        flow: completionFlow,
        pointer: `${msg.at}/method`,
        message: "Client sent notifications/elicitation/complete; only servers send it.",
      });
    },
  }),
};
