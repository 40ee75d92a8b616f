// cap-before-initialized (rules.md §3.1): a 2025-xx server asks before the client's notifications/initialized
// (lifecycle.mdx § "Initialization": no requests but pings before it).
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "cap-before-initialized",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-06-18, 2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "`elicitation/create` before `notifications/initialized`",
    section: "3.1",
    spec: { revision: "2025-11-25", path: "basic/lifecycle" },
  },
];

export const lifecycle: RuleModule = {
  meta,
  create: ({ report }) => ({
    serverRequest({ kind, modern, msg, method }) {
      if (kind !== "elicitation" || modern || !msg.scope.initializeSeen || msg.scope.initialized) return;
      report({
        rule: "cap-before-initialized",
        pointer: `${msg.at}/method`,
        message: `${method} was sent before the client's notifications/initialized.`,
      });
    },
  }),
};
