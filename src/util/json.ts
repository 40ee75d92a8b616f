// Small helpers over parsed JSON values, shared by every layer (protocol, capture, engine, panel).

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * How many own enumerable members an object has, counting no further than `limit`: asks like "empty?" or
 * "exactly one?" without the array Object.keys builds (these run for every request and elicitation).
 */
export function countKeys(o: object, limit: number): number {
  let n = 0;
  for (const key in o) {
    if (!Object.prototype.hasOwnProperty.call(o, key)) continue;
    if (++n >= limit) break;
  }
  return n;
}

export const isEmptyObject = (o: object): boolean => countKeys(o, 1) === 0;

/**
 * JSON with object keys sorted, for comparing `arguments` across retries. `value` is parsed JSON (no undefined,
 * functions or toJSON methods), so when its keys are sorted already at every depth, as most arguments are,
 * JSON.stringify writes the same text, in one flat string, far faster than building it here piece by piece.
 */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === "object" && keysSorted(value)) return JSON.stringify(value);
  return joinCanonical(value);
}

/** Whether every object in `value` lists its keys in sorted order (canonicalJson's order). */
function keysSorted(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === "object" && !keysSorted(v)) return false;
    }
    return true;
  }
  let previous: string | undefined;
  // for…in with an own-member test visits the keys in Object.keys order, without building the array.
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (previous !== undefined && previous > key) return false;
    previous = key;
    const v = (value as Record<string, unknown>)[key];
    if (v !== null && typeof v === "object" && !keysSorted(v)) return false;
  }
  return true;
}

function joinCanonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return out + "]";
  }
  const keys = Object.keys(value);
  // Most objects are written with sorted keys already (or have one); sort only when they are not.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = "{";
  for (let i = 0; i < keys.length; i++) out += (i ? "," : "") + JSON.stringify(keys[i]) + ":" + canonicalJson((value as Record<string, unknown>)[keys[i]!]);
  return out + "}";
}
