import assert from "node:assert/strict";
import { test } from "node:test";
import { elicitMode } from "../../src/engine/rules/payload.ts";
import { meta } from "../../src/engine/rules/request.ts";
import type { RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import { asked, epPointer, ruleTester, type AskedAt, type Case, type InvalidCase } from "./ruleTester.ts";

const schema = { type: "object", properties: { n: { type: "string" } } };
const form = { mode: "form", message: "Please tell us how to set up your project", requestedSchema: schema };
const urlEp = (url: string) => ({
  mode: "url",
  message: "Please connect your billing account to continue",
  url,
  elicitationId: "550e8400-e29b-41d4-a716-446655440000",
});
const AT = epPointer["server-request"];
const IR = epPointer["input-request"];

/** An invalid case: `ep` asked as `at` says, with one finding at `pointer` (relative to the EP). */
const one = (
  name: string,
  ep: unknown,
  at: AskedAt,
  rule: RuleId,
  severity: Severity,
  pointer: string,
): InvalidCase => ({
  name: `${rule}: ${name}`,
  capture: asked(ep, at),
  findings: [{ rule, severity, pointer: epPointer[at.where ?? "server-request"] + pointer }],
});
const clean = (name: string, ep: unknown, at: AskedAt = {}): Case => ({ name, capture: asked(ep, at) });

test("elicitMode: EP.mode when a string, else form", () => {
  assert.equal(elicitMode({ mode: "url" }), "url");
  assert.equal(elicitMode({ mode: 3 }), "form");
  assert.equal(elicitMode({}), "form");
  assert.equal(elicitMode(undefined), "form");
});

const modal = {
  mode: "modal",
  message: "Pick a deployment target",
  requestedSchema: { type: "object", properties: {} },
};
const crossUrl = {
  mode: "url",
  url: "https://a.example/",
  message: "Connect the account",
  elicitationId: "e1",
  requestedSchema: { type: "object", properties: {} },
};
const legacyParams = {
  message: "Which region should we deploy to?",
  requestedSchema: { type: "object", properties: {} },
  task: { ttl: 60000 },
  _meta: {},
};

const valid: Case[] = [
  clean("a form (2025-11-25)", form),
  clean(
    "a form (2025-06-18)",
    { message: "What should the project be called?", requestedSchema: schema },
    { revision: "2025-06-18" },
  ),
  clean("a form (2026-07-28)", form, { where: "input-request" }),
  clean("a URL request (2025-11-25)", urlEp("https://mcp.example.com/connect")),
  clean("a missing input-request params object is left to mrtr-input-request-method", undefined, {
    where: "input-request",
  }),
  clean("req-r3-legacy-params: a task and _meta are fine before 2026-07-28", legacyParams),
  clean("adv-message-quality: a message that says what is asked", {
    message: "Please provide your GitHub username",
    requestedSchema: schema,
  }),
];

const invalid: InvalidCase[] = [
  one(
    "catalogue example (no message)",
    { mode: "form", requestedSchema: schema },
    {},
    "req-message-required",
    "error",
    "",
  ),
  one(
    "a non-string message",
    { message: 42, requestedSchema: schema },
    {},
    "req-message-required",
    "error",
    "/message",
  ),
  {
    name: "req-message-required: no params at all",
    capture: asked(undefined),
    findings: [{ rule: "req-message-required", severity: "error", pointer: "" }],
  },
  one("catalogue example (modal)", modal, {}, "req-mode-value", "error", "/mode"),
  one("catalogue example (modal), 2026-07-28", modal, { where: "input-request" }, "req-mode-value", "error", "/mode"),
  one("catalogue example (modal), no known revision", modal, { revision: null }, "req-mode-value", "error", "/mode"),
  one(
    "URL mode in 2025-06-18",
    { mode: "url", url: "https://x.example/", message: "Go to the page" },
    { revision: "2025-06-18" },
    "req-mode-r1",
    "error",
    "/mode",
  ),
  one("a stray mode form in 2025-06-18 is info", form, { revision: "2025-06-18" }, "req-mode-r1", "info", "/mode"),
  // 2025-06-18 has no mode field, no URL mode to name (req-url-mode-explicit) and no cross-mode fields: req-mode-r1 alone.
  one("a mode other than form in 2025-06-18", modal, { revision: "2025-06-18" }, "req-mode-r1", "info", "/mode"),
  {
    name: "req-mode-r1: URL-mode fields in 2025-06-18 are req-mode-r1's, not req-cross-mode-fields'",
    capture: asked({ ...crossUrl, mode: "form" }, { revision: "2025-06-18" }),
    findings: [
      { rule: "req-mode-r1", severity: "error", pointer: `${AT}/url` },
      { rule: "req-mode-r1", severity: "error", pointer: `${AT}/elicitationId` },
      { rule: "req-mode-r1", severity: "info", pointer: `${AT}/mode` },
    ],
  },
  one(
    "a url field in 2025-06-18",
    { message: "Connect your account", url: "https://x.example/", requestedSchema: schema },
    { revision: "2025-06-18" },
    "req-mode-r1",
    "error",
    "/url",
  ),
  one(
    "catalogue example (no schema)",
    { mode: "form", message: "Confirm the deployment?" },
    {},
    "req-form-schema-required",
    "error",
    "",
  ),
  one(
    "a non-object schema",
    { message: "Confirm the deployment", requestedSchema: "none" },
    { revision: "2025-06-18" },
    "req-form-schema-required",
    "error",
    "/requestedSchema",
  ),
  one(
    "catalogue example (url without mode)",
    { message: "Sign in to continue", url: "https://mcp.example.com/connect", elicitationId: "e3" },
    {},
    "req-url-mode-explicit",
    "error",
    "",
  ),
  one(
    "url with mode form",
    { mode: "form", message: "Sign in to continue", url: "https://a.example/", requestedSchema: schema },
    { where: "input-request" },
    "req-url-mode-explicit",
    "error",
    "/mode",
  ),
  one(
    "catalogue example (requestedSchema on URL mode)",
    crossUrl,
    {},
    "req-cross-mode-fields",
    "info",
    "/requestedSchema",
  ),
  one(
    "elicitationId on a form",
    { ...form, elicitationId: "e1" },
    {},
    "req-cross-mode-fields",
    "info",
    "/elicitationId",
  ),
  {
    name: "req-r3-legacy-params: catalogue example (task) and _meta in a 2026-07-28 input request",
    capture: asked(legacyParams, { where: "input-request" }),
    findings: [
      { rule: "req-r3-legacy-params", severity: "info", pointer: `${IR}/task` },
      { rule: "req-r3-legacy-params", severity: "info", pointer: `${IR}/_meta` },
    ],
  },
  one("an empty message", { message: "", requestedSchema: schema }, {}, "adv-message-quality", "info", "/message"),
  one(
    "a very short message",
    { message: "Name?", requestedSchema: schema },
    {},
    "adv-message-quality",
    "info",
    "/message",
  ),
  one(
    "a boilerplate message",
    { message: "Please fill out the form.", requestedSchema: schema },
    {},
    "adv-message-quality",
    "info",
    "/message",
  ),
];

ruleTester("request", meta, { valid, invalid });
