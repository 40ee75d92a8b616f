// rev-feature-not-in-revision (rules.md §1.4), the catch-all for features a revision lacks: an elicitation/create
// in a session negotiated before elicitation existed. The other cases have rules of their own.
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "rev-feature-not-in-revision",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "either",
    violatorNote: "sender",
    detection: "stateful (needs the negotiated revision)",
    title: "Elicitation feature used in a revision that lacks it (catch-all)",
    section: "1.4",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
];

export const revisionFeature: RuleModule = {
  meta,
  create: ({ report }) => ({
    elicitationAsked({ where, msg }) {
      const negotiated = msg.scope.revision;
      if (where !== "server-request" || negotiated === null || negotiated >= "2025-06-18") return;
      report({
        rule: "rev-feature-not-in-revision",
        violator: "server",
        pointer: `${msg.at}/method`,
        message: `elicitation/create in a session negotiated at ${negotiated}, which has no elicitation.`,
      });
    },
  }),
};
