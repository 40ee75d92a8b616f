// Rules on the parameters every elicitation request carries (rules.md §3.3), plus adv-message-quality.
import type { CheckContext } from "../ruleKit/context.ts";
import type { RuleMeta } from "../ruleKit/types.ts";
import { codePoints, has, isObject, isR2Plus, jsonType, ptr } from "../ruleKit/validate.ts";
import type { Era, Json } from "../ruleKit/validate.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "req-message-required",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "`message` missing or not a string",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-mode-value",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`mode` ∉ {form, url}",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-mode-r1",
    severity: "error",
    severityNote: "error / info",
    revisions: "2025-06-18",
    violator: "server",
    detection: "exact",
    title: "`mode`, `url` or `elicitationId` used in 2025-06-18",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-form-schema-required",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection: "exact",
    title: "Form mode without `requestedSchema`",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-url-mode-explicit",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: '`url` without `mode:"url"`',
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-cross-mode-fields",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "Fields belonging to the other mode",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "req-r3-legacy-params",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`task` or `_meta` inside input-request params",
    section: "3.3",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "adv-message-quality",
    severity: "info",
    severityNote: "info",
    revisions: "all",
    violator: "server",
    detection: "heuristic",
    title: "Empty or uninformative `message`",
    section: "3.12",
    spec: { revision: null, path: "client/elicitation" },
  },
];

import type { AskedWhere } from "../model/scope.ts";

// Pointer convention for all payload rules: a wrong value is pointed at; a missing member is reported
// at the object that should hold it (a pointer to an absent member would resolve to nothing).

/** req-message-required for params that are not an object (schema.ts: params, and so message, are required on elicitation/create). */
export function checkParamsObject(ep: unknown, at: string, ctx: CheckContext): void {
  if (!ctx.on("req-message-required")) return;
  const missing = ep === undefined;
  ctx.report({
    rule: "req-message-required",
    pointer: missing ? at.replace(/\/[^/]*$/, "") : at,
    message: missing
      ? "The elicitation request has no params, so it has no message."
      : `The elicitation params are ${jsonType(ep)}, not an object with a message.`,
  });
}

/** Checks EP's shared members. */
export function checkRequestParams(ep: Json, at: string, ctx: CheckContext, era: Era, where: AskedWhere): void {
  const { report, on } = ctx;
  if (!has(ep, "message")) {
    if (on("req-message-required"))
      report({
        rule: "req-message-required",
        pointer: at,
        message: "The elicitation request has no message; every elicitation must tell the user what is asked and why.",
      });
  } else if (typeof ep.message !== "string") {
    if (on("req-message-required"))
      report({
        rule: "req-message-required",
        pointer: ptr(at, "message"),
        message: `message must be a string but is ${jsonType(ep.message)}.`,
      });
  } else if (on("adv-message-quality")) checkMessageQuality(ep.message, at, ctx);

  const urlRequired = where === "url-required-error";
  // A url without mode "url" is meant as a URL request: it is not also a form without requestedSchema.
  let urlIntent = false;
  if (era === "2025-06-18") {
    urlIntent = ep.mode === "url" || has(ep, "url");
    if (on("req-mode-r1")) checkModeR1(ep, at, ctx);
  } else {
    if (on("req-mode-value") && has(ep, "mode") && ep.mode !== "form" && ep.mode !== "url") {
      report({
        rule: "req-mode-value",
        pointer: ptr(at, "mode"),
        message: `mode is ${JSON.stringify(ep.mode)}; it must be "form" or "url".`,
      });
    }
    // § "Elicitation Requests": "Clients MUST treat requests without a mode field as form mode."
    urlIntent = !urlRequired && has(ep, "url") && (!has(ep, "mode") || ep.mode === "form");
    if (urlIntent && on("req-url-mode-explicit")) {
      report({
        rule: "req-url-mode-explicit",
        pointer: has(ep, "mode") ? ptr(at, "mode") : at,
        message: `The request has a url but ${has(ep, "mode") ? 'mode "form"' : "no mode"}; URL mode must say mode: "url", and clients will treat this as a form request${has(ep, "requestedSchema") ? "" : " without requestedSchema"}.`,
      });
    }
  }

  const form = !urlRequired && (era === "2025-06-18" || !has(ep, "mode") || ep.mode === "form");
  if (form && !urlIntent && !isObject(ep.requestedSchema) && on("req-form-schema-required")) {
    report({
      rule: "req-form-schema-required",
      pointer: has(ep, "requestedSchema") ? ptr(at, "requestedSchema") : at,
      message: has(ep, "requestedSchema")
        ? `requestedSchema must be an object but is ${jsonType(ep.requestedSchema)}.`
        : "This form-mode request has no requestedSchema; form mode must describe the fields it asks for.",
    });
  }

  if (isR2Plus(era) && on("req-cross-mode-fields")) {
    // schema.ts ElicitRequestFormParams and ElicitRequestURLParams have disjoint members.
    if ((urlRequired || ep.mode === "url") && has(ep, "requestedSchema")) {
      report({
        rule: "req-cross-mode-fields",
        pointer: ptr(at, "requestedSchema"),
        message: "This URL-mode request carries requestedSchema, which belongs to form mode and is ignored.",
      });
    }
    if (form && !urlIntent && era !== "2026-07-28" && has(ep, "elicitationId")) {
      report({
        rule: "req-cross-mode-fields",
        pointer: ptr(at, "elicitationId"),
        message: "This form-mode request carries elicitationId, which belongs to URL mode.",
      });
    }
  }

  // 2026-07-28: input-request params no longer extend TaskAugmentedRequestParams (tasks became an extension).
  if (era === "2026-07-28" && where === "input-request" && on("req-r3-legacy-params")) {
    for (const key of ["task", "_meta"]) {
      if (has(ep, key))
        report({
          rule: "req-r3-legacy-params",
          pointer: ptr(at, key),
          message: `Input-request params carry ${key}, which 2026-07-28 elicitation params no longer have.`,
        });
    }
  }
}

