// rules.md §3.1 Capability gating (cap-before-initialized: lifecycle.test.ts).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/capability.ts";
import {
  CAPS,
  ask,
  done,
  error,
  form,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const H = modernHeaders("tools/call", "deploy");
const CAPS_AT = `/params/_meta/${CAPS.replace("/", "~1")}`;
const acctForm = {
  message: "Which account?",
  requestedSchema: { type: "object", properties: { acct: { type: "string" } } },
};
const connect = { mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account" };
const pay = { mode: "url", elicitationId: "e2", url: "https://mcp.example.com/pay", message: "Pay" };

/** A 2025-xx session whose tools/call receives one elicitation/create with `params` on its stream; `then` follows. */
const legacyElicit =
  (
    revision: string,
    caps: Record<string, unknown>,
    params: unknown,
    id: number | string = 3,
    then?: (b: Builder, h: Record<string, string>, x: string) => void,
  ) =>
  (b: Builder) => {
    const h = legacySession(b, revision, caps);
    const x = streamCall(b, legacyToolCall(1), h);
    b.sse(x, request(id, "elicitation/create", params));
    then?.(b, h as Record<string, string>, x);
  };
/** tools/list declaring elicitation, then a tools/call declaring `caps` whose answer elicits. */
const carriedOver = (caps: Record<string, unknown>) => (b: Builder) => {
  b.call(
    request(1, "tools/list", {
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", [CAPS]: { elicitation: {} } },
    }),
    result(1, { resultType: "complete", tools: [] }),
    modernHeaders("tools/list"),
  );
  b.call(
    toolCall(2, "deploy", {}, {}, caps),
    result(2, irr({ ok: ask(form({ ok: { type: "boolean" } }, "Deploy now?")) })),
    H,
  );
};
const sameFlow = ({
  findings,
  flows,
}: {
  findings: readonly { flow: string | null }[];
  flows: readonly { id: string }[];
}) => assert.equal(findings.at(-1)!.flow, flows[0]!.id);

const valid: Case[] = [
  {
    name: "cap-elicitation-undeclared (2025-06-18): elicitation declared",
    capture: legacyElicit("2025-06-18", { elicitation: {} }, form()),
  },
  {
    name: "cap-elicitation-undeclared (2026-07-28): the request declares elicitation",
    capture: (b) =>
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ acct: ask(acctForm) })), H),
  },
  {
    name: "cap-mode-undeclared: URL mode to {url:{}}",
    capture: legacyElicit("2025-11-25", { elicitation: { url: {} } }, urlParams("e1")),
  },
  { name: "cap-mode-undeclared: form mode to {}", capture: legacyElicit("2025-11-25", { elicitation: {} }, form()) },
  {
    name: "cap-mode-undeclared (2026-07-28): URL mode to {url:{}}",
    capture: (b) =>
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ q: ask(connect) })), H),
  },
  {
    name: "cap-per-request: the eliciting request itself declares elicitation",
    capture: carriedOver({ elicitation: {} }),
  },
  ...[{}, { form: {} }, { url: {} }, { form: {}, url: {} }].map((elicitation) => ({
    name: `cap-client-shape: ${JSON.stringify(elicitation)}`,
    capture: (b: Builder) => {
      legacySession(b, "2025-11-25", { elicitation });
      b.call(toolCall(1, "deploy", {}, {}, { elicitation }), result(1, done()), H);
    },
  })),
  {
    name: "cap-client-declares-per-request: the retry declares elicitation again",
    capture: (b) => {
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ ok: ask(form()) })), H);
      b.call(
        toolCall(
          2,
          "deploy",
          {},
          { inputResponses: { ok: { action: "accept", content: { ok: true } } } },
          { elicitation: {} },
        ),
        result(2, done()),
        H,
      );
    },
  },
];

