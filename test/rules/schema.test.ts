import { test } from "node:test";
import assert from "node:assert/strict";
import { expectNone, expectOne, form, of, params } from "./harness.ts";

const P = "/params/requestedSchema";
const prop = (k: string) => `${P}/properties/${k}`;
const withSchema = (requestedSchema: unknown) => ({ message: "Please choose how to configure the project", requestedSchema });

test("schema-root-object: catalogue example (array root), missing properties", () => {
  const found = params(withSchema({ type: "array", items: { type: "string" } }));
  assert.deepEqual(of(found, "schema-root-object").map((f) => [f.severity, f.pointer]), [["error", `${P}/type`], ["error", P]]);
  expectOne(params(withSchema({ type: "object", properties: [] })), "schema-root-object", "error", `${P}/properties`);
  expectNone(params(form({ n: { type: "string" } })), "schema-root-object");
});

test("schema-root-keywords: $defs is a warning, title info, $schema only in 2025-06-18", () => {
  const example = params(withSchema({ type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "string" } } }));
  expectOne(example, "schema-root-keywords", "warning", `${P}/$defs`);
  expectOne(example, "schema-property-type", "error", prop("a"));
  const found = params(withSchema({ type: "object", properties: { a: { type: "string" } }, $defs: { A: { type: "string" } }, title: "T" }));
  expectOne(found.filter((f) => f.pointer.endsWith("$defs")), "schema-root-keywords", "warning", `${P}/$defs`);
  expectOne(found.filter((f) => f.pointer.endsWith("title")), "schema-root-keywords", "info", `${P}/title`);
  const s = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { a: { type: "string" } } };
  expectOne(params(withSchema(s), "2025-06-18"), "schema-root-keywords", "warning", `${P}/$schema`);
  expectNone(params(withSchema(s), "2025-11-25"), "schema-root-keywords");
  expectNone(params(form({ a: { type: "string" } }, { required: ["a"] })), "schema-root-keywords");
});

test("schema-required-list: catalogue example (string), unknown name is info", () => {
  expectOne(params(form({ name: { type: "string" } }, { required: "name" })), "schema-required-list", "error", `${P}/required`);
  expectOne(params(form({ name: { type: "string" } }, { required: ["name", 3] })), "schema-required-list", "error", `${P}/required/1`);
  expectOne(params(form({ name: { type: "string" } }, { required: ["nmae"] })), "schema-required-list", "info", `${P}/required/0`);
  expectNone(params(form({ name: { type: "string" } }, { required: ["name"] })), "schema-required-list");
});

test("schema-flat: catalogue example (nested object), arrays of objects and free arrays", () => {
  expectOne(params(withSchema({ type: "object", properties: { address: { type: "object", properties: { street: { type: "string" } } } } })), "schema-flat", "error", prop("address"));
  expectOne(params(form({ people: { type: "array", items: { type: "object", properties: {} } } })), "schema-flat", "error", `${prop("people")}/items`);
  expectOne(params(form({ tags: { type: "array", items: { type: "string" } } })), "schema-flat", "error", prop("tags"));
  expectOne(params(form({ tags: { type: "array", items: { type: "string" } } }), "2025-06-18"), "schema-flat", "error", prop("tags"));
  expectNone(params(form({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } })), "schema-flat");
});

test("schema-property-type: catalogue example (nullable type array), missing type, non-object", () => {
  expectOne(params(form({ nick: { type: ["string", "null"] } })), "schema-property-type", "error", `${prop("nick")}/type`);
  expectOne(params(form({ x: { anyOf: [{ type: "string" }] } })), "schema-property-type", "error", prop("x"));
  expectOne(params(form({ x: true })), "schema-property-type", "error", prop("x"));
  expectNone(params(form({ a: { type: "string" }, b: { type: "integer" }, c: { type: "number" }, d: { type: "boolean" } })), "schema-property-type");
});

