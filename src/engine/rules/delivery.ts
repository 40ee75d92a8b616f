// Delivery and association (rules.md §3.2): which stream carries a server request and which client request it
// belongs to (2025-xx), that 2026-07-28 has no server requests or client responses at all, and how the client's
// answers correlate by id.
import { isModern } from "../../protocol/revision.ts";
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "del-r3-no-server-requests",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Any server→client JSON-RPC request (e.g. `elicitation/create` with `id`)",
    section: "3.2",
    spec: { revision: "2026-07-28", path: "basic/patterns" },
  },
  {
    id: "del-r3-no-client-responses",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    detection: "exact",
    title: "Client sends a JSON-RPC response (e.g. a POSTed ElicitResult)",
    section: "3.2",
    spec: { revision: "2026-07-28", path: "basic/patterns" },
  },
  {
    id: "del-r12-related-request",
    severity: "warning",
    severityNote: "warning (strict: error)",
    revisions: "2025-06-18, 2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "Elicitation not tied to an in-flight client request (after the response, or stdio idle)",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
  {
    id: "del-r12-standalone-stream",
    severity: "info",
    severityNote: "info (strict SEP-2260: error)",
    revisions: "2025-06-18, 2025-11-25",
    violator: "server",
    detection: "exact (you need to know which stream is the GET stream)",
    title: "Elicitation sent on the standalone GET SSE stream",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
  {
    id: "del-r12-single-stream",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "Same elicitation broadcast on more than one stream",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
  {
    id: "del-r12-request-id-unique",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "`elicitation/create` id null or reused in the session",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
  {
    id: "del-r12-response-correlation",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2025-11-25",
    violator: "client",
    detection: "stateful",
    title: "Response id unknown or duplicated; result/error shape wrong",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
  {
    id: "del-r12-response-202",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2025-11-25 (HTTP)",
    violator: "server",
    detection: "exact",
    title: "POSTed ElicitResult not answered with 202 and no body",
    section: "3.2",
    spec: { revision: "2025-11-25", path: "basic/transports" },
  },
];

/** Requests that plausibly need no user input (del-r12-related-request case c). */
const NON_INTERACTIVE = /^(ping|initialize|completion\/complete|.*\/list)$/;

export const delivery: RuleModule = {
  meta,
  create: ({ report, strict2260 }) => {
    const strict = strict2260 ? ("error" as const) : undefined;
    return {
      serverRequest({ kind, msg, id, method, modern, origin, prior, stream }) {
        const { record, at, exchange, scope } = msg;
        if (kind === "replay") {
          // Replay after Last-Event-ID resumption is allowed (transports.mdx § "Resumability and Redelivery": the
          // client resumes with a GET carrying Last-Event-ID, the server replays on that new stream); the same
          // request on another stream otherwise is a broadcast.
          const resumed = (exchange?.requestHeaders ?? record.headers)?.["last-event-id"] !== undefined;
          if (prior!.exchange !== exchange?.id && record.stream !== "body" && !resumed) {
            report({
              rule: "del-r12-single-stream",
              pointer: `${at}/id`,
              message: `elicitation/create id ${JSON.stringify(id)} was already delivered on another stream (record ${prior!.record}).`,
            });
          }
          return;
        }
        if (modern)
          report({
            rule: "del-r3-no-server-requests",
            pointer: `${at}/method`,
            message: `Server sent a JSON-RPC request (${method}) to a 2026-07-28 client; servers must use InputRequiredResult instead.`,
          });
        if (kind === "other-method") return;
        if (id === null)
          report({
            rule: "del-r12-request-id-unique",
            pointer: `${at}/id`,
            message: "elicitation/create has a null id.",
          });
        else if (prior)
          report({
            rule: "del-r12-request-id-unique",
            pointer: `${at}/id`,
            message: `elicitation/create reuses id ${JSON.stringify(id)} already used by the server in this session (record ${prior.record}).`,
          });
        if (modern) return;
        if (stream === "get-sse") {
          report({
            rule: "del-r12-standalone-stream",
            severity: strict,
            pointer: `${at}/method`,
            message: `${method} was sent on the standalone GET stream rather than on the stream of the request it relates to.`,
          });
        } else if (stream === "post-sse" && exchange && exchange.requestIds.length && !origin) {
          report({
            rule: "del-r12-related-request",
            severity: strict,
            pointer: `${at}/method`,
            message: `${method} was sent on a POST stream after the response to that POST's request was delivered.`,
          });
        } else if (origin && NON_INTERACTIVE.test(origin.method)) {
          report({
            rule: "del-r12-related-request",
            severity: strict,
            pointer: `${at}/method`,
            message: `${method} was sent on the stream of ${origin.method}, which needs no user input.`,
          });
        } else if (
          !origin &&
          (record.transport === "stdio" || record.transport === "websocket") &&
          scope.initializeSeen
        ) {
          report({
            rule: "del-r12-related-request",
            severity: strict,
            pointer: `${at}/method`,
            message: `${method} was sent while no client request was outstanding.`,
          });
        }
      },
      clientResponse({ msg, id, asked, repeated, knownId, lostStream, revision }) {
        const { record, at, scope } = msg;
        if (isModern(revision) || isModern(record.headers?.["mcp-protocol-version"])) {
          report({
            rule: "del-r3-no-client-responses",
            pointer: at || "",
            message:
              "Client sent a JSON-RPC response; in 2026-07-28 answers travel in inputResponses of a retried request.",
          });
        }
        if (asked) return;
        if (repeated !== undefined) {
          report({
            rule: "del-r12-response-correlation",
            flow: repeated.flow,
            pointer: `${at}/id`,
            message: `Client answers elicitation id ${JSON.stringify(id)} a second time (first answer: record ${repeated.record}).`,
          });
        } else if (scope.initializeSeen && !knownId && !lostStream && !isModern(revision)) {
          // (A question on a stream whose body the HAR lost is not missing: the capture cannot say.)
          report({
            rule: "del-r12-response-correlation",
            pointer: `${at}/id`,
            message: `Client response id ${JSON.stringify(id)} matches no outstanding elicitation/create.`,
          });
        }
      },
      malformedAnswer({ msg, id, hasResult }) {
        report({
          rule: "del-r12-response-correlation",
          pointer: `${msg.at}`,
          message: `Client's answer to elicitation id ${JSON.stringify(id)} ${hasResult ? "has both result and error" : "has neither result nor error"}.`,
        });
      },
      elicitResultAck({ exchange }) {
        const body = exchange.emptyBody === false;
        if (exchange.status !== 202 || body) {
          report({
            rule: "del-r12-response-202",
            pointer: "",
            message: `POSTed ElicitResult was answered with HTTP ${exchange.status}${body ? " and a body" : ""}; the server must answer 202 Accepted with no body.`,
          });
        }
      },
    };
  },
};