const invalid: InvalidCase[] = [
  {
    name: "cap-elicitation-undeclared (2025-11-25): elicitation/create although initialize declared no elicitation",
    capture: legacyElicit("2025-11-25", { sampling: {} }, form()),
    findings: [{ rule: "cap-elicitation-undeclared", severity: "error", pointer: "/params", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "cap-elicitation-undeclared (2026-07-28): this request's clientCapabilities lack elicitation (catalogue example)",
    capture: (b) => b.call(toolCall(1, "deploy", {}, {}, { sampling: {} }), result(1, irr({ acct: ask(acctForm) })), H),
    findings: [
      {
        rule: "cap-elicitation-undeclared",
        severity: "error",
        pointer: "/result/inputRequests/acct/params",
        violator: "server",
      },
    ],
    also: sameFlow,
  },
  {
    name: "cap-mode-undeclared (2025-11-25): URL mode sent to a client that declared elicitation {} (catalogue example)",
    capture: legacyElicit("2025-11-25", { elicitation: {} }, urlParams("e1")),
    findings: [{ rule: "cap-mode-undeclared", severity: "error", pointer: "/params", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "cap-mode-undeclared (2026-07-28): form mode sent to a client that declared only url",
    capture: (b) =>
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ q: ask(form()) })), H),
    findings: [{ rule: "cap-mode-undeclared", severity: "error", pointer: "/result/inputRequests/q/params" }],
    also: sameFlow,
  },
  {
    name: "cap-per-request: capabilities of an earlier request carried over (catalogue example)",
    capture: carriedOver({}),
    findings: [
      { rule: "cap-elicitation-undeclared", severity: "error", pointer: "/result/inputRequests/ok/params" },
      {
        rule: "cap-per-request",
        severity: "error",
        pointer: "/result/inputRequests/ok/params",
        violator: "server",
        record: 6,
      },
    ],
    also: sameFlow,
  },
  {
    name: "cap-client-shape: elicitation.form is not an object (error, catalogue example)",
    capture: (b) => void legacySession(b, "2025-11-25", { elicitation: { form: true } }),
    findings: [
      {
        rule: "cap-client-shape",
        severity: "error",
        pointer: "/params/capabilities/elicitation/form",
        violator: "client",
        record: 0,
      },
    ],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "cap-client-shape: elicitation is not an object, in initialize",
    capture: (b) => void legacySession(b, "2025-06-18", { elicitation: true }),
    findings: [{ rule: "cap-client-shape", severity: "error", pointer: "/params/capabilities/elicitation" }],
  },
  {
    name: "cap-client-shape: elicitation is not an object, in a 2026-07-28 _meta",
    capture: (b) => b.call(toolCall(1, "deploy", {}, {}, { elicitation: ["form"] }), result(1, done()), H),
    findings: [{ rule: "cap-client-shape", severity: "error", pointer: `${CAPS_AT}/elicitation` }],
  },
  {
    name: "cap-client-shape: a non-empty elicitation object naming no mode is a warning",
    capture: (b) => void legacySession(b, "2025-11-25", { elicitation: { forms: {} } }),
    findings: [{ rule: "cap-client-shape", severity: "warning", pointer: "/params/capabilities/elicitation" }],
  },
  {
    name: "cap-client-declares-per-request: a retry answers an elicitation but its own _meta omits elicitation (catalogue example)",
    capture: (b) => {
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: {} }), result(1, irr({ ok: ask(form()) })), H);
      b.call(
        toolCall(2, "deploy", {}, { inputResponses: { ok: { action: "accept", content: { ok: true } } } }, {}),
        result(2, done()),
        H,
      );
    },
    findings: [
      {
        rule: "cap-client-declares-per-request",
        severity: "warning",
        pointer: "/params/_meta",
        violator: "client",
        record: 4,
      },
    ],
    also: sameFlow,
  },
  {
    name: "cap-client-declares-per-request: a retry answering a URL elicitation while declaring only form",
    capture: (b) => {
      b.call(toolCall(1, "deploy", {}, {}, { elicitation: { url: {} } }), result(1, irr({ u: ask(connect) })), H);
      b.call(
        toolCall(2, "deploy", {}, { inputResponses: { u: { action: "accept" } } }, { elicitation: { form: {} } }),
        result(2, done()),
        H,
      );
    },
    findings: [{ rule: "cap-client-declares-per-request", severity: "warning", pointer: "/params/_meta" }],
  },
  {
    name: "cap-client-rejects-undeclared-mode: the client answers an undeclared URL-mode elicitation with a result (catalogue example)",
    capture: legacyElicit("2025-11-25", { elicitation: { form: {} } }, pay, 5, (b, h, x) => {
      b.accepted(result(5, { action: "accept" }), h);
      b.end(x);
    }),
    findings: [
      { rule: "cap-mode-undeclared", severity: "error", pointer: "/params", violator: "server" },
      { rule: "cap-client-rejects-undeclared-mode", severity: "error", pointer: "/result", violator: "client" },
    ],
    also: sameFlow,
  },
  {
    name: "cap-client-rejects-undeclared-mode: not when the client answers -32602 (the server's ask is still cap-mode-undeclared)",
    capture: legacyElicit("2025-11-25", { elicitation: { form: {} } }, pay, 5, (b, h) =>
      b.accepted(error(5, -32602, "URL mode not supported"), h),
    ),
    findings: [{ rule: "cap-mode-undeclared", severity: "error", pointer: "/params", violator: "server" }],
  },
];

ruleTester("capability", meta, { valid, invalid });
