// requestedSchema rules (rules.md §3.4). The allowed shapes are schema.ts PrimitiveSchemaDefinition per
// revision; § "Requested Schema" limits form mode to "flat objects with primitive properties only".
import type { AskedWhere } from "../model/scope.ts";
import type { CheckContext } from "../ruleKit/context.ts";
import type { RuleId, RuleMeta, Severity } from "../ruleKit/types.ts";
import {
  enumOptions,
  has,
  isObject,
  isR2Plus,
  isFormat,
  isStringArray,
  jsonType,
  propertyKind,
  ptr,
  validateValue,
} from "../ruleKit/validate.ts";
import type { Era, Json, PropertyKind } from "../ruleKit/validate.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "schema-root-object",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: 'Root not `type:"object"` with `properties`',
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-root-keywords",
    severity: "info",
    severityNote: "info / warning",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Unsupported root keywords",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-required-list",
    severity: "error",
    severityNote: "error / info",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "`required` not a string[]; names not in `properties`",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-flat",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Nested object or non-enum array property",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-property-type",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Property type not string, number, integer or boolean (or an enum array)",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-keywords-per-type",
    severity: "warning",
    severityNote: "warning (`pattern`: info in 2025-11-25)",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Keyword outside the per-type allow-list",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-string-format",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "`format` ∉ {email, uri, date, date-time}",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-keyword-value-types",
    severity: "error",
    severityNote: "error / info",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Wrong JSON types for min/max/length keywords; inverted bounds",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-default-r1",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-06-18",
    violator: "server",
    detection: "exact",
    title: "`default` on a non-boolean type",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-default-type",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`default` type mismatches the property type",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-default-in-enum",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Enum `default` not among the options",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-default-in-bounds",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`default` violates the property's own constraints",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-untitled-single",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Bad `enum` array; mixed with `oneOf`",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-titled-single",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`oneOf` entries lack string `const` or `title`; mixed with `enum`",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-untitled-multi",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: '`items.type` must be "string" and `items.enum` a string[]',
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-titled-multi",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Must use `items.anyOf` `{const,title}` (not `items.oneOf`)",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-legacy",
    severity: "error",
    severityNote: "error / info",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "`enumNames` length ≠ `enum` length; deprecated from 2025-11-25",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-r1-variants",
    severity: "error",
    severityNote: "error / warning",
    revisions: "2025-06-18",
    violator: "server",
    detection: "exact",
    title: "SEP-1330 enum forms used in 2025-06-18",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "schema-enum-hygiene",
    severity: "info",
    severityNote: "info",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Empty or duplicate options; impossible minItems/maxItems",
    section: "3.4",
    spec: { revision: null, path: "client/elicitation" },
  },
];

/** The root keywords of requestedSchema: $schema arrives in 2025-11-25. */
const ROOT_R1 = new Set(["type", "properties", "required"]);
const ROOT_R2 = new Set([...ROOT_R1, "$schema"]);
const ROOT_INFO = new Set(["additionalProperties", "title", "description"]);
const ROOT_WARN = new Set([
  "$defs",
  "definitions",
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "patternProperties",
  "dependentSchemas",
  "propertyNames",
  "unevaluatedProperties",
  "minProperties",
  "maxProperties",
  "$dynamicRef",
]);

/** The schema family on one EP: a form request's requestedSchema, when it is an object (req-form-schema-required says when not). */
export function checkSchema(ep: Json, at: string, ctx: CheckContext, era: Era, where: AskedWhere, mode: string): void {
  if (where !== "url-required-error" && mode === "form" && isObject(ep.requestedSchema))
    checkRequestedSchema(ep.requestedSchema, `${at}/requestedSchema`, ctx, era);
}

