// MRTR, 2026-07-28 (rules.md §3.10): the family's rules, on the results the server gives (result.ts), the retries
// the client makes (retry.ts) and the server's answer to a defective retry (server.ts).
import type { Scope } from "../../model/scope.ts";
import type { RuleMeta, RuleModule } from "../../ruleKit/types.ts";
import { checkIrr, checkResultType } from "./result.ts";
import { checkRetry } from "./retry.ts";
import { checkServerAfterRetry } from "./server.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "mrtr-supported-methods",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "IRR on a method other than tools/call, prompts/get or resources/read",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-result-type-required",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: 'Result missing `resultType` (IRR must say "input_required")',
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-result-type-known",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact (stateful for extensions)",
    title: "Unknown `resultType` with no advertised extension",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-irr-not-empty",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "IRR with neither `inputRequests` nor `requestState`",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-input-request-method",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Input request method not elicitation/create, sampling/createMessage or roots/list",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-input-request-shape",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`jsonrpc` or `id` inside an input request",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-input-request-keys-unique",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection:
      "exact. It needs the **raw** body text, because parsed JSON collapses duplicates. The conformance suite excludes this requirement for that reason, but a tap that sees raw bytes can check it.",
    title: "Duplicate `inputRequests` keys (raw JSON)",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-request-state-string",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    violatorNote: "server / client",
    detection: "exact",
    title: "`requestState` is not a string",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-retry-new-id",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Retry reuses the original JSON-RPC id",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-retry-same-request",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Retry changes method, name, uri or arguments",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-echo-request-state",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "`requestState` not echoed byte-for-byte",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-no-invented-state",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Retry sends `requestState` that the IRR did not give",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-fulfil-before-retry",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Retry missing `inputResponses` for some requested key",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-response-type-match",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Response value is not the result type for its method",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-input-responses-extra-keys",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Keys not in the latest IRR",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-parallel-isolation",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "`requestState` or answers reused on another request",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-unsolicited-input-responses",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "`inputResponses` with no preceding IRR",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-absent-result-type-is-complete",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Client retried after a result with no `resultType`",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-server-rerequest-missing",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Error instead of re-requesting missing input",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-server-ignore-extra",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Error on extra keys",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-server-validate-input",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Malformed `inputResponses` accepted",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-tampered-state-accepted",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Altered `requestState` accepted",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-state-replay",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Same `requestState` accepted repeatedly",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-irr-mixed-payload",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "IRR also carries final-result fields",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-deprecated-input-kinds",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Sampling or roots input requests (deprecated)",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/patterns/mrtr" },
  },
  {
    id: "mrtr-retry-headers",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28 HTTP",
    violator: "client",
    detection: "exact (HTTP)",
    title: "Retry POST missing or mismatching Mcp-* headers",
    section: "3.10",
    spec: { revision: "2026-07-28", path: "basic/transports/streamable-http" },
  },
];

export const mrtr: RuleModule = {
  meta,
  create({ report, on }) {
    /** requestState values a server completed a retry with, per scope, for mrtr-state-replay. */
    const completedStates = new WeakMap<Scope, Map<string, number>>();
    return {
      serverResponse({ msg, req, result, modern }) {
        if (result && modern) checkResultType(result, msg.at, report, req.caps);
      },
      inputRequired({ msg, req, result }) {
        checkIrr(result, msg.at, req, msg.record.text, report);
      },
      retry({ kind, msg, req, link, noResultType, parallel, idReused }) {
        const { at, record } = msg;
        if (kind === "not-retryable") {
          report({
            rule: "mrtr-parallel-isolation",
            pointer: `${at}/params`,
            message: `${req.method} carries inputResponses/requestState; only the retry of tools/call, prompts/get or resources/read may.`,
          });
        } else if (kind === "unlinked") {
          if (noResultType !== undefined) {
            report({
              rule: "mrtr-absent-result-type-is-complete",
              pointer: `${at}/params`,
              message: `Client retried after a result with no resultType (record ${noResultType}); an absent resultType means complete.`,
            });
          } else {
            report({
              rule: "mrtr-unsolicited-input-responses",
              pointer: `${at}/params`,
              message: "Request carries inputResponses/requestState but no InputRequiredResult for it was seen.",
            });
          }
        } else if (kind === "other-request") {
          report({
            rule: "mrtr-parallel-isolation",
            pointer: `${at}/params/requestState`,
            message: `requestState of ${link!.request.method} ${link!.request.target ?? ""} (record ${link!.record}) reused on ${req.method} ${req.target ?? ""}; it belongs only to the retry of its own request.`,
          });
        } else {
          if (parallel)
            report({
              rule: "mrtr-parallel-isolation",
              pointer: `${at}/params/requestState`,
              message: `The same requestState is presented on two in-flight requests (records ${parallel.record} and ${record.seq}).`,
            });
          checkRetry(req, link!, record, at, idReused, report);
        }
      },
      flowCompleted({ msg, req, scope }) {
        if (!req.retryDefects) return;
        checkServerAfterRetry(req.retryDefects, "complete", msg.at, report);
        const state = req.params.requestState;
        if (typeof state !== "string" || !on("mrtr-state-replay")) return;
        let states = completedStates.get(scope);
        if (!states) completedStates.set(scope, (states = new Map()));
        const prior = states.get(state);
        if (prior !== undefined)
          report({
            rule: "mrtr-state-replay",
            pointer: `${msg.at}/result`,
            message: `The same requestState completed a request twice (first at record ${prior}).`,
          });
        else states.set(state, msg.record.seq);
      },
      flowFailed({ msg, req }) {
        if (req.retryDefects) checkServerAfterRetry(req.retryDefects, "error", msg.at, report);
      },
    };
  },
};
