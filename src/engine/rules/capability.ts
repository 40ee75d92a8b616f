import type { Revision } from "../../protocol/revision.ts";
import { hasUrlMode } from "../../protocol/revision.ts";
import { declaredModes } from "../caps.ts";
import { isEmptyObject, isObject } from "../pointer.ts";
import type { Report } from "./types.ts";

const kind = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/**
 * cap-client-shape: `elicitation`, `form` and `url` are objects (schema.ts ClientCapabilities); a non-empty
 * `elicitation` object must name a mode ("Clients declaring the elicitation capability MUST support at least one mode").
 * `at` points at the capabilities object.
 */
export function checkClientCapsShape(caps: unknown, at: string, revision: Revision | null, report: Report): void {
  if (!isObject(caps) || !("elicitation" in caps)) return;
  const decl = caps.elicitation;
  if (!isObject(decl)) {
    report({ rule: "cap-client-shape", pointer: `${at}/elicitation`, message: `capabilities.elicitation is ${kind(decl)}; it must be an object.` });
    return;
  }
  if (revision === "2025-06-18") return;
  for (const mode of ["form", "url"] as const) {
    if (mode in decl && !isObject(decl[mode])) {
      report({ rule: "cap-client-shape", pointer: `${at}/elicitation/${mode}`, message: `capabilities.elicitation.${mode} is ${kind(decl[mode])}; it must be an object.` });
    }
  }
  // The member list is made only for the message.
  if (!("form" in decl) && !("url" in decl) && !isEmptyObject(decl)) {
    const keys = Object.keys(decl);
    report({
      rule: "cap-client-shape",
      severity: "warning",
      pointer: `${at}/elicitation`,
      message: `capabilities.elicitation {${keys.join(", ")}} names neither form nor url, so it declares no mode; only an empty object means form.`,
    });
  }
}

/**
 * cap-elicitation-undeclared and cap-mode-undeclared for one elicitation request (§3.1).
 * Returns true when the mode was not declared (the client should then answer -32602 in 2025-11-25).
 */
export function checkModeDeclared(caps: unknown, capsAt: string, revision: Revision | null, mode: string, at: string, report: Report): boolean {
  const modes = declaredModes(caps, revision);
  if (modes.size === 0) {
    report({
      rule: "cap-elicitation-undeclared",
      pointer: at,
      message: `Server sent an elicitation although the client's capabilities (${capsAt}) declare no elicitation.`,
    });
    return true;
  }
  if (hasUrlMode(revision) && (mode === "form" || mode === "url") && !modes.has(mode)) {
    report({
      rule: "cap-mode-undeclared",
      pointer: at,
      message: `Server sent a ${mode}-mode elicitation but the client declared only ${[...modes].join(" and ")} mode.`,
    });
    return true;
  }
  return false;
}
