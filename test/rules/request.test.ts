import { test } from "node:test";
import assert from "node:assert/strict";
import { elicitMode } from "../../src/engine/rules/payload.ts";
import { expectNone, expectOne, form, params, urlEp } from "./harness.ts";

const schema = { type: "object", properties: { n: { type: "string" } } };

test("elicitMode: EP.mode when a string, else form", () => {
  assert.equal(elicitMode({ mode: "url" }), "url");
  assert.equal(elicitMode({ mode: 3 }), "form");
  assert.equal(elicitMode({}), "form");
  assert.equal(elicitMode(undefined), "form");
});

test("req-message-required: catalogue example (no message) and a non-string message", () => {
  const found = params({ mode: "form", requestedSchema: schema });
  expectOne(found, "req-message-required", "error", "/params");
  expectOne(params({ message: 42, requestedSchema: schema }), "req-message-required", "error", "/params/message");
  expectOne(params(undefined), "req-message-required", "error", "");
  expectNone(params(form({ n: { type: "string" } })), "req-message-required");
});

test("req-message-required: a missing input-request params object is left to mrtr-input-request-method", () => {
  assert.deepEqual(params(undefined, "2026-07-28", "input-request", "/result/inputRequests/q/params"), []);
});

test("req-mode-value: catalogue example (modal), not in 2025-06-18", () => {
  const ep = { mode: "modal", message: "Pick a deployment target", requestedSchema: { type: "object", properties: {} } };
  expectOne(params(ep), "req-mode-value", "error", "/params/mode");
  expectOne(params(ep, "2026-07-28", "input-request", "/result/inputRequests/q/params"), "req-mode-value", "error", "/result/inputRequests/q/params/mode");
  expectOne(params(ep, null), "req-mode-value", "error", "/params/mode");
  expectNone(params(ep, "2025-06-18"), "req-mode-value");
  expectNone(params(form({ n: { type: "string" } })), "req-mode-value");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "req-mode-value");
});

test("req-mode-r1: URL mode in 2025-06-18 is an error, a stray mode:form is info", () => {
  const found = params({ mode: "url", url: "https://x.example/", message: "Go" }, "2025-06-18");
  expectOne(found, "req-mode-r1", "error", "/params/mode");
  expectNone(found, "req-form-schema-required");
  expectOne(params(form({ n: { type: "string" } }), "2025-06-18"), "req-mode-r1", "info", "/params/mode");
  expectOne(params({ message: "Connect your account", url: "https://x.example/", requestedSchema: schema }, "2025-06-18"), "req-mode-r1", "error", "/params/url");
  const clean = { message: "What should the project be called?", requestedSchema: schema };
  expectNone(params(clean, "2025-06-18"), "req-mode-r1");
  expectNone(params(form({ n: { type: "string" } }), "2025-11-25"), "req-mode-r1");
});

test("req-form-schema-required: catalogue example and a non-object schema", () => {
  expectOne(params({ mode: "form", message: "Confirm?" }), "req-form-schema-required", "error", "/params");
  expectOne(params({ message: "Confirm the deployment", requestedSchema: "none" }, "2025-06-18"), "req-form-schema-required", "error", "/params/requestedSchema");
  expectNone(params(form({ n: { type: "string" } })), "req-form-schema-required");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "req-form-schema-required");
});

test("req-url-mode-explicit: catalogue example (url without mode) and url with mode form", () => {
  const found = params({ message: "Sign in", url: "https://mcp.example.com/connect", elicitationId: "e3" });
  expectOne(found, "req-url-mode-explicit", "error", "/params");
  expectNone(found, "req-form-schema-required");
  expectNone(found, "req-cross-mode-fields");
  expectOne(params({ mode: "form", message: "Sign in to continue", url: "https://a.example/", requestedSchema: schema }, "2026-07-28", "input-request"), "req-url-mode-explicit", "error", "/params/mode");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "req-url-mode-explicit");
  expectNone(params({ message: "Sign in", url: "https://mcp.example.com/connect" }, "2025-06-18"), "req-url-mode-explicit");
});

test("req-cross-mode-fields: catalogue example (requestedSchema on URL mode) and elicitationId on a form", () => {
  const ep = { mode: "url", url: "https://a.example/", message: "x", elicitationId: "e1", requestedSchema: { type: "object", properties: {} } };
  expectOne(params(ep), "req-cross-mode-fields", "info", "/params/requestedSchema");
  expectOne(params({ ...form({ n: { type: "string" } }), elicitationId: "e1" }), "req-cross-mode-fields", "info", "/params/elicitationId");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "req-cross-mode-fields");
  expectNone(params(ep, "2025-06-18"), "req-cross-mode-fields");
});

test("req-r3-legacy-params: catalogue example (task) and _meta, only in 2026-07-28 input requests", () => {
  const ep = { message: "Which region should we deploy to?", requestedSchema: { type: "object", properties: {} }, task: { ttl: 60000 }, _meta: {} };
  const at = "/result/inputRequests/q/params";
  const found = params(ep, "2026-07-28", "input-request", at);
  assert.deepEqual(found.filter((f) => f.rule === "req-r3-legacy-params").map((f) => [f.severity, f.pointer]), [["info", `${at}/task`], ["info", `${at}/_meta`]]);
  expectNone(params(ep, "2025-11-25"), "req-r3-legacy-params");
  expectNone(params(ep, "2026-07-28", "server-request"), "req-r3-legacy-params");
  expectNone(params(form({ n: { type: "string" } }), "2026-07-28", "input-request", at), "req-r3-legacy-params");
});

test("adv-message-quality: empty, very short and boilerplate messages", () => {
  expectOne(params({ message: "", requestedSchema: schema }), "adv-message-quality", "info", "/params/message");
  expectOne(params({ message: "Name?", requestedSchema: schema }), "adv-message-quality", "info", "/params/message");
  expectOne(params({ message: "Please fill out the form.", requestedSchema: schema }), "adv-message-quality", "info", "/params/message");
  expectNone(params({ message: "Please provide your GitHub username", requestedSchema: schema }), "adv-message-quality");
});

test("pointers escape ~ and / in keys (RFC 6901)", () => {
  const found = params(form({ "a/b~c": { type: "object", properties: {} } }));
  expectOne(found, "schema-flat", "error", "/params/requestedSchema/properties/a~1b~0c");
});