test("schema-keywords-per-type: pattern is info in 2025-11-25, warning in 2025-06-18 and 2026-07-28", () => {
  const ep = form({ zip: { type: "string", pattern: "^[0-9]{5}$" } });
  expectOne(params(ep, "2025-11-25"), "schema-keywords-per-type", "info", `${prop("zip")}/pattern`);
  expectOne(params(ep, "2025-06-18"), "schema-keywords-per-type", "warning", `${prop("zip")}/pattern`);
  expectOne(params(ep, "2026-07-28", "input-request"), "schema-keywords-per-type", "warning", `${prop("zip")}/pattern`);
  expectOne(params(form({ n: { type: "number", enum: [1, 2] } })), "schema-keywords-per-type", "warning", `${prop("n")}/enum`);
  expectOne(params(form({ n: { type: "integer", exclusiveMinimum: 0 } })), "schema-keywords-per-type", "warning", `${prop("n")}/exclusiveMinimum`);
  expectNone(params(form({ s: { type: "string", title: "S", description: "d", minLength: 1, maxLength: 9, format: "email", default: "a@b.example" } })), "schema-keywords-per-type");
});

test("schema-string-format: catalogue example (password)", () => {
  expectOne(params(form({ pw: { type: "string", format: "password" } })), "schema-string-format", "error", `${prop("pw")}/format`);
  expectOne(params(form({ id: { type: "string", format: "uuid" } })), "schema-string-format", "error", `${prop("id")}/format`);
  expectNone(params(form({ a: { type: "string", format: "uri" }, b: { type: "string", format: "date" }, c: { type: "string", format: "date-time" } })), "schema-string-format");
});

test("schema-keyword-value-types: catalogue example (string minLength) is an error, inverted bounds info", () => {
  expectOne(params(form({ n: { type: "string", minLength: "3" } })), "schema-keyword-value-types", "error", `${prop("n")}/minLength`);
  expectOne(params(form({ n: { type: "string", maxLength: 2.5 } })), "schema-keyword-value-types", "error", `${prop("n")}/maxLength`);
  expectOne(params(form({ n: { type: "number", minimum: "0" } })), "schema-keyword-value-types", "error", `${prop("n")}/minimum`);
  expectOne(params(form({ n: { type: "number", title: 5 } })), "schema-keyword-value-types", "error", `${prop("n")}/title`);
  expectOne(params(form({ n: { type: "number", minimum: 10, maximum: 1 } })), "schema-keyword-value-types", "info", `${prop("n")}/maximum`);
  expectOne(params(form({ n: { type: "string", minLength: -1 } })), "schema-keyword-value-types", "info", `${prop("n")}/minLength`);
  // Fractions are fine for minimum and maximum (schema.ts number; rules.md §5 item 2).
  expectNone(params(form({ n: { type: "number", minimum: 0.5, maximum: 9.5 }, s: { type: "string", minLength: 1, maxLength: 3 } })), "schema-keyword-value-types");
});

test("schema-default-r1: catalogue example (string default in 2025-06-18); booleans are fine", () => {
  const ep = withSchema({ type: "object", properties: { name: { type: "string", default: "Ada" } } });
  expectOne(params(ep, "2025-06-18"), "schema-default-r1", "warning", `${prop("name")}/default`);
  expectNone(params(ep, "2025-11-25"), "schema-default-r1");
  expectNone(params(form({ ok: { type: "boolean", default: true } }), "2025-06-18"), "schema-default-r1");
});

test("schema-default-type: catalogue example (string default on integer), fractional integer default is a warning", () => {
  expectOne(params(form({ age: { type: "integer", default: "30" } })), "schema-default-type", "error", `${prop("age")}/default`);
  expectOne(params(form({ age: { type: "integer", default: 30.5 } })), "schema-default-type", "warning", `${prop("age")}/default`);
  expectOne(params(form({ ok: { type: "boolean", default: "yes" } }), "2025-06-18"), "schema-default-type", "error", `${prop("ok")}/default`);
  expectOne(params(form({ c: { type: "array", items: { type: "string", enum: ["a"] }, default: "a" } })), "schema-default-type", "error", `${prop("c")}/default`);
  expectNone(params(form({ age: { type: "integer", default: 30 }, score: { type: "number", default: 95.5 }, ok: { type: "boolean", default: false } })), "schema-default-type");
});

