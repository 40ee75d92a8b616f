// Form-mode content safety (rules.md §3.5): secrets requested in a form, and clickable links in one.
import type { AskedWhere } from "../model/scope.ts";
import type { CheckContext } from "../ruleKit/context.ts";
import type { RuleMeta, Severity } from "../ruleKit/types.ts";
import { asksForInput, isProfile, termIn, words } from "../../util/secrets.ts";
import { pointer as segments } from "../../util/pointer.ts";
import { isObject, isR2Plus, ptr } from "../ruleKit/validate.ts";
import type { Era, Json } from "../ruleKit/validate.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "form-secret-field",
    severity: "error",
    severityNote: "error (heuristic)",
    revisions: "all",
    violator: "server",
    detection: "heuristic",
    title: "Passwords, API keys, tokens or payment data requested in form mode",
    section: "3.5",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "form-clickable-url",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact (regex `\\b[a-z][a-z0-9+.-]*://\\S+` and `www\\.\\S+`)",
    title: "Clickable URL inside a form-mode request",
    section: "3.5",
    spec: { revision: null, path: "client/elicitation" },
  },
];

type FormCheck = (ep: Json, properties: Json, at: string, ctx: CheckContext, era: Era) => void;

/** The family's checks by rule, in the order their findings come: a check runs while its rule is on. */
export const formChecks: Record<"form-secret-field" | "form-clickable-url", FormCheck> = {
  "form-secret-field": checkSecretFields,
  "form-clickable-url": checkClickableUrls,
};

/** The form family on one EP: a form request's content safety. */
export function checkForm(ep: Json, at: string, ctx: CheckContext, era: Era, where: AskedWhere, mode: string): void {
  if (where === "url-required-error" || mode !== "form") return;
  const schema = isObject(ep.requestedSchema) ? ep.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const rule of Object.keys(formChecks) as (keyof typeof formChecks)[]) {
    if (ctx.on(rule)) formChecks[rule](ep, properties, at, ctx, era);
  }
}

const isSelect = (def: Json): boolean => def.type === "array" || "enum" in def || "oneOf" in def;

/** The heuristic itself is documented in secrets.ts. */
function checkSecretFields(ep: Json, properties: Json, at: string, ctx: CheckContext, era: Era): void {
  const r1 = era === "2025-06-18";
  // 2025-06-18 has no URL mode to send the user to; it forbids sensitive requests outright.
  const remedy = r1
    ? "2025-06-18 servers must not request sensitive information through elicitation"
    : "passwords, API keys, tokens and payment credentials must go through URL mode, not a form";
  const report = (pointer: string, what: string, identity: boolean) =>
    ctx.report({
      rule: "form-secret-field",
      ...(identity ? { severity: "warning" as Severity } : {}),
      pointer,
      message: `${what}; ${identity ? "identity numbers are sensitive information, which 2025-06-18 servers must not request" : remedy}.`,
    });
  // Tries credentials first, then (2025-06-18 only) identity numbers at warning. Each text is split into words once.
  const find = (ws: readonly string[]): [string, boolean] | null => {
    const term = termIn(ws);
    if (term) return [term, false];
    const identity = r1 ? termIn(ws, { identity: true }) : null;
    return identity ? [identity, true] : null;
  };
  let fieldFlagged = false;
  for (const [key, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    if (def.writeOnly === true || def.format === "password") {
      fieldFlagged = true;
      report(
        ptr(at, "requestedSchema", "properties", key),
        `Form field "${key}" is marked as a secret input (${def.writeOnly === true ? "writeOnly: true" : 'format "password"'})`,
        false,
      );
      continue;
    }
    // A quantity, a yes/no or a choice among listed options is about a credential, not the credential.
    if (def.type === "number" || def.type === "integer" || def.type === "boolean" || isSelect(def)) continue;
    const title = typeof def.title === "string" ? def.title : "";
    const description = typeof def.description === "string" ? def.description : "";
    // The name, then the title, then the description: the first that matches is the one named. The name and title
    // are labels; the description counts only if it asks and the labels do not say the field is profile data.
    const keyWords = words(key);
    const titleWords = title ? words(title) : [];
    let where = "name";
    let hit = find(keyWords);
    if (!hit && title) {
      where = "title";
      hit = find(titleWords);
    }
    if (!hit && description && !isProfile(keyWords) && !isProfile(titleWords) && asksForInput(description)) {
      where = "description";
      hit = find(words(description));
    }
    if (!hit) continue;
    fieldFlagged = true;
    report(
      ptr(at, "requestedSchema", "properties", key),
      `Form field "${key}" asks for a secret: its ${where} matches "${hit[0]}"`,
      hit[1],
    );
  }
  // The message alone counts only if the form has somewhere to type the answer, and it asks.
  if (
    fieldFlagged ||
    typeof ep.message !== "string" ||
    !Object.values(properties).some((d) => isObject(d) && d.type === "string" && !isSelect(d))
  )
    return;
  const hit = asksForInput(ep.message) ? find(words(ep.message)) : null;
  if (hit) report(ptr(at, "message"), `The form's message asks for a secret: it matches "${hit[0]}"`, hit[1]);
}

// Server item 3: "SHOULD NOT include URLs intended to be clickable in any field of a form mode
// elicitation request" (advice only in 2025-06-18, which has no such clause).
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\bwww\.\S+/i;

function checkClickableUrls(ep: Json, properties: Json, at: string, ctx: CheckContext, era: Era): void {
  // Each string is tested where the walk meets it, and its pointer made only when it holds a link.
  const check = (value: unknown, base: string, ...parts: (string | number)[]): void => {
    const m = typeof value === "string" ? LINK.exec(value) : null;
    if (!m) return;
    const pointer = base + segments(...parts);
    const link = m[0].length > 60 ? m[0].slice(0, 60) + "…" : m[0];
    ctx.report({
      rule: "form-clickable-url",
      ...(isR2Plus(era) ? {} : { severity: "info" as Severity }),
      pointer,
      message: `${pointer.slice(at.length + 1)} contains a link (${link}); form-mode requests should not carry clickable URLs — use URL mode to send the user somewhere.`,
    });
  };
  const options = (list: unknown, p: string, ...parts: string[]): void => {
    if (Array.isArray(list)) list.forEach((o, i) => check(o, p, ...parts, i));
  };
  const titled = (list: unknown, p: string, ...parts: string[]): void => {
    if (!Array.isArray(list)) return;
    list.forEach((o, i) => {
      if (isObject(o)) for (const f of ["const", "title"]) check(o[f], p, ...parts, i, f);
    });
  };
  check(ep.message, at, "message");
  for (const [key, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    const p = ptr(at, "requestedSchema", "properties", key);
    check(def.title, p, "title");
    check(def.description, p, "description");
    // A format "uri" field asks the user for a URL; its default is input, not a link.
    if (def.format !== "uri") {
      if (Array.isArray(def.default)) def.default.forEach((v, i) => check(v, p, "default", i));
      else check(def.default, p, "default");
    }
    options(def.enum, p, "enum");
    titled(def.oneOf, p, "oneOf");
    const items = isObject(def.items) ? def.items : {};
    options(items.enum, p, "items", "enum");
    titled(items.anyOf, p, "items", "anyOf");
  }
}
