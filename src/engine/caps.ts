import { isEmptyObject, isObject } from "../util/json.ts";
import { hasUrlMode, type Revision } from "../protocol/revision.ts";

// Shared answers: this runs for every elicitation, and no caller changes the set it gets.
const NO_MODES: ReadonlySet<string> = new Set();
const FORM: ReadonlySet<string> = new Set(["form"]);
const URL_ONLY: ReadonlySet<string> = new Set(["url"]);
const FORM_AND_URL: ReadonlySet<string> = new Set(["form", "url"]);

/**
 * The modes a client declared (rules.md §3.1 "Capability evaluation"): absent → none; 2025-06-18 → form;
 * `{}` → form ("an empty capabilities object is equivalent to declaring support for form mode only");
 * otherwise the keys form and url. `{url:{}}` alone means URL only.
 */
export function declaredModes(caps: unknown, revision: Revision | null): ReadonlySet<string> {
  const decl = isObject(caps) ? caps.elicitation : undefined;
  if (decl === undefined || decl === null) return NO_MODES;
  if (revision === "2025-06-18") return FORM;
  if (!isObject(decl)) return NO_MODES;
  if (isEmptyObject(decl)) return FORM;
  const form = "form" in decl;
  const url = "url" in decl;
  return form ? (url ? FORM_AND_URL : FORM) : url ? URL_ONLY : NO_MODES;
}

export const declaresElicitation = (caps: unknown): boolean => isObject(caps) && caps.elicitation !== undefined;

/**
 * Whether an elicitation of this mode goes to a client that did not declare it: no elicitation capability at all
 * (cap-elicitation-undeclared), or not this mode where modes exist (cap-mode-undeclared).
 */
export function modeUndeclared(caps: unknown, revision: Revision | null, mode: string): boolean {
  const modes = declaredModes(caps, revision);
  return modes.size === 0 || (hasUrlMode(revision) && (mode === "form" || mode === "url") && !modes.has(mode));
}
