// The JSON-level primitives every payload rule shares (pointers, type tests, the revision era), and a
// validator for the restricted JSON Schema subset of `requestedSchema`. No ajv: it compiles with
// `new Function`, which extension pages forbid under their CSP.
import { hasElicitation, hasUrlMode, isModern } from "../../protocol/revision.ts";
import type { Revision } from "../../protocol/revision.ts";

import { isObject } from "../../util/json.ts";
import { join as ptr } from "../../util/pointer.ts";

// The engine's RFC 6901 pointer builder (escapes `~` and `/`) and object test, under the names the rules use.
export { isObject, ptr };
export type Json = Record<string, unknown>;
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
export const has = (o: Json, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** The JSON type name a developer reads in a message. */
export const jsonType = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number" && Number.isInteger(v)
        ? "integer"
        : typeof v;

/**
 * The elicitation shape in force. Revisions before 2025-06-18 have no elicitation at all
 * (rev-feature-not-in-revision reports that), so they, like an unknown revision, get only the rules
 * 2025-11-25 and 2026-07-28 share.
 */
export type Era = "2025-06-18" | "2025-11-25" | "2026-07-28" | null;
export const eraOf = (rev: Revision | null): Era =>
  isModern(rev) ? "2026-07-28" : hasUrlMode(rev) ? "2025-11-25" : hasElicitation(rev) ? "2025-06-18" : null;
/** Rules whose catalogue revisions are "2025-11-25, 2026-07-28" (also the unknown-revision set). */
export const isR2Plus = (era: Era): boolean => era !== "2025-06-18";

// ---- formats (schema.ts StringSchema.format) ----

/** RFC 3986 absolute URI: a scheme, no whitespace or characters URIs never carry unescaped. */
export function isAbsoluteUri(s: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/.test(s)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(s)) return false;
  try {
    const u = new URL(s);
    // WHATWG accepts "https:example.com"; RFC 3986 http(s) URIs need an authority.
    return !/^(https?|wss?|ftp):$/.test(u.protocol) || /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/.test(s);
  } catch {
    return false;
  }
}

const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
export const isEmail = (s: string): boolean => EMAIL.test(s);

export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (days[mo - 1] ?? 0);
}

/** RFC 3339 date-time (JSON Schema `date-time`). */
export function isDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1] ?? "")) return false;
  const [h, mi, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const zoneOk = m[6]?.length === 1 || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return h <= 23 && mi <= 59 && sec <= 60 && zoneOk;
}

const formatCheck: Record<string, (s: string) => boolean> = {
  email: isEmail,
  uri: isAbsoluteUri,
  date: isDate,
  "date-time": isDateTime,
};
/** schema.ts StringSchema.format: "email" | "uri" | "date" | "date-time". */
export const isFormat = (f: unknown): boolean => typeof f === "string" && has(formatCheck, f);

// ---- property kinds (schema.ts PrimitiveSchemaDefinition) ----

export type PropertyKind =
  | "string"
  | "number"
  | "boolean"
  | "single-enum"
  | "titled-single"
  | "multi-enum"
  | "titled-multi"
  | "other";

export function propertyKind(def: Json): PropertyKind {
  switch (def.type) {
    case "string":
      return has(def, "oneOf") ? "titled-single" : has(def, "enum") ? "single-enum" : "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "array": {
      const items = def.items;
      return isObject(items) && (has(items, "anyOf") || has(items, "oneOf")) ? "titled-multi" : "multi-enum";
    }
    default:
      return "other";
  }
}

function consts(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  // A loop, not flatMap: flatMap builds an array per option, and this runs for every select answered.
  const out: string[] = [];
  for (const o of list) if (isObject(o) && typeof o.const === "string") out.push(o.const);
  return out;
}

/** The option values a select property allows, or null when it is not a select (or has no usable list). */
export function enumOptions(def: Json): string[] | null {
  const items = isObject(def.items) ? def.items : {};
  switch (propertyKind(def)) {
    case "single-enum":
      return Array.isArray(def.enum) ? def.enum.filter((x): x is string => typeof x === "string") : null;
    case "titled-single":
      return consts(def.oneOf);
    case "multi-enum":
      return Array.isArray(items.enum) ? items.enum.filter((x): x is string => typeof x === "string") : null;
    case "titled-multi":
      return consts(items.anyOf ?? items.oneOf);
    default:
      return null;
  }
}

// ---- value validation ----

export type IssueCode = "type" | "enum" | "bounds" | "format" | "required" | "extra";
export interface Issue {
  code: IssueCode;
  pointer: string;
  message: string;
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const quote = (s: string): string => JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s);

/** Checks one value against one property definition; `name` is the field name used in messages. */
export function validateValue(value: unknown, def: Json, name: string, at: string): Issue[] {
  const issues: Issue[] = [];
  validateInto(issues, value, def, name, at, undefined);
  return issues;
}

const pointerOf = (base: string, key: string | undefined): string => (key === undefined ? base : ptr(base, key));
const addIssue = (issues: Issue[], code: IssueCode, message: string, pointer: string): void => {
  issues.push({ code, pointer, message });
};

