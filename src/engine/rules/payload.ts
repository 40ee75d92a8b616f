// The exact payload rules: one elicitation request (EP) or one ElicitResult (ER) at a time, walked once by the
// families request.ts, url.ts, schema.ts, form.ts and result.ts. Which rules apply follows the revision in force
// (validate.ts eraOf); flow-level rules live in the other modules.
import { elicitMode } from "../../protocol/modes.ts";
import { createPayloadCache } from "./payloadCache.ts";
import type { CheckContext } from "./context.ts";
import { checkFormSafety, meta as formMeta } from "./form.ts";
import { checkRequestParams, meta as requestMeta } from "./request.ts";
import { checkResult, meta as resultMeta } from "./result.ts";
import { checkRequestedSchema, meta as schemaMeta } from "./schema.ts";
import type { RuleModule } from "./types.ts";
import { checkElicitationIdRemoved, checkUrlParams, meta as urlMeta } from "./url.ts";
import { eraOf, isObject, isR2Plus } from "./validate.ts";

export { elicitMode };

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

/**
 * One module for the families, which share one walk of each payload: it runs while any of their rules is on,
 * and the findings of rules that are off are dropped.
 */
export const payload: RuleModule = {
  meta: [...requestMeta, ...urlMeta, ...schemaMeta, ...formMeta, ...resultMeta],
  create({ report }) {
    const cache = createPayloadCache();
    const ctx: CheckContext = { revision: null, report };
    return {
      elicitationAsked({ ep, pointer, where, revision }) {
        ctx.revision = revision;
        cache.checkElicitParams(ep, pointer, ctx, where);
      },
      elicitationAnswered({ er, ep, pointer, kind, revision }) {
        ctx.revision = revision;
        checkElicitResult(er, ep, pointer, ctx, kind === "mrtr" ? "input-response" : "response");
      },
    };
  },
};
