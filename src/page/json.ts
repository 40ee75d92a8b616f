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
  StringPrototypeValueOf,
} from "./primordials.ts";

/** Deeper than any JSON-RPC message; a structured clone may hold cycles, which JSON.stringify refuses too. */
const MAX_DEPTH = 200;

/**
 * The JSON text of page data — a `JSON.parse` result (XHR `responseType = "json"`) or a structured clone (a
 * `message` event's data) — without running page code. `JSON.stringify` asks every object it meets for `toJSON`,
 * through prototypes where a page may have put a getter (T9 in test/extension/TAP-BUGS.md): the page would see the
 * tap serialize its data. When `Object.prototype` and `Array.prototype` have no own `toJSON` (looking at own
 * properties runs nothing) and the value is a JSON.parse result, JSON.stringify finds nothing to run and is used
 * as is; otherwise the value is walked through own data properties only, as JSON.stringify would write it, except
 * that no `toJSON` of the page's is called (a Date is written as JSON.stringify's built-in would). Throws on a cycle
 * or a BigInt, as JSON.stringify does; undefined where JSON.stringify gives undefined.
 */
export function dataJson(value: unknown, parsed: boolean): string | undefined {
  if (parsed && ReflectGetOwnPropertyDescriptor(ObjectPrototype, "toJSON") === undefined && ReflectGetOwnPropertyDescriptor(ArrayPrototype, "toJSON") === undefined) return JSONStringify(value);
  return walk(value, 0, []);
}

function walk(value: unknown, depth: number, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case "string":
      return JSONStringify(value);
    case "number":
      return NumberIsFinite(value) ? NumberPrototypeToString(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new TypeError("BigInt value in page data");
    case "object":
      break;
    default:
      return undefined; // undefined, functions, symbols
  }
  if (value === null) return "null";
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
    for (let i = 0; i < length; i++) {
      const own = ReflectGetOwnPropertyDescriptor(value, `${i}`);
      out += `${i === 0 ? "" : ","}${(own && "value" in own ? walk(own.value, depth + 1, ancestors) : undefined) ?? "null"}`;
    }
    out += "]";
  } else {
    out = "{";
    let first = true;
    const keys = ReflectOwnKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (typeof key !== "string") continue;
      const own = ReflectGetOwnPropertyDescriptor(value, key);
      // Structured clones and JSON.parse results have only enumerable data properties; an accessor is skipped
      // rather than run.
      if (!own || !own.enumerable || !("value" in own)) continue;
      const json = walk(own.value, depth + 1, ancestors);
      if (json === undefined) continue;
      out += `${first ? "" : ","}${JSONStringify(key)}:${json}`;
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