/**
 * validateValue's work, adding to `issues`. The value's pointer is `base`, or `base` + `key` when a key is
 * given: it is built only when there is an issue to point at (answers are checked field by field, and
 * nearly every field is fine).
 */
function validateInto(
  issues: Issue[],
  value: unknown,
  def: Json,
  name: string,
  base: string,
  key: string | undefined,
): void {
  // Issues are added without closures over the arguments: this runs for every field of every answer.
  const kind = propertyKind(def);
  // Only selects have options (enumOptions is null for every other kind).
  const options =
    kind === "single-enum" || kind === "titled-single" || kind === "multi-enum" || kind === "titled-multi"
      ? enumOptions(def)
      : null;
  if (kind === "multi-enum" || kind === "titled-multi") {
    if (!isStringArray(value)) {
      addIssue(
        issues,
        "type",
        `"${name}" should be an array of strings but is ${jsonType(value)}.`,
        pointerOf(base, key),
      );
      return;
    }
    const min = num(def.minItems);
    const max = num(def.maxItems);
    if (min !== undefined && value.length < min)
      addIssue(
        issues,
        "bounds",
        `"${name}" has ${value.length} selections, fewer than minItems ${min}.`,
        pointerOf(base, key),
      );
    if (max !== undefined && value.length > max)
      addIssue(
        issues,
        "bounds",
        `"${name}" has ${value.length} selections, more than maxItems ${max}.`,
        pointerOf(base, key),
      );
    value.forEach((v, i) => {
      if (options && !options.includes(v))
        addIssue(
          issues,
          "enum",
          `"${name}" contains ${quote(v)}, which is not one of its options.`,
          ptr(pointerOf(base, key), i),
        );
    });
    return;
  }
  if (kind === "boolean") {
    if (typeof value !== "boolean")
      addIssue(issues, "type", `"${name}" should be a boolean but is ${jsonType(value)}.`, pointerOf(base, key));
    return;
  }
  if (kind === "number") {
    const integer = def.type === "integer";
    if (typeof value !== "number" || (integer && !Number.isInteger(value))) {
      addIssue(
        issues,
        "type",
        `"${name}" should be ${integer ? "an integer" : "a number"} but is ${typeof value === "number" ? "a fraction" : jsonType(value)}.`,
        pointerOf(base, key),
      );
      return;
    }
    const min = num(def.minimum);
    const max = num(def.maximum);
    if (min !== undefined && value < min)
      addIssue(issues, "bounds", `"${name}" is ${value}, below its minimum ${min}.`, pointerOf(base, key));
    if (max !== undefined && value > max)
      addIssue(issues, "bounds", `"${name}" is ${value}, above its maximum ${max}.`, pointerOf(base, key));
    return;
  }
  if (kind === "other") return;
  if (typeof value !== "string") {
    addIssue(issues, "type", `"${name}" should be a string but is ${jsonType(value)}.`, pointerOf(base, key));
    return;
  }
  if (options) {
    if (!options.includes(value))
      addIssue(issues, "enum", `"${name}" is ${quote(value)}, which is not one of its options.`, pointerOf(base, key));
    return;
  }
  // JSON Schema counts length in Unicode code points, not UTF-16 units.
  const length = codePoints(value);
  const min = num(def.minLength);
  const max = num(def.maxLength);
  if (min !== undefined && length < min)
    addIssue(
      issues,
      "bounds",
      `"${name}" is ${length} characters long, shorter than minLength ${min}.`,
      pointerOf(base, key),
    );
  if (max !== undefined && length > max)
    addIssue(
      issues,
      "bounds",
      `"${name}" is ${length} characters long, longer than maxLength ${max}.`,
      pointerOf(base, key),
    );
  const check = typeof def.format === "string" ? formatCheck[def.format] : undefined;
  if (check && !check(value))
    addIssue(
      issues,
      "format",
      `"${name}" is not a valid ${def.format} (format "${def.format}").`,
      pointerOf(base, key),
    );
}

/** The length of a string in code points, as `[...s].length` counts them (a lone surrogate counts as one). */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) continue;
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}

const NOTHING_SKIPPED: ReadonlySet<string> = new Set();

/**
 * Validates `content` (an object) against `requestedSchema`; pointers are built under `at` (the content).
 * Keys in `skip` count as present but their values are not checked (already reported as malformed).
 */
export function validateContent(
  content: Json,
  schema: Json,
  at: string,
  skip: ReadonlySet<string> | undefined = NOTHING_SKIPPED,
): Issue[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const issues: Issue[] = [];
  const required = isStringArray(schema.required) ? schema.required : [];
  if (required.some((k) => !has(content, k))) {
    const missing = required.filter((k) => !has(content, k));
    issues.push({
      code: "required",
      pointer: at,
      message: `Required field${missing.length > 1 ? "s" : ""} ${missing.map((k) => `"${k}"`).join(", ")} missing from the accepted content.`,
    });
  }
  for (const key of Object.keys(content)) {
    if (skip.has(key)) continue;
    const def = properties[key];
    if (!has(properties, key) || !isObject(def)) {
      issues.push({
        code: "extra",
        pointer: ptr(at, key),
        message: `Content field "${key}" is not in requestedSchema.properties.`,
      });
      continue;
    }
    validateInto(issues, content[key], def, key, at, key);
  }
  return issues;
}
