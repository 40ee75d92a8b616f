import type { Elicitation, Finding } from "../../src/engine/index.ts";
import { isObject } from "../../src/util/json.ts";

/** One field of a requestedSchema, as a client would render it. */
export interface FormField {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  control: "text" | "number" | "checkbox" | "select" | "multiselect" | "unknown";
  type: string;
  format?: string;
  options?: { value: unknown; label: string }[];
  default?: unknown;
  /** minimum/maximum, minLength/maxLength, minItems/maxItems as written. */
  bounds: string[];
  answer?: unknown;
  answered: boolean;
  /** Findings about the answer to this field (the user's content broke the schema). */
  answerFindings: Finding[];
  /** Findings about this field's schema itself. */
  schemaFindings: Finding[];
}

export interface FormModel {
  fields: FormField[];
  /** The schema is not an object schema with properties: shown raw instead. */
  malformed?: string;
  /** Findings about the answer or the schema that name no single field (e.g. required fields missing). */
  formFindings: Finding[];
}

const token = (part: string): string => part.replace(/~/g, "~0").replace(/\//g, "~1");

function optionsOf(schema: Record<string, unknown>): FormField["options"] {
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const list = (schema.oneOf ?? schema.anyOf) as unknown[];
    return list
      .filter(isObject)
      .map((o) => ({ value: o.const, label: typeof o.title === "string" ? o.title : String(o.const) }));
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({
      value,
      label: typeof names[i] === "string" ? (names[i] as string) : String(value),
    }));
  }
  return undefined;
}

const BOUNDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
];

/**
 * A form-mode elicitation's requestedSchema as fields, with the user's answer filled in and the flow's findings
 * placed on the field they are about (by JSON pointer: the answer's `/content/<field>`, the schema's
 * `/requestedSchema/properties/<field>`).
 */
export function formModel(el: Elicitation, findings: readonly Finding[]): FormModel {
  const schema = el.schema;
  const content = isObject(el.content) ? el.content : undefined;
  const contentAt = el.answerPointer === undefined ? undefined : `${el.answerPointer}/content`;
  const schemaAt = `${el.askPointer}/requestedSchema`;
  const onAnswer = findings.filter(
    (f) =>
      el.answerRecord !== undefined &&
      f.record === el.answerRecord &&
      contentAt !== undefined &&
      (f.pointer === contentAt || f.pointer.startsWith(`${contentAt}/`)),
  );
  const onSchema = findings.filter(
    (f) => f.record === el.askRecord && (f.pointer === schemaAt || f.pointer.startsWith(`${schemaAt}/`)),
  );
  const placed = new Set<Finding>();
  const model: FormModel = { fields: [], formFindings: [] };
  if (!isObject(schema) || !isObject(schema.properties)) {
    model.malformed =
      schema === undefined
        ? "No requestedSchema was sent."
        : "requestedSchema is not an object schema with properties.";
  } else {
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const [key, raw] of Object.entries(schema.properties)) {
      const prop = isObject(raw) ? raw : {};
      const type =
        typeof prop.type === "string" ? prop.type : Array.isArray(prop.type) ? prop.type.join(" | ") : "unknown";
      const items = isObject(prop.items) ? prop.items : undefined;
      const options = type === "array" && items ? optionsOf(items) : optionsOf(prop);
      const control: FormField["control"] =
        type === "boolean"
          ? "checkbox"
          : type === "array"
            ? "multiselect"
            : options
              ? "select"
              : type === "number" || type === "integer"
                ? "number"
                : type === "string"
                  ? "text"
                  : "unknown";
      const at = (base: string) => `${base}/${token(key)}`;
      const mine = (list: Finding[], base: string | undefined) =>
        base === undefined
          ? []
          : list.filter((f) => (f.pointer === at(base) || f.pointer.startsWith(`${at(base)}/`)) && placed.add(f));
      const field: FormField = {
        key,
        label: typeof prop.title === "string" ? prop.title : key,
        required: required.includes(key),
        control,
        type,
        bounds: BOUNDS.filter((b) => prop[b] !== undefined || items?.[b] !== undefined).map(
          (b) => `${b} ${JSON.stringify(prop[b] ?? items?.[b])}`,
        ),
        answered: content !== undefined && key in content,
        answerFindings: mine(onAnswer, contentAt),
        schemaFindings: mine(onSchema, `${schemaAt}/properties`),
      };
      if (typeof prop.description === "string") field.description = prop.description;
      if (typeof prop.format === "string") field.format = prop.format;
      if (options) field.options = options;
      if ("default" in prop) field.default = prop.default;
      if (field.answered) field.answer = content![key];
      model.fields.push(field);
    }
  }
  model.formFindings = [...onAnswer, ...onSchema].filter((f) => !placed.has(f));
  return model;
}