export function checkRequestedSchema(schema: Json, at: string, ctx: CheckContext, era: Era): void {
  const { report, on } = ctx;
  if (schema.type !== "object") {
    report({
      rule: "schema-root-object",
      pointer: has(schema, "type") ? ptr(at, "type") : at,
      message: has(schema, "type")
        ? `requestedSchema.type is ${JSON.stringify(schema.type)}; it must be "object".`
        : 'requestedSchema has no type; it must be type "object".',
    });
  }
  const root = isR2Plus(era) ? ROOT_R2 : ROOT_R1;
  if (on("schema-root-keywords"))
    for (const key of Object.keys(schema)) {
      if (root.has(key)) continue;
      const severity: Severity = ROOT_INFO.has(key)
        ? "info"
        : ROOT_WARN.has(key) || key === "$schema"
          ? "warning"
          : "info";
      const why =
        key === "$schema"
          ? "$schema arrives in 2025-11-25"
          : ROOT_WARN.has(key)
            ? "advanced JSON Schema features are not supported"
            : "clients ignore it";
      report({
        rule: "schema-root-keywords",
        ...(severity === "info" ? {} : { severity }),
        pointer: ptr(at, key),
        message: `requestedSchema has the root keyword "${key}"; ${why} (only type, properties and required are defined).`,
      });
    }
  if (!isObject(schema.properties)) {
    report({
      rule: "schema-root-object",
      pointer: has(schema, "properties") ? ptr(at, "properties") : at,
      message: has(schema, "properties")
        ? `requestedSchema.properties must be an object but is ${jsonType(schema.properties)}.`
        : "requestedSchema has no properties object.",
    });
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (has(schema, "required") && on("schema-required-list"))
    checkRequired(schema.required, properties, ptr(at, "required"), ctx);
  for (const [key, def] of Object.entries(properties)) checkProperty(def, key, ptr(at, "properties", key), ctx, era);
}

function checkRequired(required: unknown, properties: Json, at: string, ctx: CheckContext): void {
  if (!Array.isArray(required)) {
    ctx.report({
      rule: "schema-required-list",
      pointer: at,
      message: `required must be an array of property names but is ${jsonType(required)}.`,
    });
    return;
  }
  required.forEach((name, i) => {
    if (typeof name !== "string")
      ctx.report({
        rule: "schema-required-list",
        pointer: ptr(at, i),
        message: `required[${i}] is ${jsonType(name)}; required lists property names (strings).`,
      });
    else if (!has(properties, name))
      ctx.report({
        rule: "schema-required-list",
        severity: "info",
        pointer: ptr(at, i),
        message: `required names "${name}", which is not a key of properties.`,
      });
  });
}

const PRIMITIVE = new Set(["string", "number", "integer", "boolean"]);

function checkProperty(def: unknown, key: string, p: string, ctx: CheckContext, era: Era): void {
  const { report } = ctx;
  if (!isObject(def)) {
    report({
      rule: "schema-property-type",
      pointer: p,
      message: `Property "${key}" is ${jsonType(def)}, not a schema object.`,
    });
    return;
  }
  if (def.type === "object" || has(def, "properties")) {
    report({
      rule: "schema-flat",
      pointer: p,
      message: `Property "${key}" is a nested object; form schemas are flat, with primitive properties only.`,
    });
    return;
  }
  if (def.type !== "array" && (typeof def.type !== "string" || !PRIMITIVE.has(def.type))) {
    report({
      rule: "schema-property-type",
      pointer: has(def, "type") ? ptr(p, "type") : p,
      message: has(def, "type")
        ? `Property "${key}" has type ${JSON.stringify(def.type)}; allowed are "string", "number", "integer", "boolean"${isR2Plus(era) ? ' (and "array" for multi-select enums)' : ""}.`
        : `Property "${key}" has no type.`,
    });
    return;
  }
  // checkSelect owns the enum shapes; for an array it also says whether it is a multi-select at all.
  if (!checkSelect(def, key, p, ctx, era)) return;
  const kind = propertyKind(def);
  const { on } = ctx;
  if (on("schema-keywords-per-type")) checkKeywords(def, kind, key, p, ctx, era);
  if (on("schema-keyword-value-types")) checkValueTypes(def, key, p, ctx);
  if (
    (kind === "string" || kind === "single-enum" || kind === "titled-single") &&
    has(def, "format") &&
    on("schema-string-format") &&
    !isFormat(def.format)
  ) {
    report({
      rule: "schema-string-format",
      pointer: ptr(p, "format"),
      message: `Property "${key}" has format ${JSON.stringify(def.format)}; supported formats are email, uri, date and date-time.`,
    });
  }
  if (has(def, "default") && DEFAULT_RULES.some(on)) checkDefault(def, kind, key, p, ctx, era);
}

const BASE = ["type", "title", "description"];
const ALLOWED: Record<PropertyKind, string[]> = {
  string: ["minLength", "maxLength", "format", "default"],
  number: ["minimum", "maximum", "default"],
  boolean: ["default"],
  // enumNames: schema-enum-legacy; enum next to oneOf: schema-enum-titled-single.
  "single-enum": ["enum", "enumNames", "default"],
  "titled-single": ["oneOf", "enum", "default"],
  "multi-enum": ["minItems", "maxItems", "items", "default"],
  "titled-multi": ["minItems", "maxItems", "items", "default"],
  other: [],
};

/** The keywords allowed per kind; enumNames without enum is a broken legacy enum, which schema-enum-legacy reports. */
const ALLOWED_SETS = new Map(
  (Object.keys(ALLOWED) as PropertyKind[]).map((kind) => [
    kind,
    new Set([...BASE, ...ALLOWED[kind], ...(kind === "string" ? ["enumNames"] : [])]),
  ]),
);

function checkKeywords(def: Json, kind: PropertyKind, key: string, p: string, ctx: CheckContext, era: Era): void {
  const allowed = ALLOWED_SETS.get(kind)!;
  for (const k of Object.keys(def)) {
    if (allowed.has(k)) continue;
    // pattern: absent from every schema.ts, but the 2025-11-25 prose example shows it (rules.md §5 item 1);
    // with the revision unknown it may be that one.
    const lenient = k === "pattern" && kind === "string" && (era === "2025-11-25" || era === null);
    ctx.report({
      rule: "schema-keywords-per-type",
      ...(lenient ? { severity: "info" as const } : {}),
      pointer: ptr(p, k),
      message: `Property "${key}" (${kindName(def, kind)}) has "${k}", which the restricted elicitation schema does not support${lenient ? " (only the 2025-11-25 prose example shows it)" : ""}.`,
    });
  }
}

const kindName = (def: Json, kind: PropertyKind): string =>
  kind === "number"
    ? String(def.type)
    : kind === "string" || kind === "boolean"
      ? kind
      : kind === "single-enum" || kind === "titled-single"
        ? "single-select enum"
        : "multi-select enum";

/** Lower and upper bound keywords, and whether they count (integers ≥ 0) rather than measure. */
const BOUNDS: readonly [string, string, boolean][] = [
  ["minLength", "maxLength", true],
  ["minItems", "maxItems", true],
  ["minimum", "maximum", false],
];

function checkValueTypes(def: Json, key: string, p: string, ctx: CheckContext): void {
  const { report } = ctx;
  for (const k of ["title", "description"]) {
    if (has(def, k) && typeof def[k] !== "string")
      report({
        rule: "schema-keyword-value-types",
        pointer: ptr(p, k),
        message: `Property "${key}" has a ${k} that is ${jsonType(def[k])}, not a string.`,
      });
  }
  for (const [lo, hi, count] of BOUNDS) {
    for (const k of [lo, hi]) {
      if (!has(def, k)) continue;
      const v = def[k];
      const ok = count ? Number.isInteger(v) : typeof v === "number";
      if (!ok)
        report({
          rule: "schema-keyword-value-types",
          pointer: ptr(p, k),
          message: `Property "${key}" has ${k} ${JSON.stringify(v)}; it must be ${count ? "an integer" : "a number"}.`,
        });
      else if (count && (v as number) < 0)
        report({
          rule: "schema-keyword-value-types",
          severity: "info",
          pointer: ptr(p, k),
          message: `Property "${key}" has a negative ${k} (${String(v)}).`,
        });
    }
    const [a, b] = [def[lo], def[hi]];
    if (typeof a === "number" && typeof b === "number" && a > b) {
      report({
        rule: "schema-keyword-value-types",
        severity: "info",
        pointer: ptr(p, hi),
        message: `Property "${key}" has ${lo} ${a} greater than ${hi} ${b}, so no value can satisfy it.`,
      });
    }
  }
}

const DEFAULT_RULES: readonly RuleId[] = [
  "schema-default-r1",
  "schema-default-type",
  "schema-default-in-enum",
  "schema-default-in-bounds",
];

function checkDefault(def: Json, kind: PropertyKind, key: string, p: string, ctx: CheckContext, era: Era): void {
  const { report, on } = ctx;
  const at = ptr(p, "default");
  const value = def.default;
  if (era === "2025-06-18" && kind !== "boolean") {
    // 2025-06-18 schema.ts: only BooleanSchema has default; SEP-1034 added the rest in 2025-11-25.
    report({
      rule: "schema-default-r1",
      pointer: at,
      message: `Property "${key}" has a default, but in 2025-06-18 only boolean properties may have one.`,
    });
    return;
  }
  const multi = kind === "multi-enum" || kind === "titled-multi";
  const expected =
    kind === "boolean" ? "boolean" : kind === "number" ? "number" : multi ? "array of strings" : "string";
  const typeOk = multi ? isStringArray(value) : typeof value === expected;
  if (!typeOk) {
    report({
      rule: "schema-default-type",
      pointer: at,
      message: `Property "${key}" has a default of type ${jsonType(value)}; a ${kindName(def, kind)} property needs a ${expected} default.`,
    });
    return;
  }
  if (def.type === "integer" && !Number.isInteger(value)) {
    report({
      rule: "schema-default-type",
      severity: "warning",
      pointer: at,
      message: `Property "${key}" is an integer but its default ${String(value)} is a fraction.`,
    });
    return;
  }
  if (!isR2Plus(era)) return;
  // SEP-1034 § "Behavior" 3: "the default must be one of the valid enum values".
  const options = on("schema-default-in-enum") ? enumOptions(def) : null;
  if (options) {
    const values = multi ? (value as string[]) : [value as string];
    values.forEach((v, i) => {
      if (!options.includes(v))
        report({
          rule: "schema-default-in-enum",
          pointer: multi ? ptr(at, i) : at,
          message: `Property "${key}" has the default ${JSON.stringify(v)}, which is not one of its options.`,
        });
    });
  }
  // A pre-populated default that violates its own constraints would be rejected on submit.
  if (on("schema-default-in-bounds"))
    for (const issue of validateValue(value, def, key, at)) {
      if (issue.code === "bounds" || issue.code === "format")
        report({
          rule: "schema-default-in-bounds",
          pointer: issue.pointer,
          message: `The default of "${key}" violates its own constraints: ${issue.message}`,
        });
    }
}

// ---- selects: schema.ts (Un)TitledSingleSelect, (Un)TitledMultiSelect, LegacyTitled / 2025-06-18 EnumSchema ----

/** Checks the select shape of a string or array property; for arrays, returns whether it is a select at all. */
function checkSelect(def: Json, key: string, p: string, ctx: CheckContext, era: Era): boolean {
  if (def.type === "array") return checkMultiSelect(def, key, p, ctx, era);
  const { report } = ctx;
  if (has(def, "oneOf")) {
    if (era === "2025-06-18") {
      // Still a valid 2025-06-18 StringSchema (extra keys allowed), but clients cannot render the titles.
      report({
        rule: "schema-enum-r1-variants",
        severity: "warning",
        pointer: ptr(p, "oneOf"),
        message: `Property "${key}" uses a titled oneOf enum, which arrives in 2025-11-25; 2025-06-18 clients will not show these options.`,
      });
    } else if (ctx.on("schema-enum-titled-single") || ctx.on("schema-enum-hygiene"))
      checkOptionList(def.oneOf, "schema-enum-titled-single", key, ptr(p, "oneOf"), ctx);
    if (isR2Plus(era) && has(def, "enum"))
      report({
        rule: "schema-enum-titled-single",
        pointer: ptr(p, "enum"),
        message: `Property "${key}" has both oneOf and enum; a titled single-select uses oneOf only.`,
      });
  } else if (has(def, "enum")) {
    const list = def.enum;
    if (!Array.isArray(list))
      report({
        rule: "schema-enum-untitled-single",
        pointer: ptr(p, "enum"),
        message: `Property "${key}" has an enum that is ${jsonType(list)}, not an array of strings.`,
      });
    else {
      const bad = list.findIndex((v) => typeof v !== "string");
      if (bad >= 0)
        report({
          rule: "schema-enum-untitled-single",
          pointer: ptr(p, "enum", bad),
          message: `Property "${key}" has enum[${bad}] of type ${jsonType(list[bad])}; enum options must be strings.`,
        });
      if (ctx.on("schema-enum-hygiene")) checkHygiene(list, key, ptr(p, "enum"), ctx);
    }
  }
  if (has(def, "enumNames") && ctx.on("schema-enum-legacy")) checkEnumNames(def, key, p, ctx, era);
  return true;
}

/** The keywords a multi-select's items may have: untitled (enum) or titled (anyOf). */
const UNTITLED_ITEMS = new Set(["type", "enum"]);
const TITLED_ITEMS = new Set(["anyOf", "oneOf", "enum", "type"]);

function checkMultiSelect(def: Json, key: string, p: string, ctx: CheckContext, era: Era): boolean {
  const { report } = ctx;
  const items = def.items;
  const select = isObject(items) && (has(items, "enum") || has(items, "anyOf") || has(items, "oneOf"));
  if (era === "2025-06-18") {
    if (select)
      report({
        rule: "schema-enum-r1-variants",
        pointer: p,
        message: `Property "${key}" is a multi-select enum (type "array"), which arrives in 2025-11-25.`,
      });
    else
      report({
        rule: "schema-flat",
        pointer: p,
        message: `Property "${key}" is an array; 2025-06-18 form schemas allow primitive properties only.`,
      });
    return false;
  }
  if (!isObject(items)) {
    report({
      rule: "schema-enum-untitled-multi",
      pointer: has(def, "items") ? ptr(p, "items") : p,
      message: has(def, "items")
        ? `Property "${key}" has items of type ${jsonType(items)}; a multi-select needs an items object with enum or anyOf.`
        : `Property "${key}" is an array without items; a multi-select needs items with enum or anyOf.`,
    });
    return false;
  }
  const at = ptr(p, "items");
  if (items.type === "object" || has(items, "properties")) {
    report({
      rule: "schema-flat",
      pointer: at,
      message: `Property "${key}" is an array of objects; only arrays of enum strings (multi-selects) are allowed.`,
    });
    return false;
  }
  if (!select) {
    report({
      rule: "schema-flat",
      pointer: p,
      message: `Property "${key}" is an array of free values; arrays are only allowed as multi-select enums (items.enum or items.anyOf).`,
    });
    return false;
  }
  // rules.md §5 item 3: schema.ts says items.anyOf; the SEP-1330 prose said items.oneOf.
  if (has(items, "oneOf"))
    report({
      rule: "schema-enum-titled-multi",
      pointer: ptr(at, "oneOf"),
      message: `Property "${key}" uses items.oneOf; a titled multi-select must use items.anyOf.`,
    });
  if (has(items, "anyOf")) {
    if (ctx.on("schema-enum-titled-multi") || ctx.on("schema-enum-hygiene"))
      checkOptionList(items.anyOf, "schema-enum-titled-multi", key, ptr(at, "anyOf"), ctx);
    if (has(items, "enum"))
      report({
        rule: "schema-enum-titled-multi",
        pointer: ptr(at, "enum"),
        message: `Property "${key}" has both items.anyOf and items.enum; use one of them.`,
      });
  } else if (has(items, "enum")) {
    if (items.type !== "string")
      report({
        rule: "schema-enum-untitled-multi",
        pointer: has(items, "type") ? ptr(at, "type") : at,
        message: `Property "${key}" has items.type ${has(items, "type") ? JSON.stringify(items.type) : "missing"}; an untitled multi-select needs items.type "string".`,
      });
    if (!isStringArray(items.enum))
      report({
        rule: "schema-enum-untitled-multi",
        pointer: ptr(at, "enum"),
        message: `Property "${key}" has items.enum that is not an array of strings.`,
      });
    else if (ctx.on("schema-enum-hygiene")) checkHygiene(items.enum, key, ptr(at, "enum"), ctx);
  }
  const allowed = has(items, "enum") && !has(items, "anyOf") ? UNTITLED_ITEMS : TITLED_ITEMS;
  if (ctx.on("schema-keywords-per-type"))
    for (const k of Object.keys(items)) {
      if (!allowed.has(k))
        report({
          rule: "schema-keywords-per-type",
          pointer: ptr(at, k),
          message: `Property "${key}" has items.${k}, which the restricted elicitation schema does not support.`,
        });
    }
  const options = ctx.on("schema-enum-hygiene") ? enumOptions(def) : null;
  if (options && options.length) {
    for (const k of ["minItems", "maxItems"]) {
      const n = def[k];
      if (typeof n === "number" && n > options.length)
        report({
          rule: "schema-enum-hygiene",
          pointer: ptr(p, k),
          message: `Property "${key}" has ${k} ${n} but only ${options.length} options${k === "minItems" ? ", so it cannot be satisfied" : ""}.`,
        });
    }
  }
  return true;
}

/** oneOf / items.anyOf: an array of {const: string, title: string}. */
function checkOptionList(
  list: unknown,
  rule: "schema-enum-titled-single" | "schema-enum-titled-multi",
  key: string,
  at: string,
  ctx: CheckContext,
): void {
  if (!Array.isArray(list)) {
    ctx.report({
      rule,
      pointer: at,
      message: `Property "${key}" has options that are ${jsonType(list)}, not an array of {const, title}.`,
    });
    return;
  }
  if (ctx.on(rule)) {
    list.forEach((o, i) => {
      const missing = !isObject(o) ? ["const", "title"] : ["const", "title"].filter((k) => typeof o[k] !== "string");
      if (missing.length)
        ctx.report({
          rule,
          pointer: ptr(at, i),
          message: `Property "${key}" option ${i} lacks a string ${missing.join(" and a string ")}; titled options are {const: string, title: string}.`,
        });
    });
  }
  if (ctx.on("schema-enum-hygiene"))
    checkHygiene(
      list.map((o) => (isObject(o) ? o.const : undefined)),
      key,
      at,
      ctx,
    );
}

function checkHygiene(values: unknown[], key: string, at: string, ctx: CheckContext): void {
  if (!values.length) {
    ctx.report({
      rule: "schema-enum-hygiene",
      pointer: at,
      message: `Property "${key}" has an empty option list, so nothing can be chosen.`,
    });
    return;
  }
  const seen = new Set<unknown>();
  values.forEach((v, i) => {
    if (typeof v === "string" && seen.has(v))
      ctx.report({
        rule: "schema-enum-hygiene",
        pointer: ptr(at, i),
        message: `Property "${key}" lists the option ${JSON.stringify(v)} twice.`,
      });
    seen.add(v);
  });
}

function checkEnumNames(def: Json, key: string, p: string, ctx: CheckContext, era: Era): void {
  const at = ptr(p, "enumNames");
  const names = def.enumNames;
  let problem: string | null = null;
  if (!isStringArray(names)) problem = `enumNames must be an array of strings but is ${jsonType(names)}`;
  else if (!Array.isArray(def.enum)) problem = "enumNames has no enum to name";
  else if (names.length !== def.enum.length)
    problem = `enumNames has ${names.length} entries but enum has ${def.enum.length}`;
  if (problem) ctx.report({ rule: "schema-enum-legacy", pointer: at, message: `Property "${key}": ${problem}.` });
  // 2025-11-25 schema.ts: LegacyTitledEnumSchema "will be removed in a future version".
  else if (isR2Plus(era))
    ctx.report({
      rule: "schema-enum-legacy",
      severity: "info",
      pointer: at,
      message: `Property "${key}" uses enumNames, deprecated since 2025-11-25; use oneOf with {const, title} instead.`,
    });
}
