// Entry points of the exact payload rules: one elicitation request (EP) or one ElicitResult (ER) at a time.
// Which rules apply follows the revision in force (validate.ts eraOf); flow-level rules live elsewhere.
import type { CheckContext } from "./context.ts";
import { checkFormSafety } from "./form.ts";
import { checkRequestParams } from "./request.ts";
import { checkResult } from "./result.ts";
import { checkRequestedSchema } from "./schema.ts";
import { checkElicitationIdRemoved, checkUrlParams } from "./url.ts";
import { eraOf, isObject, isR2Plus } from "./validate.ts";

/** mode(EP): EP.mode if a string, else "form" (§ "Elicitation Requests": a missing mode means form). */
export function elicitMode(ep: unknown): string {
  return isObject(ep) && typeof ep.mode === "string" ? ep.mode : "form";
}

/**
 * EP = the elicitation request params object: `params` of elicitation/create (2025-xx), an entry of -32042
 * error.data.elicitations (2025-11-25), or inputRequests.<key>.params (2026-07-28). `at` is the JSON pointer
 * (RFC 6901) of EP inside the JSON-RPC message. `where` says which of the three it is.
 */
export function checkElicitParams(ep: unknown, at: string, ctx: CheckContext, where: "server-request" | "url-required-error" | "input-request"): void {
  // A non-object -32042 entry or input request is err-url-required-shape's or mrtr-input-request-method's.
  if (!isObject(ep) && where !== "server-request") return;
  const era = eraOf(ctx.revision);
  const params = checkRequestParams(ep, at, ctx, era, where);
  if (!params) return;
  // A -32042 in 2026-07-28 is already err-url-required-revision; its elicitationId is part of that mistake.
  if (era === "2026-07-28" && where !== "url-required-error") checkElicitationIdRemoved(params, at, ctx);
  if (where === "url-required-error") {
    if (isR2Plus(era)) checkUrlParams(params, at, ctx, era, true);
    return;
  }
  // 2025-06-18 has no mode: every request is a form.
  const mode = era === "2025-06-18" ? "form" : elicitMode(params);
  if (mode === "form") {
    if (isObject(params.requestedSchema)) checkRequestedSchema(params.requestedSchema, `${at}/requestedSchema`, ctx, era);
    checkFormSafety(params, at, ctx, era);
  } else if (mode === "url") checkUrlParams(params, at, ctx, era, false);
}

/**
 * ER = the ElicitResult: `result` of the client's JSON-RPC response (2025-xx, at "/result") or
 * params.inputResponses.<key> (2026-07-28). `ep` is the matching request params when known.
 */
export function checkElicitResult(er: unknown, ep: unknown | undefined, at: string, ctx: CheckContext, where: "response" | "input-response"): void {
  const era = eraOf(ctx.revision);
  const mode = ep === undefined ? null : era === "2025-06-18" ? "form" : elicitMode(ep);
  checkResult(er, ep, mode, at, ctx, era, where === "input-response");
}
