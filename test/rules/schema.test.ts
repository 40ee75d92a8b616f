import { meta } from "../../src/engine/rules/schema.ts";
import type { RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import { asked, epPointer, ruleTester, type AskedAt, type Case, type InvalidCase } from "./ruleTester.ts";

const P = "/requestedSchema";
const prop = (k: string) => `${P}/properties/${k}`;
const withSchema = (requestedSchema: unknown) => ({
  message: "Please choose how to configure the project",
  requestedSchema,
});
/** A form EP around these properties. */
const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  mode: "form",
  message: "Please tell us how to set up your project",
  requestedSchema: { type: "object", properties, ...extra },
});

/** An invalid case: `ep` asked as `at` says, with one finding at `pointer` (relative to the EP). */
const one = (ep: unknown, rule: RuleId, severity: Severity, pointer: string, at: AskedAt = {}): InvalidCase => ({
  name: `${rule}: ${severity} at ${pointer}${at.where ? ` (${at.where})` : at.revision !== undefined ? ` (${at.revision})` : ""}: ${JSON.stringify(ep).slice(0, 80)}`,
  capture: asked(ep, at),
  findings: [{ rule, severity, pointer: epPointer[at.where ?? "server-request"] + pointer }],
});
/** A case with several findings, pointers relative to the EP. */
const some = (name: string, ep: unknown, findings: [RuleId, Severity, string][], at: AskedAt = {}): InvalidCase => ({
  name,
  capture: asked(ep, at),
  findings: findings.map(([rule, severity, pointer]) => ({
    rule,
    severity,
    pointer: epPointer[at.where ?? "server-request"] + pointer,
  })),
});
const clean = (ep: unknown, at: AskedAt = {}): Case => ({
  name: `clean${at.where ? ` (${at.where})` : at.revision !== undefined ? ` (${at.revision})` : ""}: ${JSON.stringify(ep).slice(0, 100)}`,
  capture: asked(ep, at),
});

const zip = form({ zip: { type: "string", pattern: "^[0-9]{5}$" } });
const r1Default = withSchema({ type: "object", properties: { name: { type: "string", default: "Ada" } } });
const legacyNames = form({ c: { type: "string", enum: ["a", "b"], enumNames: ["A", "B"] } });
const multi = withSchema({
  type: "object",
  properties: { tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } },
});
const withDollarSchema = withSchema({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { a: { type: "string" } },
});
// The spec's 2025-11-25 schema examples (without pattern).
const specExamples = form({
  s: {
    type: "string",
    title: "Display Name",
    description: "Description text",
    minLength: 3,
    maxLength: 50,
    format: "email",
    default: "user@example.com",
  },
  n: { type: "number", title: "Display Name", description: "Description text", minimum: 0, maximum: 100, default: 50 },
  b: { type: "boolean", title: "Display Name", description: "Description text", default: false },
  e1: {
    type: "string",
    title: "Color Selection",
    description: "Choose your favorite color",
    enum: ["Red", "Green", "Blue"],
    default: "Red",
  },
  e2: {
    type: "string",
    title: "Color Selection",
    description: "Choose your favorite color",
    oneOf: [
      { const: "#FF0000", title: "Red" },
      { const: "#00FF00", title: "Green" },
      { const: "#0000FF", title: "Blue" },
    ],
    default: "#FF0000",
  },
  m1: {
    type: "array",
    title: "Color Selection",
    description: "Choose your favorite colors",
    minItems: 1,
    maxItems: 2,
    items: { type: "string", enum: ["Red", "Green", "Blue"] },
    default: ["Red", "Green"],
  },
  m2: {
    type: "array",
    title: "Color Selection",
    description: "Choose your favorite colors",
    minItems: 1,
    maxItems: 2,
    items: {
      anyOf: [
        { const: "#FF0000", title: "Red" },
        { const: "#00FF00", title: "Green" },
        { const: "#0000FF", title: "Blue" },
      ],
    },
    default: ["#FF0000", "#00FF00"],
  },
});

