// Form-mode content safety (rules.md §3.5): secrets requested in a form, and clickable links in one.
import type { CheckContext } from "./context.ts";
import type { RuleMeta, Severity } from "./types.ts";
import { askedTerm, isProfileLabel, secretTerm } from "../../util/secrets.ts";
import { isObject, isR2Plus, ptr } from "./validate.ts";
import type { Era, Json } from "./validate.ts";

export const meta: readonly RuleMeta[] = [
  { id: "form-secret-field", severity: "error", severityNote: "error (heuristic)", revisions: "all", violator: "server", detection: "heuristic", title: "Passwords, API keys, tokens or payment data requested in form mode", section: "3.5", spec: {revision: null, path: "client/elicitation"} },
  { id: "form-clickable-url", severity: "warning", severityNote: "warning", revisions: "2025-11-25, 2026-07-28", violator: "server", detection: "exact (regex `\\b[a-z][a-z0-9+.-]*://\\S+` and `www\\.\\S+`)", title: "Clickable URL inside a form-mode request", section: "3.5", spec: {revision: null, path: "client/elicitation"} },
];

export function checkFormSafety(ep: Json, at: string, ctx: CheckContext, era: Era): void {
  const schema = isObject(ep.requestedSchema) ? ep.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  checkSecretFields(ep, properties, at, ctx, era);
  checkClickableUrls(ep, properties, at, ctx, era);
}

const isSelect = (def: Json): boolean => def.type === "array" || "enum" in def || "oneOf" in def;

/** The heuristic itself is documented in secrets.ts. */
function checkSecretFields(ep: Json, properties: Json, at: string, ctx: CheckContext, era: Era): void {
  const r1 = era === "2025-06-18";
  // 2025-06-18 has no URL mode to send the user to; it forbids sensitive requests outright.
  const remedy = r1 ? "2025-06-18 servers must not request sensitive information through elicitation" : "passwords, API keys, tokens and payment credentials must go through URL mode, not a form";
  const report = (pointer: string, what: string, identity: boolean) =>
    ctx.report({ rule: "form-secret-field", ...(identity ? { severity: "warning" as Severity } : {}), pointer, message: `${what}; ${identity ? "identity numbers are sensitive information, which 2025-06-18 servers must not request" : remedy}.` });
  // Tries credentials first, then (2025-06-18 only) identity numbers at warning.
  const find = (match: (text: string, opts: { identity?: boolean }) => string | null, text: string): [string, boolean] | null => {
    const term = match(text, {});
    if (term) return [term, false];
    const identity = r1 ? match(text, { identity: true }) : null;
    return identity ? [identity, true] : null;
  };
  let fieldFlagged = false;
  for (const [key, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    const p = ptr(at, "requestedSchema", "properties", key);
    if (def.writeOnly === true || def.format === "password") {
      fieldFlagged = true;
      report(p, `Form field "${key}" is marked as a secret input (${def.writeOnly === true ? "writeOnly: true" : 'format "password"'})`, false);
      continue;
    }
    // A quantity, a yes/no or a choice among listed options is about a credential, not the credential.
    if (def.type === "number" || def.type === "integer" || def.type === "boolean" || isSelect(def)) continue;
    const title = typeof def.title === "string" ? def.title : "";
    const description = typeof def.description === "string" ? def.description : "";
    const hits: [string, [string, boolean] | null][] = [
      ["name", find(secretTerm, key)],
      ["title", title ? find(secretTerm, title) : null],
      ["description", description && !isProfileLabel(`${key} ${title}`) ? find(askedTerm, description) : null],
    ];
    const hit = hits.find(([, h]) => h);
    if (!hit?.[1]) continue;
    fieldFlagged = true;
    report(p, `Form field "${key}" asks for a secret: its ${hit[0]} matches "${hit[1][0]}"`, hit[1][1]);
  }
  // The message alone counts only if the form has somewhere to type the answer.
  const freeText = Object.values(properties).some((d) => isObject(d) && d.type === "string" && !isSelect(d));
  if (!fieldFlagged && freeText && typeof ep.message === "string") {
    const hit = find(askedTerm, ep.message);
    if (hit) report(ptr(at, "message"), `The form's message asks for a secret: it matches "${hit[0]}"`, hit[1]);
  }
}

// Server item 3: "SHOULD NOT include URLs intended to be clickable in any field of a form mode
// elicitation request" (advice only in 2025-06-18, which has no such clause).
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\bwww\.\S+/i;

function checkClickableUrls(ep: Json, properties: Json, at: string, ctx: CheckContext, era: Era): void {
  const strings: [string, unknown][] = [[ptr(at, "message"), ep.message]];
  for (const [key, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    const p = ptr(at, "requestedSchema", "properties", key);
    strings.push([ptr(p, "title"), def.title], [ptr(p, "description"), def.description]);
    // A format "uri" field asks the user for a URL; its default is input, not a link.
    if (def.format !== "uri") {
      if (Array.isArray(def.default)) def.default.forEach((v, i) => strings.push([ptr(p, "default", i), v]));
      else strings.push([ptr(p, "default"), def.default]);
    }
    const list = (arr: unknown, base: string, fields: string[] | null) => {
      if (!Array.isArray(arr)) return;
      arr.forEach((o, i) => {
        if (!fields) strings.push([ptr(base, i), o]);
        else if (isObject(o)) for (const f of fields) strings.push([ptr(base, i, f), o[f]]);
      });
    };
    list(def.enum, ptr(p, "enum"), null);
    list(def.oneOf, ptr(p, "oneOf"), ["const", "title"]);
    const items = isObject(def.items) ? def.items : {};
    list(items.enum, ptr(p, "items", "enum"), null);
    list(items.anyOf, ptr(p, "items", "anyOf"), ["const", "title"]);
  }
  for (const [pointer, value] of strings) {
    const m = typeof value === "string" ? LINK.exec(value) : null;
    if (!m) continue;
    const link = m[0].length > 60 ? m[0].slice(0, 60) + "…" : m[0];
    ctx.report({ rule: "form-clickable-url", ...(isR2Plus(era) ? {} : { severity: "info" as Severity }), pointer, message: `${pointer.slice(at.length + 1)} contains a link (${link}); form-mode requests should not carry clickable URLs — use URL mode to send the user somewhere.` });
  }
}
