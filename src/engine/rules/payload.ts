// The exact payload rules: one elicitation request (EP) or one ElicitResult (ER) at a time, judged by the families
// request.ts, url.ts, schema.ts, form.ts (EP) and result.ts (ER). Which rules apply follows the revision in force
// (validate.ts eraOf); flow-level rules live in the other modules. A family runs only while one of its rules is on,
// and inside a family a rule's check only while that rule is on (`--disable`).
import { elicitMode } from "../../protocol/modes.ts";
import { createPayloadCache } from "../ruleKit/payloadCache.ts";
import type { CheckContext } from "../ruleKit/context.ts";
import { checkForm, meta as formMeta } from "./form.ts";
import { checkParamsObject, checkRequestParams, meta as requestMeta } from "./request.ts";
import { checkResult, meta as resultMeta } from "./result.ts";
import { checkSchema, meta as schemaMeta } from "./schema.ts";
import type { RuleId, RuleMeta, RuleModule } from "../ruleKit/types.ts";
import { checkUrl, meta as urlMeta } from "./url.ts";
import { eraOf, isObject, type Era, type Json } from "../ruleKit/validate.ts";
import type { AskedWhere } from "../model/scope.ts";

export { elicitMode };

/** A family's checks of one EP, an object: where it sits, and the era and mode in force. */
export type AskedCheck = (ep: Json, at: string, ctx: CheckContext, era: Era, where: AskedWhere, mode: string) => void;

/** The payload families, each a file of its own, in the order their findings come. */
export const families = { request: requestMeta, url: urlMeta, schema: schemaMeta, form: formMeta, result: resultMeta };

export const meta: readonly RuleMeta[] = Object.values(families).flat();

/** The checks of the families that judge an EP (result.ts judges the answer), by family. */
export const askedFamilies: Record<Exclude<keyof typeof families, "result">, AskedCheck> = {
  request: checkRequestParams,
  url: checkUrl,
  schema: checkSchema,
  form: checkForm,
};

/** The checks of the EP families that have a rule on, picked once per engine. */
function askedChecks(on: (id: RuleId) => boolean): AskedCheck[] {
  return (Object.keys(askedFamilies) as (keyof typeof askedFamilies)[])
    .filter((family) => families[family].some((r) => on(r.id)))
    .map((family) => askedFamilies[family]);
}

/** Runs `checks` on one EP (see checkElicitParams). */
function checkAsked(
  checks: readonly AskedCheck[],
  ep: unknown,
  at: string,
  ctx: CheckContext,
  where: AskedWhere,
): void {
  if (!isObject(ep)) {
    // A non-object -32042 entry or input request is err-url-required-shape's or mrtr-input-request-method's.
    if (where === "server-request") checkParamsObject(ep, at, ctx);
    return;
  }
  const era = eraOf(ctx.revision);
  // 2025-06-18 has no mode: every request is a form.
  const mode = era === "2025-06-18" ? "form" : elicitMode(ep);
  for (const check of checks) check(ep, at, ctx, era, where, mode);
}

/**
 * ER = the ElicitResult: `result` of the client's JSON-RPC response (2025-xx, at "/result") or
 * params.inputResponses.<key> (2026-07-28). `ep` is the matching request params when known.
 */
function checkElicitResult(
  er: unknown,
  ep: unknown | undefined,
  at: string,
  ctx: CheckContext,
  where: "response" | "input-response",
): void {
  const era = eraOf(ctx.revision);
  const mode = ep === undefined ? null : era === "2025-06-18" ? "form" : elicitMode(ep);
  checkResult(er, ep, mode, at, ctx, era, where === "input-response");
}

/**
 * One module for the families, which share one walk of each payload and the payload cache: a family whose rules
 * are all off is left out of the walk.
 */
export const payload: RuleModule = {
  meta,
  create({ report, on }) {
    const ctx: CheckContext = { revision: null, report, on };
    const checks = askedChecks(on);
    const cache = createPayloadCache((ep, at, c, where) => checkAsked(checks, ep, at, c, where));
    return {
      ...(checks.length > 0 && {
        elicitationAsked({ ep, pointer, where, revision }) {
          ctx.revision = revision;
          cache.checkElicitParams(ep, pointer, ctx, where);
        },
      }),
      ...(resultMeta.some((r) => on(r.id)) && {
        elicitationAnswered({ er, ep, pointer, kind, revision }) {
          ctx.revision = revision;
          checkElicitResult(er, ep, pointer, ctx, kind === "mrtr" ? "input-response" : "response");
        },
      }),
    };
  },
};
