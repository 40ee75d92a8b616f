// ElicitResult rules (rules.md §3.7) and form-secret-value.
import type { CheckContext } from "../ruleKit/context.ts";
import type { RuleMeta } from "../ruleKit/types.ts";
import { secretValue } from "../../util/secrets.ts";
import { has, isObject, isR2Plus, jsonType, ptr, validateContent } from "../ruleKit/validate.ts";
import type { Era, Json } from "../ruleKit/validate.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "result-action-enum",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "client",
    detection: "exact",
    title: "`action` missing or ∉ {accept, decline, cancel}",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-content-only-on-accept",
    severity: "warning",
    severityNote: "warning",
    revisions: "all",
    violator: "client",
    detection: "exact",
    title: "`content` sent with decline or cancel",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-url-accept-no-content",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25, 2026-07-28",
    violator: "client",
    detection: "stateful (needs the EP mode)",
    title: "URL-mode answer carries `content`",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-content-value-types",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "client",
    detection: "exact",
    title: "Content values not string, number or boolean (plus string[] from 2025-11-25)",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-content-matches-schema",
    severity: "warning",
    severityNote: "warning",
    revisions: "all",
    violator: "client",
    detection: "stateful (join ER to its EP)",
    title: "Content does not validate against `requestedSchema`",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-form-accept-missing-content",
    severity: "warning",
    severityNote: "warning",
    revisions: "all",
    violator: "client",
    detection: "stateful",
    title: "Form accept without `content` although fields are required",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-defaults-applied",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25, 2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Defaulted optional field omitted from an accepted answer",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "result-r3-extra-fields",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "client",
    detection: "exact",
    title: "`resultType`, `_meta` or JSON-RPC envelope inside an ElicitResult",
    section: "3.7",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "form-secret-value",
    severity: "warning",
    severityNote: "warning (heuristic)",
    revisions: "all",
    violator: "client",
    detection: "heuristic",
    title: "A credential-looking value typed into accepted form content (project rule)",
    section: "3.5",
    spec: { revision: null, path: "client/elicitation" },
  },
];

const ACTIONS = new Set(["accept", "decline", "cancel"]);

/** `mode` is mode(EP), or null when the request was not seen. */
export function checkResult(
  er: unknown,
  ep: unknown,
  mode: string | null,
  at: string,
  ctx: CheckContext,
  era: Era,
  inputResponse: boolean,
): void {
  const { report, on } = ctx;
  if (!isObject(er)) {
    report({
      rule: "result-action-enum",
      pointer: at,
      message: `The ElicitResult is ${jsonType(er)}, not an object with an action.`,
    });
    return;
  }
  // 2026-07-28 schema.ts: ElicitResult no longer extends Result (no resultType, no _meta).
  if (era === "2026-07-28" && inputResponse && on("result-r3-extra-fields")) {
    for (const key of ["resultType", "_meta", "jsonrpc", "id"]) {
      if (has(er, key))
        report({
          rule: "result-r3-extra-fields",
          pointer: ptr(at, key),
          message: `The ElicitResult in inputResponses carries ${key}; in 2026-07-28 it is just {action, content}.`,
        });
    }
  }
  const action = er.action;
  if (!has(er, "action"))
    report({
      rule: "result-action-enum",
      pointer: at,
      message: 'The ElicitResult has no action; it must be "accept", "decline" or "cancel".',
    });
  else if (typeof action !== "string" || !ACTIONS.has(action))
    report({
      rule: "result-action-enum",
      pointer: ptr(at, "action"),
      message: `action is ${JSON.stringify(action)}; it must be "accept", "decline" or "cancel".`,
    });

  const hasContent = has(er, "content");
  const content = er.content;
  const refused = action === "decline" || action === "cancel";
  // § "Response Actions" 2-3: "The content field is typically omitted".
  if (hasContent && refused)
    report({
      rule: "result-content-only-on-accept",
      pointer: ptr(at, "content"),
      message: `The ${String(action)} result carries content; content belongs only to an accepted form.`,
    });
  // § "Response Actions" 1: "For URL mode: The content field is omitted" (URL data never reaches the client).
  if (mode === "url" && isR2Plus(era) && hasContent && !refused) {
    const n = isObject(content) ? Object.keys(content).length : 0;
    report({
      rule: "result-url-accept-no-content",
      pointer: ptr(at, "content"),
      message: `The answer to a URL-mode request carries content${n ? ` with ${n} field${n > 1 ? "s" : ""}` : ""}; URL-mode data must stay out of the client.`,
    });
  }
  // One pointer for the content's checks below, made once (answers are checked on every retry).
  const contentAt = hasContent ? ptr(at, "content") : "";
  // The values of the wrong type, which result-content-matches-schema does not judge again.
  const bad =
    hasContent && (on("result-content-value-types") || on("result-content-matches-schema"))
      ? checkValueTypes(content, contentAt, ctx, era)
      : undefined;
  if (action === "accept" && isObject(content) && on("form-secret-value")) checkSecretValues(content, contentAt, ctx);
  if (action !== "accept" || mode !== "form" || !isObject(ep) || !isObject(ep.requestedSchema)) return;

  const schema = ep.requestedSchema;
  if (!hasContent) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (required.length)
      report({
        rule: "result-form-accept-missing-content",
        pointer: at,
        message: `The form was accepted without content although it requires ${required.map((k) => JSON.stringify(k)).join(", ")}.`,
      });
  } else if (isObject(content) && isObject(schema.properties) && on("result-content-matches-schema")) {
    // Both parties SHOULD validate against the requested schema (§ "Form Mode Security" 2-3).
    for (const issue of validateContent(content, schema, contentAt, bad)) {
      report({
        rule: "result-content-matches-schema",
        ...(issue.code === "extra" ? { severity: "info" as const } : {}),
        pointer: issue.pointer,
        message: issue.message,
      });
    }
  }
  if (!isR2Plus(era) || !on("result-defaults-applied")) return;
  if (!hasContent) checkDefaultsApplied(schema, {}, at, ctx);
  else if (isObject(content)) checkDefaultsApplied(schema, content, contentAt, ctx);
}

