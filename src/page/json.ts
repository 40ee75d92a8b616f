import {
  append,
  ArrayIsArray,
  ArrayPrototype,
  BooleanPrototypeValueOf,
  DatePrototypeGetTime,
  DatePrototypeToISOString,
  JSONStringify,
  NumberIsFinite,
  NumberPrototypeToString,
  NumberPrototypeValueOf,
  ObjectPrototype,
  ReflectGetOwnPropertyDescriptor,
  ReflectGetPrototypeOf,
  ReflectOwnKeys,
  StringPrototypeSlice,
  StringPrototypeValueOf,
} from "./primordials.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";

/** Deeper than any JSON-RPC message; a structured clone may hold cycles, which JSON.stringify refuses too. */
const MAX_DEPTH = 200;

/** Steps (array slots, object keys, values) of the last walk: tests read it to see the bound hold. */
export let lastSteps = 0;

/**
 * The JSON text of page data — a `JSON.parse` result (XHR `responseType = "json"`) or a structured clone (a
 * `message` event's data) — cut at `cap` as `capped` cuts a text, without running page code, and with work bounded
 * by `cap` before the walk starts. `JSON.stringify` asks every object it meets for `toJSON` (an own one a page
 * planted on `xhr.response`, or a getter on a prototype: T9 in test/extension/TAP-BUGS.md), and loops to an array's
 * `length` whatever it holds: a sparse array of length 2³²−1 survives structured clone in 44 bytes and would keep it
 * writing `null` for minutes. So the value is walked here, through own data properties only, as JSON.stringify would
 * write it, except that no `toJSON` of the page's is called (a Date is written as JSON.stringify's built-in would).
 * The walk gives up at once, the text cut to nothing, on meeting what cannot fit in what is left of the cap — an
 * array whose length alone needs more characters (a slot writes at least one and a comma), a longer string — and
 * otherwise stops once it has written more than `cap` characters of values and keys or taken `cap` steps (a step
 * writes at least a character, except a member whose value writes nothing; a message of `cap` characters takes
 * fewer). Throws on a cycle or a BigInt, as JSON.stringify does; undefined where JSON.stringify gives undefined.
 */
export function dataJson(value: unknown, cap = MESSAGE_CAP): { text: string; truncated?: number } | undefined {
  const budget: Budget = { chars: cap, steps: cap };
  let text: string | undefined;
  try {
    text = walk(value, 0, [], budget);
  } catch (error) {
    lastSteps = cap - budget.steps;
    if (error === CUT) return { text: "", truncated: 0 };
    throw error;
  }
  lastSteps = cap - budget.steps;
  if (text === undefined) return undefined;
  if (budget.chars >= 0 && budget.steps >= 0)
    return text.length > cap ? { text: StringPrototypeSlice(text, 0, cap), truncated: cap } : { text };
  const kept = text.length > cap ? cap : text.length;
  return { text: StringPrototypeSlice(text, 0, kept), truncated: kept };
}

/** Thrown through the walk when what is left cannot fit in the cap: no need to write any of it. */
const CUT = { __proto__: null };

/** What the walk may still write (values and keys, not punctuation) and visit; below 0 it stops. */
interface Budget {
  chars: number;
  steps: number;
}

const spent = (budget: Budget): boolean => budget.chars < 0 || budget.steps < 0;

/** A string's JSON; a string longer than what is left of the cap gives up the walk (its JSON is longer still). */
function stringJson(text: string, budget: Budget): string {
  if (text.length > budget.chars) throw CUT;
  const json = JSONStringify(text);
  budget.chars -= json.length;
  return json;
}

function walk(value: unknown, depth: number, ancestors: object[], budget: Budget): string | undefined {
  budget.steps--;
  switch (typeof value) {
    case "string":
      return stringJson(value, budget);
    case "number": {
      const json = NumberIsFinite(value) ? NumberPrototypeToString(value) : "null";
      budget.chars -= json.length;
      return json;
    }
    case "boolean":
      budget.chars -= value ? 4 : 5;
      return value ? "true" : "false";
    case "bigint":
      throw new TypeError("BigInt value in page data");
    case "object":
      break;
    default:
      return undefined; // undefined, functions, symbols
  }
  if (value === null) {
    budget.chars -= 4;
    return "null";
  }
  const isArray = ArrayIsArray(value);
  const proto = isArray ? ArrayPrototype : ReflectGetPrototypeOf(value);
  if (proto !== ObjectPrototype && proto !== ArrayPrototype && proto !== null) {
    const primitive = unboxed(value);
    if (primitive !== undefined) return primitive;
  }
  if (depth > MAX_DEPTH) throw new TypeError("page data nested too deeply");
  for (let i = 0; i < ancestors.length; i++) if (ancestors[i] === value) throw new TypeError("cyclic page data");
  append(ancestors, value);
  let out: string;
  if (isArray) {
    out = "[";
    const length = (ReflectGetOwnPropertyDescriptor(value, "length")?.value as number) ?? 0;
    if (2 * length - 1 > budget.chars) throw CUT;
    // Every slot writes at least a character: the budget bounds the loop, not the length the array claims.
    for (let i = 0; i < length && !spent(budget); i++) {
      const own = ReflectGetOwnPropertyDescriptor(value, NumberPrototypeToString(i));
      let json = own && "value" in own ? walk(own.value, depth + 1, ancestors, budget) : undefined;
      if (json === undefined) {
        budget.steps--;
        budget.chars -= 4;
        json = "null";
      }
      out += `${i === 0 ? "" : ","}${json}`;
    }
    out += "]";
  } else {
    out = "{";
    let first = true;
    const keys = ReflectOwnKeys(value);
    // Keys whose values write nothing still cost a step each: a million of them end the walk as surely as text.
    for (let i = 0; i < keys.length && !spent(budget); i++) {
      budget.steps--;
      const key = keys[i];
      if (typeof key !== "string") continue;
      const own = ReflectGetOwnPropertyDescriptor(value, key);
      // Structured clones and JSON.parse results have only enumerable data properties; an accessor is skipped
      // rather than run, and an own `toJSON` (a function) writes nothing, as any function member.
      if (!own || !own.enumerable || !("value" in own)) continue;
      const name = stringJson(key, budget);
      const json = walk(own.value, depth + 1, ancestors, budget);
      if (json === undefined) {
        budget.chars += name.length; // not written
        continue;
      }
      out += `${first ? "" : ","}${name}:${json}`;
      first = false;
    }
    out += "}";
  }
  ancestors.length--;
  return out;
}

/** Dates and boxed primitives as JSON.stringify writes them (brand checks, not prototype lookups); else undefined.
 * Only for objects that are not plain: a failed brand check throws, and exceptions are not free. */
function unboxed(value: object): string | undefined {
  try {
    const time = DatePrototypeGetTime(value as Date);
    return NumberIsFinite(time) ? JSONStringify(DatePrototypeToISOString(value as Date)) : "null";
  } catch {
    // not a Date
  }
  try {
    const n = NumberPrototypeValueOf(value as unknown as number);
    return NumberIsFinite(n) ? NumberPrototypeToString(n) : "null";
  } catch {
    // not a Number object
  }
  try {
    return JSONStringify(StringPrototypeValueOf(value as unknown as string));
  } catch {
    // not a String object
  }
  try {
    return BooleanPrototypeValueOf(value as unknown as boolean) ? "true" : "false";
  } catch {
    return undefined;
  }
}
