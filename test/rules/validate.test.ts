import { test } from "node:test";
import assert from "node:assert/strict";
import {
  eraOf,
  isAbsoluteUri,
  isDate,
  isDateTime,
  isEmail,
  validateContent,
  validateValue,
} from "../../src/engine/ruleKit/validate.ts";

test("eraOf: known revisions, later drafts, and no elicitation before 2025-06-18", () => {
  assert.equal(eraOf("2025-06-18"), "2025-06-18");
  assert.equal(eraOf("2025-11-25"), "2025-11-25");
  assert.equal(eraOf("2026-07-28"), "2026-07-28");
  assert.equal(eraOf("2027-01-01"), "2026-07-28");
  assert.equal(eraOf("2025-03-26"), null);
  assert.equal(eraOf(null), null);
});

test("formats", () => {
  assert.ok(isEmail("octocat@github.com") && !isEmail("octocat") && !isEmail("a b@c.d"));
  assert.ok(isDate("2024-02-29") && !isDate("2023-02-29") && !isDate("2024-13-01") && !isDate("24-01-01"));
  assert.ok(
    isDateTime("2025-11-25T10:00:00Z") &&
      isDateTime("2025-11-25t10:00:00.5+02:00") &&
      !isDateTime("2025-11-25 25:00:00Z") &&
      !isDateTime("2025-11-25"),
  );
  assert.ok(
    isAbsoluteUri("https://example.com/a?b=c") &&
      isAbsoluteUri("mailto:ada@example.com") &&
      isAbsoluteUri("urn:isbn:0451450523"),
  );
  assert.ok(
    !isAbsoluteUri("/a") &&
      !isAbsoluteUri("https://exa mple.com") &&
      !isAbsoluteUri("https://x/%zz") &&
      !isAbsoluteUri("https:x"),
  );
});

test("validateValue: integer vs number, code-point lengths, selects", () => {
  assert.equal(validateValue(95.5, { type: "number" }, "s", "/c/s").length, 0);
  assert.deepEqual(
    validateValue(95.5, { type: "integer" }, "s", "/c/s").map((i) => i.code),
    ["type"],
  );
  assert.equal(validateValue("😀😀", { type: "string", maxLength: 2 }, "s", "/c/s").length, 0);
  assert.deepEqual(
    validateValue("abc", { type: "string", maxLength: 2 }, "s", "/c/s").map((i) => i.code),
    ["bounds"],
  );
  assert.deepEqual(
    validateValue("x", { type: "string", oneOf: [{ const: "r", title: "Red" }] }, "s", "/c/s").map((i) => i.code),
    ["enum"],
  );
  const multi = {
    type: "array",
    minItems: 1,
    maxItems: 2,
    items: {
      anyOf: [
        { const: "r", title: "Red" },
        { const: "g", title: "Green" },
      ],
    },
  };
  assert.deepEqual(
    validateValue(["r", "b", "g"], multi, "m", "/c/m").map((i) => [i.code, i.pointer]),
    [
      ["bounds", "/c/m"],
      ["enum", "/c/m/1"],
    ],
  );
  assert.deepEqual(
    validateValue([], { type: "array", minItems: 1, items: { type: "string", enum: ["a"] } }, "m", "/c/m").map(
      (i) => i.code,
    ),
    ["bounds"],
  );
  assert.deepEqual(
    validateValue("yes", { type: "boolean" }, "b", "/c/b").map((i) => i.code),
    ["type"],
  );
});

test("validateContent: required, extra keys, escaped pointers", () => {
  const schema = { type: "object", properties: { "a/b": { type: "string", format: "date" } }, required: ["a/b", "c"] };
  const issues = validateContent({ "a/b": "2025-02-30", "x~y": 1 }, schema, "/result/content");
  assert.deepEqual(
    issues.map((i) => [i.code, i.pointer]),
    [
      ["required", "/result/content"],
      ["format", "/result/content/a~1b"],
      ["extra", "/result/content/x~0y"],
    ],
  );
});
