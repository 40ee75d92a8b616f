// Advisory rules about a flow as a whole (rules.md §3.12): elicitations asked at once, one field at a time
// round after round, and an error after the user declined.
import { isObject } from "../../util/json.ts";
import type { Elicitation, Flow } from "../flow.ts";
import type { Report, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "adv-concurrent-elicitations",
    severity: "info",
    severityNote: "info",
    revisions: "all",
    violator: "server",
    detection: "stateful",
    title: "Several open elicitations (legal)",
    section: "3.12",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "adv-batch-questions",
    severity: "info",
    severityNote: "info",
    revisions: "all",
    violator: "server",
    detection: "stateful",
    title: "Many one-field rounds",
    section: "3.12",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "adv-server-handles-refusal",
    severity: "info",
    severityNote: "info",
    revisions: "all",
    violator: "server",
    detection: "stateful",
    title: "Server errors after decline or cancel",
    section: "3.12",
    spec: { revision: null, path: "client/elicitation" },
  },
];

const isSingleField = (e: Elicitation): boolean =>
  e.mode === "form" &&
  isObject(e.schema) &&
  isObject(e.schema.properties) &&
  Object.keys(e.schema.properties).length === 1;

/** adv-batch-questions (MRTR): three rounds in a row that each ask one single-field form. */
function checkBatchQuestions(flow: Flow, report: Report, at: string): void {
  if (flow.rounds.length !== 3) return;
  const single = flow.rounds.every((r) => {
    const asked = flow.elicitations.filter((e) => e.round === r.index);
    return asked.length === 1 && isSingleField(asked[0]!);
  });
  if (single)
    report({
      rule: "adv-batch-questions",
      pointer: at,
      message: "Three rounds in a row each ask a single field; ask for independent fields in one form.",
    });
}

/** adv-batch-questions for server-initiated requests (2025-xx): three single-field questions, each asked after the previous answer. */
function checkSequentialQuestions(flow: Flow, report: Report, at: string): void {
  const asked = flow.elicitations;
  if (asked.length !== 3 || !asked.every(isSingleField)) return;
  const sequential = asked.every(
    (e, i) => i === 0 || (asked[i - 1]!.answeredAt !== undefined && asked[i - 1]!.answeredAt! <= e.askedAt),
  );
  if (sequential)
    report({
      rule: "adv-batch-questions",
      pointer: at,
      message: "Three elicitations in a row each ask a single field; ask for independent fields in one form.",
    });
}

export const advisory: RuleModule = {
  meta,
  create: ({ report, on }) => ({
    roundAsked({ flow, pointer: at, asked }) {
      if (asked > 1)
        report({
          rule: "adv-concurrent-elicitations",
          pointer: at,
          message: `One InputRequiredResult asks ${asked} elicitations at once (legal).`,
        });
      if (flow && on("adv-batch-questions")) checkBatchQuestions(flow, report, at);
    },
    serverElicitationOpened({ flow, pointer: p, idPointer, open }) {
      if (flow && on("adv-batch-questions")) checkSequentialQuestions(flow, report, p);
      if (open === 2)
        report({
          rule: "adv-concurrent-elicitations",
          pointer: idPointer,
          message: `Two elicitation/create requests are outstanding at once in this session (legal).`,
        });
    },
    flowFailed({ flow, msg, error }) {
      const code = error.code;
      if (!flow || (code !== -32603 && code !== -32602)) return;
      if (flow.elicitations.some((e) => e.action === "decline" || e.action === "cancel")) {
        report({
          rule: "adv-server-handles-refusal",
          pointer: `${msg.at}/error/code`,
          message: `After the user declined or cancelled, the server answered with error ${code} instead of a handled outcome.`,
        });
      }
    },
  }),
};