const valid: Case[] = [
  clean(specExamples),
  clean(specExamples, { where: "input-request" }),
  clean(specExamples, { revision: null }),
  clean(form({ n: { type: "string" } })), // not "schema-root-object"
  clean(withDollarSchema), // not "schema-root-keywords"
  clean(form({ a: { type: "string" } }, { required: ["a"] })), // not "schema-root-keywords"
  clean(form({ name: { type: "string" } }, { required: ["name"] })), // not "schema-required-list"
  clean(form({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } })), // not "schema-flat"
  clean(form({ a: { type: "string" }, b: { type: "integer" }, c: { type: "number" }, d: { type: "boolean" } })), // not "schema-property-type"
  clean(
    form({
      a: { type: "string", format: "uri" },
      b: { type: "string", format: "date" },
      c: { type: "string", format: "date-time" },
    }),
  ), // not "schema-string-format"
  clean(form({ n: { type: "number", minimum: 0.5, maximum: 9.5 }, s: { type: "string", minLength: 1, maxLength: 3 } })), // not "schema-keyword-value-types"
  clean(r1Default), // not "schema-default-r1"
  clean(form({ ok: { type: "boolean", default: true } }), { revision: "2025-06-18" }), // not "schema-default-r1"
  clean(
    form({
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      ok: { type: "boolean", default: false },
    }),
  ), // not "schema-default-type"
  clean(form({ status: { type: "string", enum: ["active", "inactive"], default: "active" } })), // not "schema-default-in-enum"
  clean(form({ n: { type: "integer", minimum: 1, maximum: 10, default: 5 } })), // not "schema-default-in-bounds"
  clean(form({ c: { type: "string", enum: ["a", "b"] } })), // not "schema-enum-untitled-single"
  clean(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }] } })), // not "schema-enum-titled-single"
  clean(form({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } })), // not "schema-enum-untitled-multi"
  clean(form({ c: { type: "array", items: { anyOf: [{ const: "#f00", title: "Red" }] } } })), // not "schema-enum-titled-multi"
  clean(legacyNames, { revision: "2025-06-18" }), // not "schema-enum-legacy"
  clean(form({ c: { type: "string", enum: ["a", "b"] } })), // not "schema-enum-legacy"
  clean(multi), // not "schema-enum-r1-variants"
  clean(form({ c: { type: "string", enum: ["a"], enumNames: ["A"] } }), { revision: "2025-06-18" }), // not "schema-enum-r1-variants"
  clean(form({ c: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b"] } } })), // not "schema-enum-hygiene"
];

const invalid: InvalidCase[] = [
  some("schema-root-object: catalogue example (array root)", withSchema({ type: "array", items: { type: "string" } }), [
    ["schema-root-object", "error", `${P}/type`],
    ["schema-root-keywords", "info", `${P}/items`],
    ["schema-root-object", "error", P],
  ]),
  some(
    "schema-root-keywords: $defs is a warning",
    withSchema({ type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "string" } } }),
    [
      ["schema-root-keywords", "warning", `${P}/$defs`],
      ["schema-property-type", "error", prop("a")],
    ],
  ),
  some(
    "schema-root-keywords: title is info",
    withSchema({ type: "object", properties: { a: { type: "string" } }, $defs: { A: { type: "string" } }, title: "T" }),
    [
      ["schema-root-keywords", "warning", `${P}/$defs`],
      ["schema-root-keywords", "info", `${P}/title`],
    ],
  ),
  one(withDollarSchema, "schema-root-keywords", "warning", `${P}/$schema`, { revision: "2025-06-18" }),
  some(
    "schema-enum-hygiene: catalogue example (minItems above the option count)",
    form({ c: { type: "array", minItems: 3, maxItems: 1, items: { type: "string", enum: ["a", "b"] } } }),
    [
      ["schema-enum-hygiene", "info", `${prop("c")}/minItems`],
      ["schema-keyword-value-types", "info", `${prop("c")}/maxItems`],
    ],
  ),
  some(
    "schema-keywords-per-type: string keywords are fine on a string (the default's shape is schema-default-in-bounds')",
    form({
      s: {
        type: "string",
        title: "S",
        description: "d",
        minLength: 1,
        maxLength: 9,
        format: "email",
        default: "a@b.example",
      },
    }),
    [["schema-default-in-bounds", "info", `${prop("s")}/default`]],
  ),
  some(
    "schema-default-in-bounds: not in 2025-06-18, where a non-boolean default is schema-default-r1's",
    form({ n: { type: "integer", minimum: 1, maximum: 10, default: 50 } }),
    [["schema-default-r1", "warning", `${prop("n")}/default`]],
    { revision: "2025-06-18" },
  ),
  some("pointers escape ~ and / in keys (RFC 6901)", form({ "a/b~c": { type: "object", properties: {} } }), [
    ["schema-flat", "error", `${P}/properties/a~1b~0c`],
  ]),
  one(withSchema({ type: "object", properties: [] }), "schema-root-object", "error", `${P}/properties`),
  one(withDollarSchema, "schema-root-keywords", "warning", `${P}/$schema`, { revision: "2025-06-18" }),
  one(form({ name: { type: "string" } }, { required: "name" }), "schema-required-list", "error", `${P}/required`),
  one(
    form({ name: { type: "string" } }, { required: ["name", 3] }),
    "schema-required-list",
    "error",
    `${P}/required/1`,
  ),
  one(form({ name: { type: "string" } }, { required: ["nmae"] }), "schema-required-list", "info", `${P}/required/0`),
  one(
    withSchema({
      type: "object",
      properties: { address: { type: "object", properties: { street: { type: "string" } } } },
    }),
    "schema-flat",
    "error",
    prop("address"),
  ),
  one(
    form({ people: { type: "array", items: { type: "object", properties: {} } } }),
    "schema-flat",
    "error",
    `${prop("people")}/items`,
  ),
  one(form({ tags: { type: "array", items: { type: "string" } } }), "schema-flat", "error", prop("tags")),
  one(form({ tags: { type: "array", items: { type: "string" } } }), "schema-flat", "error", prop("tags"), {
    revision: "2025-06-18",
  }),
  one(form({ nick: { type: ["string", "null"] } }), "schema-property-type", "error", `${prop("nick")}/type`),
  one(form({ x: { anyOf: [{ type: "string" }] } }), "schema-property-type", "error", prop("x")),
  one(form({ x: true }), "schema-property-type", "error", prop("x")),
  one(zip, "schema-keywords-per-type", "info", `${prop("zip")}/pattern`),
  one(zip, "schema-keywords-per-type", "warning", `${prop("zip")}/pattern`, { revision: "2025-06-18" }),
  one(zip, "schema-keywords-per-type", "warning", `${prop("zip")}/pattern`, { where: "input-request" }),
  some("schema-keywords-per-type: enum on a number", form({ n: { type: "number", enum: [1, 2] } }), [
    ["schema-enum-untitled-single", "error", `${prop("n")}/enum/0`],
    ["schema-keywords-per-type", "warning", `${prop("n")}/enum`],
  ]),
  one(
    form({ n: { type: "integer", exclusiveMinimum: 0 } }),
    "schema-keywords-per-type",
    "warning",
    `${prop("n")}/exclusiveMinimum`,
  ),
  one(form({ pw: { type: "string", format: "password" } }), "schema-string-format", "error", `${prop("pw")}/format`),
  one(form({ id: { type: "string", format: "uuid" } }), "schema-string-format", "error", `${prop("id")}/format`),
  one(form({ n: { type: "string", minLength: "3" } }), "schema-keyword-value-types", "error", `${prop("n")}/minLength`),
  one(form({ n: { type: "string", maxLength: 2.5 } }), "schema-keyword-value-types", "error", `${prop("n")}/maxLength`),
  one(form({ n: { type: "number", minimum: "0" } }), "schema-keyword-value-types", "error", `${prop("n")}/minimum`),
  one(form({ n: { type: "number", title: 5 } }), "schema-keyword-value-types", "error", `${prop("n")}/title`),
  one(
    form({ n: { type: "number", minimum: 10, maximum: 1 } }),
    "schema-keyword-value-types",
    "info",
    `${prop("n")}/maximum`,
  ),
  one(form({ n: { type: "string", minLength: -1 } }), "schema-keyword-value-types", "info", `${prop("n")}/minLength`),
  one(r1Default, "schema-default-r1", "warning", `${prop("name")}/default`, { revision: "2025-06-18" }),
  one(form({ age: { type: "integer", default: "30" } }), "schema-default-type", "error", `${prop("age")}/default`),
  one(form({ age: { type: "integer", default: 30.5 } }), "schema-default-type", "warning", `${prop("age")}/default`),
  one(form({ ok: { type: "boolean", default: "yes" } }), "schema-default-type", "error", `${prop("ok")}/default`, {
    revision: "2025-06-18",
  }),
  one(
    form({ c: { type: "array", items: { type: "string", enum: ["a"] }, default: "a" } }),
    "schema-default-type",
    "error",
    `${prop("c")}/default`,
  ),
  one(
    form({ status: { type: "string", enum: ["active", "inactive"], default: "pending" } }),
    "schema-default-in-enum",
    "error",
    `${prop("status")}/default`,
  ),
  one(
    form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }], default: "g" } }),
    "schema-default-in-enum",
    "error",
    `${prop("c")}/default`,
  ),
  one(
    form({ c: { type: "array", items: { anyOf: [{ const: "r", title: "Red" }] }, default: ["r", "x"] } }),
    "schema-default-in-enum",
    "error",
    `${prop("c")}/default/1`,
  ),
  one(
    form({ n: { type: "integer", minimum: 1, maximum: 10, default: 50 } }),
    "schema-default-in-bounds",
    "info",
    `${prop("n")}/default`,
  ),
  one(
    form({ e: { type: "string", format: "email", default: "not-an-email" } }),
    "schema-default-in-bounds",
    "info",
    `${prop("e")}/default`,
  ),
  one(form({ c: { type: "string", enum: ["a", 1] } }), "schema-enum-untitled-single", "error", `${prop("c")}/enum/1`),
  one(form({ c: { type: "string", enum: "a" } }), "schema-enum-untitled-single", "error", `${prop("c")}/enum`),
  one(
    form({ c: { type: "string", oneOf: [{ const: "#f00" }] } }),
    "schema-enum-titled-single",
    "error",
    `${prop("c")}/oneOf/0`,
  ),
  one(
    form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }], enum: ["r"] } }),
    "schema-enum-titled-single",
    "error",
    `${prop("c")}/enum`,
  ),
  one(
    form({ tags: { type: "array", items: { enum: ["a", "b"] } } }),
    "schema-enum-untitled-multi",
    "error",
    `${prop("tags")}/items`,
  ),
  one(form({ tags: { type: "array" } }), "schema-enum-untitled-multi", "error", prop("tags")),
  one(
    form({ tags: { type: "array", items: { type: "string", enum: ["a", 2] } } }),
    "schema-enum-untitled-multi",
    "error",
    `${prop("tags")}/items/enum`,
  ),
  one(
    form({ c: { type: "array", items: { oneOf: [{ const: "#f00", title: "Red" }] } } }),
    "schema-enum-titled-multi",
    "error",
    `${prop("c")}/items/oneOf`,
  ),
  one(
    form({ c: { type: "array", items: { anyOf: [{ const: 1, title: "One" }] } } }),
    "schema-enum-titled-multi",
    "error",
    `${prop("c")}/items/anyOf/0`,
  ),
  one(
    form({ c: { type: "string", enum: ["a", "b", "c"], enumNames: ["A", "B"] } }),
    "schema-enum-legacy",
    "error",
    `${prop("c")}/enumNames`,
  ),
  one(legacyNames, "schema-enum-legacy", "info", `${prop("c")}/enumNames`),
  one(multi, "schema-enum-r1-variants", "error", prop("tags"), { revision: "2025-06-18" }),
  one(
    form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }] } }),
    "schema-enum-r1-variants",
    "warning",
    `${prop("c")}/oneOf`,
    { revision: "2025-06-18" },
  ),
  one(form({ c: { type: "string", enum: [] } }), "schema-enum-hygiene", "info", `${prop("c")}/enum`),
  one(
    form({
      c: {
        type: "string",
        oneOf: [
          { const: "r", title: "Red" },
          { const: "r", title: "Rouge" },
        ],
      },
    }),
    "schema-enum-hygiene",
    "info",
    `${prop("c")}/oneOf/1`,
  ),
];

ruleTester("schema", meta, { valid, invalid });
