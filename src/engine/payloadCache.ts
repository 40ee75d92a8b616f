import { checkElicitParams } from "./rules/payload.ts";
import type { CheckContext } from "./rules/context.ts";
import type { FindingInput } from "./rules/types.ts";
import { eraOf, type Era } from "./rules/validate.ts";

type Where = Parameters<typeof checkElicitParams>[3];

interface Checked {
  where: Where;
  era: Era;
  /** The params as parsed; compared member by member, in order, with the next ones at the same pointer. */
  ep: object;
  findings: readonly FindingInput[];
}

/** Params remembered per pointer, and pointers remembered: bounds memory and keeps each lookup O(1). */
const PER_POINTER = 8;
const POINTERS = 256;

/**
 * The payload rules (rules/payload.ts checkElicitParams) are a pure function of the request params (their
 * JSON value, member order included: it orders the findings), their pointer, the revision era and where they
 * sit, and they are most of the engine's work on an elicitation. Servers ask the same form again and again
 * (one tool, one requestedSchema), so an engine remembers the findings of the params it has already checked
 * and replays them when equal params come again at the same pointer. Comparing two parsed values costs a
 * fraction of checking one, and far less than serialising it to make a key.
 * One cache per engine run: nothing is shared between runs.
 */
export function createPayloadCache() {
  const byPointer = new Map<string, Checked[]>();

  return {
    checkElicitParams(ep: unknown, at: string, ctx: CheckContext, where: Where): void {
      if (typeof ep !== "object" || ep === null) return checkElicitParams(ep, at, ctx, where);
      const era = eraOf(ctx.revision);
      let seen = byPointer.get(at);
      if (seen) {
        for (const c of seen) {
          if (c.where !== where || c.era !== era || !sameJson(c.ep, ep)) continue;
          for (const input of c.findings) ctx.report(input);
          return;
        }
      } else {
        if (byPointer.size >= POINTERS) byPointer.delete(byPointer.keys().next().value!);
        byPointer.set(at, (seen = []));
      }
      const findings: FindingInput[] = [];
      checkElicitParams(ep, at, { revision: ctx.revision, report: (input) => (findings.push(input), ctx.report(input)) }, where);
      if (seen.length >= PER_POINTER) seen.shift();
      seen.push({ where, era, ep, findings });
    },
  };
}

/** Equal JSON values, object members in the same order (parsed JSON: no undefined, no cycles, no NaN). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
