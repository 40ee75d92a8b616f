// Whole payloads that follow the spec must produce no findings at all.
import { test } from "node:test";
import assert from "node:assert/strict";
import { params, result } from "./harness.ts";

const multiField = {
  mode: "form",
  message: "Please set up notifications for your project",
  requestedSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      email: { type: "string", format: "email", title: "Email address", description: "Where we send alerts" },
      retries: { type: "integer", title: "Retries", minimum: 0, maximum: 5, default: 3 },
      digest: { type: "boolean", title: "Daily digest", default: false },
      channel: { type: "string", title: "Channel", oneOf: [{ const: "mail", title: "Email" }, { const: "sms", title: "Text message" }], default: "mail" },
      topics: { type: "array", title: "Topics", minItems: 1, maxItems: 3, items: { anyOf: [{ const: "deploy", title: "Deploys" }, { const: "billing", title: "Billing" }, { const: "security", title: "Security" }] }, default: ["deploy", "security"] },
    },
    required: ["email"],
  },
};

test("a valid 2025-11-25 multi-field form and its accepted answer produce no findings", () => {
  assert.deepEqual(params(multiField, "2025-11-25"), []);
  const er = { action: "accept", content: { email: "ada@example.com", retries: 3, digest: false, channel: "mail", topics: ["deploy", "security"] } };
  assert.deepEqual(result(er, multiField, "2025-11-25"), []);
  assert.deepEqual(result({ action: "decline" }, multiField, "2025-11-25"), []);
  assert.deepEqual(result({ action: "cancel" }, multiField, "2025-11-25"), []);
});

test("a valid 2025-11-25 URL-mode request, as elicitation/create and as a -32042 entry, produces no findings", () => {
  const ep = { mode: "url", elicitationId: "550e8400-e29b-41d4-a716-446655440000", url: "https://mcp.example.com/ui/set_api_key", message: "Please provide your API key to continue." };
  assert.deepEqual(params(ep, "2025-11-25"), []);
  const entry = { ...ep, url: "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000", message: "Authorization is required to access your Example Co files." };
  assert.deepEqual(params(entry, "2025-11-25", "url-required-error", "/error/data/elicitations/0"), []);
  assert.deepEqual(result({ action: "accept" }, ep, "2025-11-25"), []);
});

test("a valid 2026-07-28 URL request without elicitationId produces no findings", () => {
  const ep = { mode: "url", url: "https://mcp.example.com/ui/set_api_key", message: "Please provide your API key to continue." };
  const at = "/result/inputRequests/elicitation-1/params";
  assert.deepEqual(params(ep, "2026-07-28", "input-request", at), []);
  assert.deepEqual(result({ action: "accept" }, ep, "2026-07-28", "input-response", "/params/inputResponses/elicitation-1"), []);
});

test("the 2026-07-28 schema examples (ElicitRequestFormParams, ElicitResult) produce no findings", () => {
  const single = { mode: "form", message: "Please provide your GitHub username", requestedSchema: { type: "object", properties: { name: { type: "string", title: "GitHub Username", description: "Your GitHub username" } }, required: ["name"] } };
  const multi = {
    mode: "form",
    message: "Please provide your contact information",
    requestedSchema: { type: "object", properties: { name: { type: "string", description: "Your full name" }, email: { type: "string", format: "email", description: "Your email address" }, age: { type: "number", minimum: 18, description: "Your age" } }, required: ["name", "email"] },
  };
  for (const rev of ["2025-11-25", "2026-07-28", null] as const) {
    assert.deepEqual(params(single, rev, "input-request"), []);
    assert.deepEqual(params(multi, rev, "input-request"), []);
    assert.deepEqual(result({ action: "accept", content: { name: "octocat" } }, single, rev, "input-response"), []);
    assert.deepEqual(result({ action: "accept", content: { name: "Monalisa Octocat", email: "octocat@github.com", age: 30 } }, multi, rev, "input-response"), []);
  }
});

test("a valid 2025-06-18 form (boolean default, legacy enumNames) produces no findings", () => {
  const ep = {
    message: "Please confirm the release settings",
    requestedSchema: { type: "object", properties: { notify: { type: "boolean", default: true }, env: { type: "string", enum: ["prod", "dev"], enumNames: ["Production", "Development"] }, tag: { type: "string", minLength: 1 } }, required: ["env"] },
  };
  assert.deepEqual(params(ep, "2025-06-18"), []);
  assert.deepEqual(result({ action: "accept", content: { notify: true, env: "prod", tag: "v1" } }, ep, "2025-06-18"), []);
});
