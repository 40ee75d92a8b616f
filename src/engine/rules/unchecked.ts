// Catalogue rules the engine does not check, with the reason: they are in the registry for their meta (the
// CLI's rule list, docs/rules.md), and listen to nothing.
import type { RuleId, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "url-accept-is-consent",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25, 2026-07-28",
    violator: "none",
    violatorNote: "n/a",
    detection: "n/a",
    title: "Interpretation: `accept` means consent, not completion",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "task-r3-extension",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28 (extension)",
    violator: "none",
    violatorNote: "n/a",
    detection: "n/a",
    title: "Pointer to the tasks extension rules",
    section: "3.11",
    spec: { revision: "2026-07-28", path: "changelog" },
  },
];

/** Why each is not checked. */
export const notChecked: Partial<Record<RuleId, string>> = {
  "url-accept-is-consent":
    "an interpretation rule, not a check: the flow model applies it (an accepted URL elicitation is completed only by its completion notification or a successful retry).",
  "task-r3-extension": "a pointer to the 2026-07-28 tasks extension rules, which are out of scope for core MCP.",
};

export const unchecked: RuleModule = { meta, create: () => ({}) };
