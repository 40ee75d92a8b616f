// rules.md §3.9 Error codes.
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/errors.ts";
import {
  done,
  error,
  legacySession,
  legacyToolCall,
  modernHeaders,
  notification,
  result,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const H = modernHeaders("tools/call", "deploy");
const needUrl = (...ids: string[]) => ({ elicitations: ids.map((id) => urlParams(id)) });

/** A 2025-xx session (these capabilities) whose tools/call id 2 is answered with -32042 and `data`. */
const urlRequired =
  (data: unknown, revision = "2025-11-25", caps: Record<string, unknown> = { elicitation: { form: {}, url: {} } }) =>
  (b: Builder) => {
    const h = legacySession(b, revision, caps);
    b.call(legacyToolCall(2), error(2, -32042, "Need input", data), h);
  };
/** tools/call id 2 gets -32042 for e1; the server completes e1; the client retries with `retryId`. */
let retry = -1;
const urlRequiredThenRetry = (retryId: number) => (b: Builder) => {
  const h = legacySession(b);
  b.call(legacyToolCall(2, "connect_billing"), error(2, -32042, "Authorization required", needUrl("e1")), h);
  const g = b.get(h);
  b.sse(g, notification("notifications/elicitation/complete", { elicitationId: "e1" }), "get-sse", h);
  retry = b.records.length;
  b.call(legacyToolCall(retryId, "connect_billing"), result(retryId, done(true)), h);
};
/** A 2026-07-28 tools/call declaring `caps`, answered with `answer` and this status. */
const modern =
  (caps: Record<string, unknown>, answer: unknown, status = 200) =>
  (b: Builder) =>
    b.call(toolCall(1, "deploy", {}, {}, caps), answer, H, status);
const sameFlow = ({
  findings,
  flows,
}: {
  findings: readonly { flow: string | null }[];
  flows: readonly { id: string }[];
}) => assert.equal(findings[0]!.flow, flows[0]!.id);
const noFlow = ({ findings }: { findings: readonly { flow: string | null }[] }) =>
  assert.equal(findings[0]!.flow, null);

const valid: Case[] = [
  { name: "err-url-required-revision: -32042 in 2025-11-25", capture: urlRequired(needUrl("e1")) },
  {
    name: "err-url-required-shape: URL entries with elicitationId, url and message",
    capture: urlRequired(needUrl("e1", "e2")),
  },
  {
    name: "err-url-required-capability: URL mode was declared",
    capture: urlRequired(needUrl("e1"), "2025-11-25", { elicitation: { url: {} } }),
  },
  {
    name: "err-url-required-retry-new-id: the retry has a new id",
    capture: urlRequiredThenRetry(3),
    also: ({ flows }) => {
      assert.equal(flows.length, 1);
      assert.equal(flows[0]!.status, "complete");
    },
  },
  {
    name: "err-missing-cap-shape: an object with HTTP 400",
    capture: modern({}, error(1, -32021, "Need elicitation", { requiredCapabilities: { elicitation: {} } }), 400),
  },
  {
    name: "err-missing-cap-misuse: the named mode was missing",
    capture: modern(
      { elicitation: { form: {} } },
      error(1, -32021, "x", { requiredCapabilities: { elicitation: { url: {} } } }),
      400,
    ),
  },
  {
    name: "err-missing-cap-expected: a tool error about something else, and a failure when elicitation was declared",
    capture: (b) => {
      modern(
        {},
        result(1, {
          resultType: "complete",
          isError: true,
          content: [{ type: "text", text: "Deployment failed: disk full" }],
        }),
      )(b);
      b.call(toolCall(2, "deploy", {}, {}, { elicitation: {} }), error(2, -32603, "Elicitation failed"), H, 500);
    },
  },
  {
    name: "err-legacy-range: a standard code",
    capture: (b) => b.call(toolCall(1), error(1, -32602, "Elicitation was not requested by this caller"), H),
  },
];

const invalid: InvalidCase[] = [
  {
    name: "err-url-required-revision: -32042 answering a 2026-07-28 request is an error (catalogue example)",
    capture: (b) => b.call(toolCall(1), error(1, -32042, "Authorization required", { elicitations: [] }), H),
    findings: [
      { rule: "err-url-required-revision", severity: "error", pointer: "/error/code", violator: "server" },
      { rule: "err-url-required-shape", severity: "error", pointer: "/error/data" },
    ],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.flows[0]!.kind, "url-required-error");
    },
  },
  {
    name: "err-url-required-revision: -32042 in a 2025-06-18 session is info",
    capture: urlRequired(needUrl("e1"), "2025-06-18", { elicitation: {} }),
    findings: [{ rule: "err-url-required-revision", severity: "info", pointer: "/error/code" }],
    also: sameFlow,
  },
  {
    name: "err-url-required-shape: an entry that is form mode and lacks elicitationId and url (catalogue example)",
    capture: urlRequired({
      elicitations: [
        { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } },
      ],
    }),
    findings: [
      {
        rule: "err-url-required-shape",
        severity: "error",
        pointer: "/error/data/elicitations/0/mode",
        violator: "server",
      },
      { rule: "err-url-required-shape", severity: "error", pointer: "/error/data/elicitations/0" },
    ],
    also: ({ findings, flows }) => {
      for (const f of findings) assert.equal(f.flow, flows[0]!.id);
      assert.match(findings[1]!.message, /elicitationId/);
    },
  },
  {
    name: "err-url-required-shape: no data, and an empty list",
    capture: (b) => {
      const h = legacySession(b);
      b.call(legacyToolCall(2), error(2, -32042, "Need input"), h);
      b.call(legacyToolCall(3, "other"), error(3, -32042, "Need input", { elicitations: [] }), h);
    },
    findings: [
      { rule: "err-url-required-shape", severity: "error", pointer: "/error" },
      { rule: "err-url-required-shape", severity: "error", pointer: "/error/data" },
    ],
  },
  {
    name: "err-url-required-capability: -32042 sent to a client that declared elicitation {} (form only)",
    capture: urlRequired(needUrl("e1"), "2025-11-25", { elicitation: {} }),
    findings: [{ rule: "err-url-required-capability", severity: "error", pointer: "/error/code", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "err-url-required-retry-new-id: the retry after -32042 reuses the failed request's id",
    capture: urlRequiredThenRetry(2),
    findings: [{ rule: "err-url-required-retry-new-id", severity: "error", pointer: "/id", violator: "client" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, retry);
      sameFlow(outcome);
    },
  },
  {
    name: "err-missing-cap-shape: an array of names and HTTP 200 (catalogue example)",
    capture: modern({}, error(1, -32021, "Need elicitation", { requiredCapabilities: ["elicitation"] })),
    findings: [
      {
        rule: "err-missing-cap-shape",
        severity: "error",
        pointer: "/error/data/requiredCapabilities",
        violator: "server",
        record: 2,
      },
      { rule: "err-missing-cap-shape", severity: "error", pointer: "/error/code", violator: "server", record: 2 },
    ],
  },
  {
    name: "err-missing-cap-misuse: -32021 names a mode the request did declare (catalogue example)",
    capture: modern(
      { elicitation: { form: {}, url: {} } },
      error(1, -32021, "x", { requiredCapabilities: { elicitation: { url: {} } } }),
      400,
    ),
    findings: [
      {
        rule: "err-missing-cap-misuse",
        severity: "error",
        pointer: "/error/data/requiredCapabilities/elicitation",
        violator: "server",
      },
    ],
    also: noFlow,
  },
  {
    name: "err-missing-cap-expected: a missing elicitation signalled with -32601 (catalogue example)",
    capture: modern({}, error(1, -32601, "Client does not support elicitation"), 400),
    findings: [{ rule: "err-missing-cap-expected", severity: "warning", pointer: "/error/code", violator: "server" }],
    also: noFlow,
  },
  {
    name: "err-missing-cap-expected: a missing elicitation signalled with a CallToolResult isError:true",
    capture: modern(
      {},
      result(1, {
        resultType: "complete",
        isError: true,
        content: [{ type: "text", text: "This tool needs a client with elicitation support" }],
      }),
    ),
    findings: [{ rule: "err-missing-cap-expected", severity: "warning", pointer: "/result/isError" }],
  },
  {
    name: "err-legacy-range: -32003 near elicitation in 2026-07-28 (catalogue example)",
    capture: (b) => b.call(toolCall(1), error(1, -32003, "Elicitation was not requested by this caller"), H),
    findings: [{ rule: "err-legacy-range", severity: "info", pointer: "/error/code", violator: "either" }],
    also: noFlow,
  },
];

ruleTester("errors", meta, { valid, invalid });