/**
 * schema.ts ElicitResult.content: string | number | boolean, plus string[] from 2025-11-25. Returns the keys
 * reported, or undefined when there are none (nearly always: no set is made for a well-typed answer).
 */
function checkValueTypes(content: unknown, at: string, ctx: CheckContext, era: Era): Set<string> | undefined {
  // Run for result-content-matches-schema too, which needs the keys: then it only reports while its own rule is on.
  const report = ctx.on("result-content-value-types") ? ctx.report : () => {};
  if (!isObject(content)) {
    report({
      rule: "result-content-value-types",
      pointer: at,
      message: `content is ${jsonType(content)}; it must be an object of field values.`,
    });
    return undefined;
  }
  let bad: Set<string> | undefined;
  const arrays = isR2Plus(era);
  for (const [key, value] of Object.entries(content)) {
    const t = typeof value;
    if (t === "string" || t === "number" || t === "boolean") continue;
    if (arrays && Array.isArray(value)) {
      const i = value.findIndex((v) => typeof v !== "string");
      if (i < 0) continue;
      (bad ??= new Set()).add(key);
      report({
        rule: "result-content-value-types",
        pointer: ptr(at, key, i),
        message: `content.${key}[${i}] is ${jsonType(value[i])}; multi-select values are arrays of strings.`,
      });
      continue;
    }
    (bad ??= new Set()).add(key);
    report({
      rule: "result-content-value-types",
      pointer: ptr(at, key),
      message: `content.${key} is ${jsonType(value)}; values must be a string, number or boolean${arrays ? " (or an array of strings)" : " in 2025-06-18"}.`,
    });
  }
  return bad;
}

// Project rule: a credential typed into a form has already passed through the client (and possibly the
// model); the message says what it looks like and never repeats it.
function checkSecretValues(content: Json, at: string, ctx: CheckContext): void {
  const found = (key: string, pointer: string, looks: string) =>
    ctx.report({
      rule: "form-secret-value",
      pointer,
      message: `Form field "${key}" holds a value that looks like ${looks}; ask for credentials through URL mode so they never pass through the client.`,
    });
  // Pointers are made only for the values that look like secrets.
  for (const [key, value] of Object.entries(content)) {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        const looks = typeof v === "string" ? secretValue(v) : null;
        if (looks) found(key, ptr(at, key, i), looks);
      }
    } else {
      const looks = typeof value === "string" ? secretValue(value) : null;
      if (looks) found(key, ptr(at, key), looks);
    }
  }
}

// § "Requested Schema": "Clients that support defaults SHOULD pre-populate form fields with these values."
function checkDefaultsApplied(schema: Json, content: Json, at: string, ctx: CheckContext): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  // Made only when some property has a default: most forms have none.
  let required: Set<unknown> | undefined;
  for (const [key, def] of Object.entries(properties)) {
    if (!isObject(def) || !has(def, "default")) continue;
    required ??= new Set(Array.isArray(schema.required) ? schema.required : []);
    if (required.has(key) || has(content, key)) continue;
    ctx.report({
      rule: "result-defaults-applied",
      pointer: at,
      message: `The accepted answer omits "${key}", which has the default ${JSON.stringify(def.default)}; clients should pre-fill defaults and send them back.`,
    });
  }
}
