import type { CheckContext } from "./context.ts";
import type { AskedWhere as Where } from "../model/scope.ts";
import type { FindingInput } from "./types.ts";
import { eraOf, type Era } from "./validate.ts";

/** The payload rules of one engine on one EP (payload.ts). */
type Check = (ep: unknown, at: string, ctx: CheckContext, where: Where) => void;

interface Checked {
  where: Where;
  era: Era;
  /** The params flattened (see `flatten`): the next params at the same pointer are compared with these. */
  tokens: unknown[];
  findings: readonly FindingInput[];
}

/** Params remembered per pointer, and pointers remembered: bounds memory and keeps each lookup O(1). */
const PER_POINTER = 8;
const POINTERS = 256;

/**
 * The payload rules of an engine (rules/payload.ts, with the rules that are on) are a pure function of the request
 * params (their JSON value, member order included: it orders the findings), their pointer, the revision era and
 * where they sit, and they are most of the engine's work on an elicitation. Servers ask the same form again and again
 * (one tool, one requestedSchema), so an engine remembers the findings of the params it has already checked
 * and replays them when equal params come again at the same pointer (docs/benchmarks.md, "The params cache").
 * One cache per engine run: nothing is shared between runs.
 */
export function createPayloadCache(check: Check) {
  const byPointer = new Map<string, Checked[]>();

  return {
    checkElicitParams(ep: unknown, at: string, ctx: CheckContext, where: Where): void {
      if (typeof ep !== "object" || ep === null) return check(ep, at, ctx, where);
      const era = eraOf(ctx.revision);
      let seen = byPointer.get(at);
      if (seen) {
        for (const c of seen) {
          if (c.where !== where || c.era !== era || matches(c.tokens, 0, ep) < 0) continue;
          for (const input of c.findings) ctx.report(input);
          return;
        }
      } else {
        if (byPointer.size >= POINTERS) byPointer.delete(byPointer.keys().next().value!);
        byPointer.set(at, (seen = []));
      }
      const findings: FindingInput[] = [];
      check(
        ep,
        at,
        { revision: ctx.revision, report: (input) => (findings.push(input), ctx.report(input)), on: ctx.on },
        where,
      );
      if (seen.length >= PER_POINTER) seen.shift();
      const tokens: unknown[] = [];
      flatten(ep, tokens);
      seen.push({ where, era, tokens, findings });
    },
  };
}

/** Marks an object or an array in a flattened value; the next token is its member or element count. */
const OBJECT = Symbol("object");
const ARRAY = Symbol("array");

/**
 * A JSON value as one flat list, in the order `for…in` and `Object.keys` visit it: a primitive is itself; an
 * object is OBJECT, its member count, then each name and value; an array is ARRAY, its length, its elements.
 * Flattened once when the params are remembered, so comparing a new value allocates nothing.
 */
function flatten(value: unknown, out: unknown[]): void {
  if (typeof value !== "object" || value === null) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    out.push(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) flatten(value[i], out);
    return;
  }
  const at = out.length;
  out.push(OBJECT, 0);
  let n = 0;
  for (const key in value) {
    // Parsed JSON has only own members; the test keeps the walk exactly `Object.keys`.
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    out.push(key);
    flatten((value as Record<string, unknown>)[key], out);
    n++;
  }
  out[at + 1] = n;
}

/**
 * Whether `value` equals the flattened value at `tokens[i]` (same JSON value, object members in the same
 * order; parsed JSON: no undefined, no cycles, no NaN): the index after it, or -1.
 */
function matches(tokens: readonly unknown[], i: number, value: unknown): number {
  const t = tokens[i];
  if (typeof value !== "object" || value === null) return t === value ? i + 1 : -1;
  if (Array.isArray(value)) {
    if (t !== ARRAY || tokens[i + 1] !== value.length) return -1;
    i += 2;
    for (let k = 0; k < value.length && i >= 0; k++) i = matches(tokens, i, value[k]);
    return i;
  }
  if (t !== OBJECT) return -1;
  const n = tokens[i + 1] as number;
  i += 2;
  let k = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (k++ === n || tokens[i] !== key) return -1;
    i = matches(tokens, i + 1, (value as Record<string, unknown>)[key]);
    if (i < 0) return -1;
  }
  return k === n ? i : -1;
}
