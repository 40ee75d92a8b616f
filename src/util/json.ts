// Small helpers over parsed JSON values, shared by every layer (protocol, capture, engine, panel).

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const isEmptyObject = (o: object): boolean => Object.keys(o).length === 0;

/** JSON with object keys sorted, for comparing `arguments` across retries (`value` is parsed JSON). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return out + "]";
  }
  const keys = Object.keys(value).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++)
    out += (i ? "," : "") + JSON.stringify(keys[i]) + ":" + canonicalJson((value as Record<string, unknown>)[keys[i]!]);
  return out + "}";
}