test("schema-default-in-enum: catalogue example, titled and multi-select defaults", () => {
  expectOne(params(form({ status: { type: "string", enum: ["active", "inactive"], default: "pending" } })), "schema-default-in-enum", "error", `${prop("status")}/default`);
  expectOne(params(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }], default: "g" } })), "schema-default-in-enum", "error", `${prop("c")}/default`);
  expectOne(params(form({ c: { type: "array", items: { anyOf: [{ const: "r", title: "Red" }] }, default: ["r", "x"] } })), "schema-default-in-enum", "error", `${prop("c")}/default/1`);
  expectNone(params(form({ status: { type: "string", enum: ["active", "inactive"], default: "active" } })), "schema-default-in-enum");
});

test("schema-default-in-bounds: catalogue example (default above maximum)", () => {
  expectOne(params(form({ n: { type: "integer", minimum: 1, maximum: 10, default: 50 } })), "schema-default-in-bounds", "info", `${prop("n")}/default`);
  expectOne(params(form({ e: { type: "string", format: "email", default: "not-an-email" } })), "schema-default-in-bounds", "info", `${prop("e")}/default`);
  expectNone(params(form({ n: { type: "integer", minimum: 1, maximum: 10, default: 5 } })), "schema-default-in-bounds");
  expectNone(params(form({ n: { type: "integer", minimum: 1, maximum: 10, default: 50 } }), "2025-06-18"), "schema-default-in-bounds");
});

test("schema-enum-untitled-single: catalogue example (non-string option)", () => {
  expectOne(params(form({ c: { type: "string", enum: ["a", 1] } })), "schema-enum-untitled-single", "error", `${prop("c")}/enum/1`);
  expectOne(params(form({ c: { type: "string", enum: "a" } })), "schema-enum-untitled-single", "error", `${prop("c")}/enum`);
  expectNone(params(form({ c: { type: "string", enum: ["a", "b"] } })), "schema-enum-untitled-single");
});

test("schema-enum-titled-single: catalogue example (option without title), enum mixed with oneOf", () => {
  expectOne(params(form({ c: { type: "string", oneOf: [{ const: "#f00" }] } })), "schema-enum-titled-single", "error", `${prop("c")}/oneOf/0`);
  expectOne(params(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }], enum: ["r"] } })), "schema-enum-titled-single", "error", `${prop("c")}/enum`);
  expectNone(params(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }] } })), "schema-enum-titled-single");
});

test("schema-enum-untitled-multi: catalogue example (items without type)", () => {
  expectOne(params(form({ tags: { type: "array", items: { enum: ["a", "b"] } } })), "schema-enum-untitled-multi", "error", `${prop("tags")}/items`);
  expectOne(params(form({ tags: { type: "array" } })), "schema-enum-untitled-multi", "error", prop("tags"));
  expectOne(params(form({ tags: { type: "array", items: { type: "string", enum: ["a", 2] } } })), "schema-enum-untitled-multi", "error", `${prop("tags")}/items/enum`);
  expectNone(params(form({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } })), "schema-enum-untitled-multi");
});

test("schema-enum-titled-multi: catalogue example (items.oneOf), bad entry", () => {
  expectOne(params(form({ c: { type: "array", items: { oneOf: [{ const: "#f00", title: "Red" }] } } })), "schema-enum-titled-multi", "error", `${prop("c")}/items/oneOf`);
  expectOne(params(form({ c: { type: "array", items: { anyOf: [{ const: 1, title: "One" }] } } })), "schema-enum-titled-multi", "error", `${prop("c")}/items/anyOf/0`);
  expectNone(params(form({ c: { type: "array", items: { anyOf: [{ const: "#f00", title: "Red" }] } } })), "schema-enum-titled-multi");
});

