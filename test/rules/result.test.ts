import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/result.ts";
import type { RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import { answered, ruleTester, type Case, type InvalidCase } from "./ruleTester.ts";

type At = Parameters<typeof answered>[2];
const formEp = (properties: Record<string, unknown>, required: string[] = []) => ({
  mode: "form",
  message: "Please provide your contact information",
  requestedSchema: { type: "object", properties, required },
});
const contact = formEp({ name: { type: "string" }, email: { type: "string", format: "email" } }, ["name", "email"]);
const urlEp = {
  mode: "url",
  url: "https://mcp.example.com/connect",
  message: "Connect your account",
  elicitationId: "e1",
};
const score = formEp({ score: { type: "integer", minimum: 0, maximum: 100 } });
const nameEp = formEp({ name: { type: "string" } }, ["name"]);
const statusEp = formEp({ status: { type: "string", enum: ["active", "inactive"], default: "active" } });
/** Where a 2026-07-28 answer sits: inputResponses.q of the retry. */
const IR = "/params/inputResponses/q";

/** An invalid case: the client answers `ep` with `er` (as `at` says), with one finding at `pointer`. */
const one = (
  er: unknown,
  ep: unknown,
  rule: RuleId,
  severity: Severity,
  pointer: string,
  at: At = {},
): InvalidCase => ({
  name: `${rule}: ${severity} at ${pointer}${at.where ? ` (${at.where})` : at.revision !== undefined ? ` (${at.revision})` : ""}: ${JSON.stringify(er)?.slice(0, 80)}`,
  capture: answered(er, ep, at),
  findings: [{ rule, severity, pointer }],
});
const clean = (er: unknown, ep: unknown, at: At = {}): Case => ({
  name: `clean${at.where ? ` (${at.where})` : at.revision !== undefined ? ` (${at.revision})` : ""}: ${JSON.stringify(er).slice(0, 80)} to ${JSON.stringify(ep)?.slice(0, 60)}`,
  capture: answered(er, ep, at),
});

const deployment = {
  mode: "form",
  message: "Tell us about the deployment",
  requestedSchema: {
    type: "object",
    properties: { notes: { type: "string" }, tags: { type: "array", items: { type: "string", enum: ["a"] } } },
  },
};
const secretNotes = { action: "accept", content: { notes: "use sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c" } };
const jwt =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

const valid: Case[] = [
  clean({ action: "accept", content: { notes: "ship it on Friday", tags: ["a"] } }, deployment), // not "form-secret-value"
  clean({ action: "accept" }, undefined),
  clean({ action: "decline" }, undefined),
  clean({ action: "cancel" }, undefined),
  clean({ action: "decline" }, contact), // not "result-content-only-on-accept"
  clean({ action: "accept", content: { name: "Ada", email: "ada@example.com" } }, contact), // not "result-content-only-on-accept"
  clean({ action: "accept" }, urlEp), // not "result-url-accept-no-content"
  clean({ action: "accept", content: { a: "b" } }, urlEp, { revision: "2025-06-18" }), // not "result-url-accept-no-content"
  clean({ action: "accept", content: { score: 95.5, ok: true, s: "x", tags: ["a", "b"] } }, undefined), // not "result-content-value-types"
  clean({ action: "accept", content: { score: 95.5 } }, formEp({ score: { type: "number" } })), // not "result-content-matches-schema"
  clean({ action: "accept" }, formEp({ name: { type: "string" } })), // not "result-form-accept-missing-content"
  clean({ action: "accept" }, undefined), // not "result-form-accept-missing-content"
  clean({ action: "accept", content: { status: "inactive" } }, statusEp), // not "result-defaults-applied"
  clean({ action: "accept", content: {} }, statusEp, { revision: "2025-06-18" }), // not "result-defaults-applied"
  clean({ action: "decline" }, statusEp), // not "result-defaults-applied"
  clean({ action: "accept", _meta: {} }, undefined), // not "result-r3-extra-fields"
  clean({ action: "accept" }, undefined, { where: "input-response" }), // not "result-r3-extra-fields"
];

const invalid: InvalidCase[] = [
  one({ action: "reject" }, contact, "result-action-enum", "error", "/result/action"),
  one({}, contact, "result-action-enum", "error", "/result"),
  one(12345, undefined, "result-action-enum", "error", IR, { where: "input-response" }),
  one(
    { action: "decline", content: { name: "Ada" } },
    contact,
    "result-content-only-on-accept",
    "warning",
    "/result/content",
  ),
  one({ action: "cancel", content: {} }, undefined, "result-content-only-on-accept", "warning", "/result/content", {
    revision: "2025-06-18",
  }),
  one(
    { action: "accept", content: { apiKey: "sk-live-123" } },
    urlEp,
    "result-url-accept-no-content",
    "warning",
    "/result/content",
  ),
  one(
    { action: "accept", content: {} },
    { mode: "url", url: "https://x.example/", message: "m" },
    "result-url-accept-no-content",
    "warning",
    `${IR}/content`,
    { where: "input-response" },
  ),
  one(
    { action: "accept", content: { address: { street: "Main St" } } },
    undefined,
    "result-content-value-types",
    "error",
    "/result/content/address",
  ),
  one(
    { action: "accept", content: { tags: ["a", 1] } },
    undefined,
    "result-content-value-types",
    "error",
    "/result/content/tags/1",
  ),
  one(
    { action: "accept", content: { tags: ["a"] } },
    undefined,
    "result-content-value-types",
    "error",
    "/result/content/tags",
    { revision: "2025-06-18" },
  ),
  one(
    { action: "accept", content: { n: null } },
    undefined,
    "result-content-value-types",
    "error",
    "/result/content/n",
  ),
  one({ action: "accept", content: "Ada" }, undefined, "result-content-value-types", "error", "/result/content"),
  one(
    { action: "accept", content: { name: "Ada" } },
    contact,
    "result-content-matches-schema",
    "warning",
    "/result/content",
  ),
  one(
    { action: "accept", content: { name: "Ada", email: "ada@example.com", x: 1 } },
    contact,
    "result-content-matches-schema",
    "info",
    "/result/content/x",
  ),
  one(
    { action: "accept", content: { name: "Ada", email: "not an email" } },
    contact,
    "result-content-matches-schema",
    "warning",
    "/result/content/email",
  ),
  one(
    { action: "accept", content: { score: 95.5 } },
    score,
    "result-content-matches-schema",
    "warning",
    "/result/content/score",
  ),
  one(
    { action: "accept", content: { score: 101 } },
    score,
    "result-content-matches-schema",
    "warning",
    `${IR}/content/score`,
    { where: "input-response" },
  ),
  one({ action: "accept" }, nameEp, "result-form-accept-missing-content", "warning", "/result"),
  one({ action: "accept" }, nameEp, "result-form-accept-missing-content", "warning", "/result", {
    revision: "2025-06-18",
  }),
  one({ action: "accept", content: {} }, statusEp, "result-defaults-applied", "info", "/result/content"),
  one({ action: "accept" }, statusEp, "result-defaults-applied", "info", IR, { where: "input-response" }),
  one({ action: "accept", resultType: "complete" }, undefined, "result-r3-extra-fields", "info", `${IR}/resultType`, {
    where: "input-response",
  }),
  {
    ...one(secretNotes, deployment, "form-secret-value", "warning", "/result/content/notes"),
    name: "form-secret-value: catalogue example, never repeating the value",
    also: ({ findings }) => {
      assert.ok(!findings[0]!.message.includes("4f9a8b7c"), findings[0]!.message);
      assert.match(findings[0]!.message, /notes.*sk-…/);
    },
  },
  one(secretNotes, deployment, "form-secret-value", "warning", `${IR}/content/notes`, { where: "input-response" }),
  one(
    { action: "accept", content: { tags: ["a", jwt] } },
    undefined,
    "form-secret-value",
    "warning",
    "/result/content/tags/1",
  ),
  {
    name: "result-content-matches-schema: a value already reported as the wrong JSON type is not reported twice",
    capture: answered({ action: "accept", content: { name: { first: "Ada" }, email: "ada@example.com" } }, contact),
    findings: [{ rule: "result-content-value-types", severity: "error", pointer: "/result/content/name" }],
  },
  {
    name: "result-r3-extra-fields: the JSON-RPC envelope in a 2026-07-28 input response",
    capture: answered({ jsonrpc: "2.0", id: 9, result: { action: "accept" } }, contact, { where: "input-response" }),
    findings: [
      { rule: "result-r3-extra-fields", severity: "info", pointer: `${IR}/jsonrpc` },
      { rule: "result-r3-extra-fields", severity: "info", pointer: `${IR}/id` },
      { rule: "result-action-enum", severity: "error", pointer: IR },
    ],
  },
];

ruleTester("result", meta, { valid, invalid });
