import { isObject } from "./pointer.ts";
import type { Revision } from "../protocol/revision.ts";

/**
 * The modes a client declared (rules.md §3.1 "Capability evaluation"): absent → none; 2025-06-18 → form;
 * `{}` → form ("an empty capabilities object is equivalent to declaring support for form mode only");
 * otherwise the keys form and url. `{url:{}}` alone means URL only.
 */
export function declaredModes(caps: unknown, revision: Revision | null): Set<string> {
  const decl = isObject(caps) ? caps.elicitation : undefined;
  if (decl === undefined || decl === null) return new Set();
  if (revision === "2025-06-18") return new Set(["form"]);
  if (!isObject(decl)) return new Set();
  const keys = Object.keys(decl);
  if (keys.length === 0) return new Set(["form"]);
  const modes = new Set<string>();
  if ("form" in decl) modes.add("form");
  if ("url" in decl) modes.add("url");
  return modes;
}

export const declaresElicitation = (caps: unknown): boolean => isObject(caps) && caps.elicitation !== undefined;

