import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/form.ts";
import type { Revision } from "../../src/protocol/revision.ts";
import { asked, epPointer, ruleTester, under, type Case, type Expected, type InvalidCase } from "./ruleTester.ts";

const P = "/requestedSchema/properties";
const AT = epPointer["server-request"];
const IR = epPointer["input-request"];

/** A form EP around these properties. */
const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  mode: "form",
  message: "Please tell us how to set up your project",
  requestedSchema: { type: "object", properties, ...extra },
});

/** The EP in each era: elicitation/create in a 2025-06-18 and a 2025-11-25 session, an input request in 2026-07-28. */
const eras = (name: string, ep: unknown, findings: (rev: Revision) => Expected[]): InvalidCase[] =>
  (["2025-06-18", "2025-11-25", "2026-07-28"] as const).map((rev) => ({
    name: `${name} (${rev})`,
    capture: rev === "2026-07-28" ? asked(ep, { where: "input-request" }) : asked(ep, { revision: rev }),
    findings: under(rev === "2026-07-28" ? IR : AT, findings(rev)),
  }));

const secretFields: [Record<string, unknown>, string][] = [
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

// Fields about a credential, profile fields and plain talk.
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
  {
    message: "Confirm you want to delete the token list",
    requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
  },
  {
    message: "Confirm you want to delete the token list",
    requestedSchema: { type: "object", properties: { reason: { type: "string" } } },
  },
  {
    message: "Your API key has expired; pick a new expiry",
    requestedSchema: { type: "object", properties: { days: { type: "integer" } } },
  },
  {
    message: "Please provide your GitHub username",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string", title: "GitHub Username", description: "Your GitHub username" } },
    },
  },
];

const ssn = form({ ssn: { type: "string", title: "Social security number" } });
const secretMessage = {
  message: "Enter your OpenAI API key",
  requestedSchema: { type: "object", properties: { value: { type: "string" } } },
};
const linkInMessage = {
  message: "Read https://evil.example/terms then confirm",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
};

const valid: Case[] = [
  ...clean.map((ep, i) => ({ name: `no secret asked (${i}: ${JSON.stringify(ep).slice(0, 60)})`, capture: asked(ep) })),
  { name: "an SSN is not a secret after 2025-06-18 (2025-11-25)", capture: asked(ssn) },
  { name: "an SSN is not a secret after 2025-06-18 (2026-07-28)", capture: asked(ssn, { where: "input-request" }) },
  {
    name: "no form rule in URL mode",
    capture: asked({
      mode: "url",
      url: "https://mcp.example.com/ui/set_api_key",
      message: "Please provide your API key to continue.",
      elicitationId: "e1",
    }),
  },
  {
    name: "a uri input field's default is input, not a link",
    capture: asked(form({ site: { type: "string", format: "uri", title: "Website", default: "https://example.com" } })),
  },
  {
    name: "an email address is not a link",
    capture: asked(form({ a: { type: "string", title: "Email address", description: "e.g. ada@example.com" } })),
  },
];

const invalid: InvalidCase[] = [
  {
    name: "form-secret-field: catalogue example fires once, on the field, naming the word",
    capture: asked({
      mode: "form",
      message: "Enter your OpenAI API key",
      requestedSchema: {
        type: "object",
        properties: { api_key: { type: "string", title: "API key" } },
        required: ["api_key"],
      },
    }),
    findings: under(AT, [{ rule: "form-secret-field", severity: "error", pointer: `${P}/api_key` }]),
    also: ({ findings }) => assert.match(findings[0]!.message, /api_key.*name.*"api key"/),
  },
  ...secretFields.flatMap(([properties, key]) =>
    eras(`form-secret-field: the credential field ${key}`, form(properties), () => [
      { rule: "form-secret-field", severity: "error", pointer: `${P}/${key}` },
    ]),
  ),
  {
    name: "form-secret-field: the message fires when it asks and the form has a text field",
    capture: asked(secretMessage),
    findings: under(AT, [{ rule: "form-secret-field", severity: "error", pointer: "/message" }]),
    also: ({ findings }) => assert.match(findings[0]!.message, /"api key"/),
  },
  {
    name: "form-secret-field: a message asking for a password",
    capture: asked({ ...secretMessage, message: "We need your GitHub password to push the release" }),
    findings: under(AT, [{ rule: "form-secret-field", severity: "error", pointer: "/message" }]),
  },
  {
    name: "form-secret-field: an SSN is a warning in 2025-06-18",
    capture: asked(ssn, { revision: "2025-06-18" }),
    findings: under(AT, [{ rule: "form-secret-field", severity: "warning", pointer: `${P}/ssn` }]),
  },
  ...eras("form-clickable-url: catalogue example (link in message); info in 2025-06-18", linkInMessage, (rev) => [
    { rule: "form-clickable-url", severity: rev === "2025-06-18" ? "info" : "warning", pointer: "/message" },
  ]),
  ...(
    [
      [form({ a: { type: "string", description: "See www.example.com/help" } }), `${P}/a/description`],
      [
        form({ a: { type: "string", oneOf: [{ const: "x", title: "Docs at https://x.example" }] } }),
        `${P}/a/oneOf/0/title`,
      ],
      [
        form({ a: { type: "array", items: { type: "string", enum: ["ok", "http://x.example"] } } }),
        `${P}/a/items/enum/1`,
      ],
      [form({ a: { type: "string", default: "https://x.example" } }), `${P}/a/default`],
    ] as const
  ).map(([ep, pointer]) => ({
    name: `form-clickable-url: a link at ${pointer}`,
    capture: asked(ep),
    findings: under(AT, [{ rule: "form-clickable-url", severity: "warning", pointer }]),
  })),
];

ruleTester("form", meta, { valid, invalid });