/** req-mode-r1: 2025-06-18 has no URL mode. */
function checkModeR1(ep: Json, at: string, ctx: CheckContext): void {
  if (ep.mode === "url") {
    const extra = ["url", "elicitationId"].filter((k) => has(ep, k));
    ctx.report({
      rule: "req-mode-r1",
      pointer: ptr(at, "mode"),
      message: `mode "url"${extra.length ? ` (with ${extra.join(" and ")})` : ""} does not exist in 2025-06-18, where every elicitation is a form with requestedSchema.`,
    });
    return;
  }
  for (const key of ["url", "elicitationId"]) {
    if (has(ep, key))
      ctx.report({
        rule: "req-mode-r1",
        pointer: ptr(at, key),
        message: `${key} is a URL-mode field, and URL mode does not exist in 2025-06-18.`,
      });
  }
  if (has(ep, "mode"))
    ctx.report({
      rule: "req-mode-r1",
      severity: "info",
      pointer: ptr(at, "mode"),
      message: `mode is not a 2025-06-18 field; it is ignored there (every request is a form).`,
    });
}

// Boilerplate that names neither what is asked nor why (§ "Elicitation Requests": message explains
// "why the interaction is needed").
const GENERIC = new Set([
  "input",
  "input required",
  "user input required",
  "please provide input",
  "enter value",
  "enter values",
  "enter a value",
  "please fill out the form",
  "please fill in the form",
  "fill out the form",
  "fill in the form",
  "more information needed",
  "additional information required",
  "please provide information",
  "please provide the following information",
  "elicitation",
  "form",
]);

function checkMessageQuality(message: string, at: string, ctx: CheckContext): void {
  const text = message.trim();
  const normal = text
    .toLowerCase()
    .replace(/[^a-z ]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const why = !text
    ? "is empty"
    : GENERIC.has(normal)
      ? `(${JSON.stringify(text)}) is boilerplate`
      : codePoints(text) < 10
        ? `(${JSON.stringify(text)}) is very short`
        : null;
  if (why)
    ctx.report({
      rule: "adv-message-quality",
      pointer: ptr(at, "message"),
      message: `message ${why}; tell the user what is being asked and why.`,
    });
}