test("schema-enum-legacy: catalogue example (length mismatch) is an error; enumNames itself is info from 2025-11-25", () => {
  expectOne(params(form({ c: { type: "string", enum: ["a", "b", "c"], enumNames: ["A", "B"] } })), "schema-enum-legacy", "error", `${prop("c")}/enumNames`);
  const ok = form({ c: { type: "string", enum: ["a", "b"], enumNames: ["A", "B"] } });
  expectOne(params(ok, "2025-11-25"), "schema-enum-legacy", "info", `${prop("c")}/enumNames`);
  expectNone(params(ok, "2025-06-18"), "schema-enum-legacy");
  expectNone(params(form({ c: { type: "string", enum: ["a", "b"] } })), "schema-enum-legacy");
});

test("schema-enum-r1-variants: catalogue example (multi-select in 2025-06-18), oneOf is a warning", () => {
  const multi = withSchema({ type: "object", properties: { tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } } });
  expectOne(params(multi, "2025-06-18"), "schema-enum-r1-variants", "error", prop("tags"));
  expectOne(params(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }] } }), "2025-06-18"), "schema-enum-r1-variants", "warning", `${prop("c")}/oneOf`);
  expectNone(params(multi, "2025-11-25"), "schema-enum-r1-variants");
  expectNone(params(form({ c: { type: "string", enum: ["a"], enumNames: ["A"] } }), "2025-06-18"), "schema-enum-r1-variants");
});

test("schema-enum-hygiene: catalogue example (minItems above the option count), empty and duplicate options", () => {
  const found = params(form({ c: { type: "array", minItems: 3, maxItems: 1, items: { type: "string", enum: ["a", "b"] } } }));
  expectOne(found, "schema-enum-hygiene", "info", `${prop("c")}/minItems`);
  expectOne(found, "schema-keyword-value-types", "info", `${prop("c")}/maxItems`);
  expectOne(params(form({ c: { type: "string", enum: [] } })), "schema-enum-hygiene", "info", `${prop("c")}/enum`);
  expectOne(params(form({ c: { type: "string", oneOf: [{ const: "r", title: "Red" }, { const: "r", title: "Rouge" }] } })), "schema-enum-hygiene", "info", `${prop("c")}/oneOf/1`);
  expectNone(params(form({ c: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b"] } } })), "schema-enum-hygiene");
});

test("the spec's 2025-11-25 schema examples (without pattern) are clean", () => {
  const properties = {
    s: { type: "string", title: "Display Name", description: "Description text", minLength: 3, maxLength: 50, format: "email", default: "user@example.com" },
    n: { type: "number", title: "Display Name", description: "Description text", minimum: 0, maximum: 100, default: 50 },
    b: { type: "boolean", title: "Display Name", description: "Description text", default: false },
    e1: { type: "string", title: "Color Selection", description: "Choose your favorite color", enum: ["Red", "Green", "Blue"], default: "Red" },
    e2: { type: "string", title: "Color Selection", description: "Choose your favorite color", oneOf: [{ const: "#FF0000", title: "Red" }, { const: "#00FF00", title: "Green" }, { const: "#0000FF", title: "Blue" }], default: "#FF0000" },
    m1: { type: "array", title: "Color Selection", description: "Choose your favorite colors", minItems: 1, maxItems: 2, items: { type: "string", enum: ["Red", "Green", "Blue"] }, default: ["Red", "Green"] },
    m2: { type: "array", title: "Color Selection", description: "Choose your favorite colors", minItems: 1, maxItems: 2, items: { anyOf: [{ const: "#FF0000", title: "Red" }, { const: "#00FF00", title: "Green" }, { const: "#0000FF", title: "Blue" }] }, default: ["#FF0000", "#00FF00"] },
  };
  assert.deepEqual(params(form(properties), "2025-11-25"), []);
  assert.deepEqual(params(form(properties), "2026-07-28", "input-request"), []);
  assert.deepEqual(params(form(properties), null), []);
});
