import { test } from "node:test";
import assert from "node:assert/strict";
import { expectNone, expectOne, form, of, params } from "./harness.ts";

const P = "/params/requestedSchema/properties";

test("form-secret-field: catalogue example fires once, on the field, naming the word", () => {
  const ep = { mode: "form", message: "Enter your OpenAI API key", requestedSchema: { type: "object", properties: { api_key: { type: "string", title: "API key" } }, required: ["api_key"] } };
  const f = expectOne(params(ep), "form-secret-field", "error", `${P}/api_key`);
  assert.match(f.message, /api_key.*name.*"api key"/);
});

test("form-secret-field: credential names, titles and descriptions fire", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ password: { type: "string" } }, "password"],
    [{ apiKey: { type: "string" } }, "apiKey"],
    [{ "x-api-key": { type: "string" } }, "x-api-key"],
    [{ GITHUB_TOKEN: { type: "string" } }, "GITHUB_TOKEN"],
    [{ clientSecret: { type: "string" } }, "clientSecret"],
    [{ value: { type: "string", title: "Private key (PEM)" } }, "value"],
    [{ value: { type: "string", description: "Paste your personal access token here" } }, "value"],
    [{ cc: { type: "string", title: "Credit card number" } }, "cc"],
    [{ cvv: { type: "string" } }, "cvv"],
    [{ code: { type: "string", title: "2FA code" } }, "code"],
    [{ phrase: { type: "string", title: "Wallet seed phrase" } }, "phrase"],
    [{ pw: { type: "string", writeOnly: true } }, "pw"],
    [{ pw: { type: "string", format: "password" } }, "pw"],
  ];
  for (const [properties, key] of cases) {
    for (const rev of ["2025-06-18", "2025-11-25", "2026-07-28"] as const) {
      expectOne(params(form(properties), rev, "input-request"), "form-secret-field", "error", `${P}/${key}`);
    }
  }
});

test("form-secret-field: the message fires when it asks and the form has a text field", () => {
  const ep = { message: "Enter your OpenAI API key", requestedSchema: { type: "object", properties: { value: { type: "string" } } } };
  const f = expectOne(params(ep), "form-secret-field", "error", "/params/message");
  assert.match(f.message, /"api key"/);
  expectOne(params({ ...ep, message: "We need your GitHub password to push the release" }), "form-secret-field", "error", "/params/message");
});

test("form-secret-field: fields about a credential, profile fields and plain talk do not fire", () => {
  const clean = [
    form({ username: { type: "string", description: "Used to sign in together with your password" } }),
    form({ email: { type: "string", format: "email" }, name: { type: "string", title: "Full name" } }),
    form({ passwordExpiryDays: { type: "integer" } }),
    form({ max_tokens: { type: "integer" } }),
    form({ maxTokens: { type: "string" } }),
    form({ pinned: { type: "boolean" } }),
    form({ secretariat: { type: "string" } }),
    form({ has_api_key: { type: "boolean" } }),
    form({ password_hint: { type: "string" } }),
    form({ token_type: { type: "string", enum: ["bearer", "mac"] } }),
    form({ api_key_name: { type: "string", title: "API key name" } }),
    form({ password_policy: { type: "string" } }),
    form({ which: { type: "string", title: "Which API key should be rotated?", enum: ["ci", "deploy"] } }),
    { message: "Confirm you want to delete the token list", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } },
    { message: "Confirm you want to delete the token list", requestedSchema: { type: "object", properties: { reason: { type: "string" } } } },
    { message: "Your API key has expired; pick a new expiry", requestedSchema: { type: "object", properties: { days: { type: "integer" } } } },
    { message: "Please provide your GitHub username", requestedSchema: { type: "object", properties: { name: { type: "string", title: "GitHub Username", description: "Your GitHub username" } } } },
  ];
  for (const ep of clean) assert.deepEqual(of(params(ep), "form-secret-field"), [], JSON.stringify(ep));
});

test("form-secret-field: SSN is a warning in 2025-06-18 only", () => {
  const ep = form({ ssn: { type: "string", title: "Social security number" } });
  expectOne(params(ep, "2025-06-18"), "form-secret-field", "warning", `${P}/ssn`);
  expectNone(params(ep, "2025-11-25"), "form-secret-field");
  expectNone(params(ep, "2026-07-28", "input-request"), "form-secret-field");
});

test("form-secret-field: not in URL mode", () => {
  expectNone(params({ mode: "url", url: "https://mcp.example.com/ui/set_api_key", message: "Please provide your API key to continue.", elicitationId: "e1" }), "form-secret-field");
});

test("form-clickable-url: catalogue example (link in message); warning from 2025-11-25, info in 2025-06-18", () => {
  const ep = { message: "Read https://evil.example/terms then confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } };
  expectOne(params(ep), "form-clickable-url", "warning", "/params/message");
  expectOne(params(ep, "2026-07-28", "input-request"), "form-clickable-url", "warning", "/params/message");
  expectOne(params(ep, "2025-06-18"), "form-clickable-url", "info", "/params/message");
});

test("form-clickable-url: links in titles, descriptions, options and defaults", () => {
  expectOne(params(form({ a: { type: "string", description: "See www.example.com/help" } })), "form-clickable-url", "warning", `${P}/a/description`);
  expectOne(params(form({ a: { type: "string", oneOf: [{ const: "x", title: "Docs at https://x.example" }] } })), "form-clickable-url", "warning", `${P}/a/oneOf/0/title`);
  expectOne(params(form({ a: { type: "array", items: { type: "string", enum: ["ok", "http://x.example"] } } })), "form-clickable-url", "warning", `${P}/a/items/enum/1`);
  expectOne(params(form({ a: { type: "string", default: "https://x.example" } })), "form-clickable-url", "warning", `${P}/a/default`);
});

test("form-clickable-url: a uri input field and plain text are clean", () => {
  expectNone(params(form({ site: { type: "string", format: "uri", title: "Website", default: "https://example.com" } })), "form-clickable-url");
  expectNone(params(form({ a: { type: "string", title: "Email address", description: "e.g. ada@example.com" } })), "form-clickable-url");
});
