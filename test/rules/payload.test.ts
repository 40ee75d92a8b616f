// The payload module runs its families (request.ts, url.ts, schema.ts, form.ts, result.ts) together: whole payloads
// that follow the spec produce no finding of any of them. Each family's invalid cases are in its own test file.
import { meta } from "../../src/engine/rules/payload.ts";
import { answered, asked, validCases, type Case } from "./ruleTester.ts";

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
      channel: {
        type: "string",
        title: "Channel",
        oneOf: [
          { const: "mail", title: "Email" },
          { const: "sms", title: "Text message" },
        ],
        default: "mail",
      },
      topics: {
        type: "array",
        title: "Topics",
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: "deploy", title: "Deploys" },
            { const: "billing", title: "Billing" },
            { const: "security", title: "Security" },
          ],
        },
        default: ["deploy", "security"],
      },
    },
    required: ["email"],
  },
};
const multiFieldAnswer = {
  action: "accept",
  content: { email: "ada@example.com", retries: 3, digest: false, channel: "mail", topics: ["deploy", "security"] },
};
const url = {
  mode: "url",
  elicitationId: "550e8400-e29b-41d4-a716-446655440000",
  url: "https://mcp.example.com/ui/set_api_key",
  message: "Please provide your API key to continue.",
};
const urlEntry = {
  ...url,
  url: "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
  message: "Authorization is required to access your Example Co files.",
};
const modernUrl = {
  mode: "url",
  url: "https://mcp.example.com/ui/set_api_key",
  message: "Please provide your API key to continue.",
};
// The 2026-07-28 schema's examples (ElicitRequestFormParams, ElicitResult).
const single = {
  mode: "form",
  message: "Please provide your GitHub username",
  requestedSchema: {
    type: "object",
    properties: { name: { type: "string", title: "GitHub Username", description: "Your GitHub username" } },
    required: ["name"],
  },
};
const multi = {
  mode: "form",
  message: "Please provide your contact information",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "Your full name" },
      email: { type: "string", format: "email", description: "Your email address" },
      age: { type: "number", minimum: 18, description: "Your age" },
    },
    required: ["name", "email"],
  },
};
const r1 = {
  message: "Please confirm the release settings",
  requestedSchema: {
    type: "object",
    properties: {
      notify: { type: "boolean", default: true },
      env: { type: "string", enum: ["prod", "dev"], enumNames: ["Production", "Development"] },
      tag: { type: "string", minLength: 1 },
    },
    required: ["env"],
  },
};

const valid: Case[] = [
  { name: "a 2025-11-25 multi-field form", capture: asked(multiField) },
  { name: "its accepted answer", capture: answered(multiFieldAnswer, multiField) },
  { name: "declined", capture: answered({ action: "decline" }, multiField) },
  { name: "cancelled", capture: answered({ action: "cancel" }, multiField) },
  { name: "a 2025-11-25 URL-mode request", capture: asked(url) },
  {
    name: "a 2025-11-25 URL-mode request as a -32042 entry",
    capture: asked(urlEntry, { where: "url-required-error" }),
  },
  { name: "a URL-mode request accepted", capture: answered({ action: "accept" }, url) },
  { name: "a 2026-07-28 URL request without elicitationId", capture: asked(modernUrl, { where: "input-request" }) },
  {
    name: "a 2026-07-28 URL request accepted",
    capture: answered({ action: "accept" }, modernUrl, { where: "input-response" }),
  },
  ...[null, "2025-11-25"].flatMap((revision) => [
    {
      name: `the 2026-07-28 schema's single-field example (${revision})`,
      capture: asked(single, { revision: revision as "2025-11-25" | null }),
    },
    {
      name: `the 2026-07-28 schema's multi-field example (${revision})`,
      capture: asked(multi, { revision: revision as "2025-11-25" | null }),
    },
    {
      name: `its single-field answer (${revision})`,
      capture: answered({ action: "accept", content: { name: "octocat" } }, single, {
        revision: revision as "2025-11-25" | null,
      }),
    },
  ]),
  {
    name: "the 2026-07-28 schema's single-field example, as an input request",
    capture: asked(single, { where: "input-request" }),
  },
  {
    name: "the 2026-07-28 schema's multi-field example, as an input request",
    capture: asked(multi, { where: "input-request" }),
  },
  {
    name: "the 2026-07-28 schema's answer",
    capture: answered({ action: "accept", content: { name: "octocat" } }, single, { where: "input-response" }),
  },
  {
    name: "the 2026-07-28 schema's multi-field answer",
    capture: answered(
      { action: "accept", content: { name: "Monalisa Octocat", email: "octocat@github.com", age: 30 } },
      multi,
      { where: "input-response" },
    ),
  },
  { name: "a 2025-06-18 form (boolean default, legacy enumNames)", capture: asked(r1, { revision: "2025-06-18" }) },
  {
    name: "its answer",
    capture: answered({ action: "accept", content: { notify: true, env: "prod", tag: "v1" } }, r1, {
      revision: "2025-06-18",
    }),
  },
];

validCases("payload", meta, valid);
