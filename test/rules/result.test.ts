import { test } from "node:test";
import assert from "node:assert/strict";
import { expectNone, expectOne, of, result } from "./harness.ts";

const formEp = (properties: Record<string, unknown>, required: string[] = []) => ({ mode: "form", message: "Please provide your contact information", requestedSchema: { type: "object", properties, required } });
const contact = formEp({ name: { type: "string" }, email: { type: "string", format: "email" } }, ["name", "email"]);
const urlEp = { mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account", elicitationId: "e1" };
const IR = "/params/inputResponses/q";

test("result-action-enum: catalogue example (reject), missing action, non-object result", () => {
  expectOne(result({ action: "reject" }, contact), "result-action-enum", "error", "/result/action");
  expectOne(result({}, contact), "result-action-enum", "error", "/result");
  expectOne(result(12345, undefined, "2026-07-28", "input-response", IR), "result-action-enum", "error", IR);
  for (const action of ["accept", "decline", "cancel"]) expectNone(result({ action }, undefined), "result-action-enum");
});

test("result-content-only-on-accept: catalogue example (decline with content)", () => {
  expectOne(result({ action: "decline", content: { name: "Ada" } }, contact), "result-content-only-on-accept", "warning", "/result/content");
  expectOne(result({ action: "cancel", content: {} }, undefined, "2025-06-18"), "result-content-only-on-accept", "warning", "/result/content");
  expectNone(result({ action: "decline" }, contact), "result-content-only-on-accept");
  expectNone(result({ action: "accept", content: { name: "Ada", email: "ada@example.com" } }, contact), "result-content-only-on-accept");
});

test("result-url-accept-no-content: catalogue example (content answering a URL request)", () => {
  expectOne(result({ action: "accept", content: { apiKey: "sk-live-123" } }, urlEp), "result-url-accept-no-content", "warning", "/result/content");
  expectOne(result({ action: "accept", content: {} }, { mode: "url", url: "https://x.example/", message: "m" }, "2026-07-28", "input-response", IR), "result-url-accept-no-content", "warning", `${IR}/content`);
  expectNone(result({ action: "accept" }, urlEp), "result-url-accept-no-content");
  expectNone(result({ action: "accept", content: { name: "Ada", email: "ada@example.com" } }, contact), "result-url-accept-no-content");
  expectNone(result({ action: "accept", content: { a: "b" } }, urlEp, "2025-06-18"), "result-url-accept-no-content");
});

test("result-content-value-types: catalogue example (object value), arrays per revision", () => {
  expectOne(result({ action: "accept", content: { address: { street: "Main St" } } }, undefined), "result-content-value-types", "error", "/result/content/address");
  expectOne(result({ action: "accept", content: { tags: ["a", 1] } }, undefined), "result-content-value-types", "error", "/result/content/tags/1");
  expectOne(result({ action: "accept", content: { tags: ["a"] } }, undefined, "2025-06-18"), "result-content-value-types", "error", "/result/content/tags");
  expectOne(result({ action: "accept", content: { n: null } }, undefined), "result-content-value-types", "error", "/result/content/n");
  expectOne(result({ action: "accept", content: "Ada" }, undefined), "result-content-value-types", "error", "/result/content");
  // schema.ts says number: a fraction is a valid value (rules.md §5 item 2).
  expectNone(result({ action: "accept", content: { score: 95.5, ok: true, s: "x", tags: ["a", "b"] } }, undefined), "result-content-value-types");
});

test("result-content-matches-schema: catalogue example (missing required), extra keys are info", () => {
  expectOne(result({ action: "accept", content: { name: "Ada" } }, contact), "result-content-matches-schema", "warning", "/result/content");
  expectOne(result({ action: "accept", content: { name: "Ada", email: "ada@example.com", x: 1 } }, contact), "result-content-matches-schema", "info", "/result/content/x");
  expectOne(result({ action: "accept", content: { name: "Ada", email: "not an email" } }, contact), "result-content-matches-schema", "warning", "/result/content/email");
  const score = formEp({ score: { type: "integer", minimum: 0, maximum: 100 } });
  expectOne(result({ action: "accept", content: { score: 95.5 } }, score), "result-content-matches-schema", "warning", "/result/content/score");
  expectOne(result({ action: "accept", content: { score: 101 } }, score, "2026-07-28", "input-response", IR), "result-content-matches-schema", "warning", `${IR}/content/score`);
  expectNone(result({ action: "accept", content: { name: "Ada", email: "ada@example.com" } }, contact), "result-content-matches-schema");
  expectNone(result({ action: "accept", content: { score: 95.5 } }, formEp({ score: { type: "number" } })), "result-content-matches-schema");
});

test("result-content-matches-schema: a value already reported as the wrong JSON type is not reported twice", () => {
  const found = result({ action: "accept", content: { name: { first: "Ada" }, email: "ada@example.com" } }, contact);
  expectOne(found, "result-content-value-types", "error", "/result/content/name");
  expectNone(found, "result-content-matches-schema");
});

test("result-form-accept-missing-content: catalogue example (accept without content, required name)", () => {
  const ep = formEp({ name: { type: "string" } }, ["name"]);
  expectOne(result({ action: "accept" }, ep), "result-form-accept-missing-content", "warning", "/result");
  expectOne(result({ action: "accept" }, ep, "2025-06-18"), "result-form-accept-missing-content", "warning", "/result");
  expectNone(result({ action: "accept" }, formEp({ name: { type: "string" } })), "result-form-accept-missing-content");
  expectNone(result({ action: "accept" }, urlEp), "result-form-accept-missing-content");
  expectNone(result({ action: "accept" }, undefined), "result-form-accept-missing-content");
});

test("result-defaults-applied: catalogue example (defaulted optional enum omitted)", () => {
  const ep = formEp({ status: { type: "string", enum: ["active", "inactive"], default: "active" } });
  expectOne(result({ action: "accept", content: {} }, ep), "result-defaults-applied", "info", "/result/content");
  expectOne(result({ action: "accept" }, ep, "2026-07-28", "input-response", IR), "result-defaults-applied", "info", IR);
  expectNone(result({ action: "accept", content: { status: "inactive" } }, ep), "result-defaults-applied");
  expectNone(result({ action: "accept", content: {} }, ep, "2025-06-18"), "result-defaults-applied");
  expectNone(result({ action: "decline" }, ep), "result-defaults-applied");
});

test("result-r3-extra-fields: resultType, _meta and the JSON-RPC envelope in 2026-07-28 input responses", () => {
  const found = result({ jsonrpc: "2.0", id: 9, result: { action: "accept" } }, undefined, "2026-07-28", "input-response", IR);
  assert.deepEqual(of(found, "result-r3-extra-fields").map((f) => [f.severity, f.pointer]), [["info", `${IR}/jsonrpc`], ["info", `${IR}/id`]]);
  expectOne(found, "result-action-enum", "error", IR);
  expectOne(result({ action: "accept", resultType: "complete" }, undefined, "2026-07-28", "input-response", IR), "result-r3-extra-fields", "info", `${IR}/resultType`);
  expectNone(result({ action: "accept", _meta: {} }, undefined, "2025-11-25"), "result-r3-extra-fields");
  expectNone(result({ action: "accept" }, undefined, "2026-07-28", "input-response", IR), "result-r3-extra-fields");
});
