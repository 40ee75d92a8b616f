import type { Revision } from "../../protocol/revision.ts";
import { isObject } from "../pointer.ts";
import type { Report } from "./types.ts";

/**
 * Shape rules of `notifications/elicitation/complete` sent by the server (2025-11-25 § "Completion
 * Notifications for URL Mode Elicitation"). Returns the elicitationId when it is usable.
 */
export function checkCompletionShape(params: unknown, at: string, revision: Revision | null, report: Report): string | undefined {
  if (revision !== null && revision !== "2025-11-25") {
    report({ rule: "notify-revision", pointer: `${at}/method`, message: `notifications/elicitation/complete in a ${revision} session; it exists only in 2025-11-25.` });
    // The other notify-* rules are 2025-11-25 rules; outside it the notification itself is the mistake.
    return undefined;
  }
  const id = isObject(params) ? params.elicitationId : undefined;
  if (typeof id !== "string") {
    report({ rule: "notify-elicitation-id", pointer: isObject(params) ? `${at}/params` : at, message: "Completion notification lacks a string params.elicitationId." });
    return undefined;
  }
  const extra = Object.keys(params as object).filter((k) => k !== "elicitationId" && k !== "_meta");
  if (extra.length) {
    report({ rule: "notify-params-extra", pointer: `${at}/params/${extra[0]}`, message: `Completion notification carries ${extra.join(", ")}; it carries only elicitationId, no outcome.` });
  }
  return id;
}
