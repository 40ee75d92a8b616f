/** RFC 6901 JSON pointer from path segments. */
export function pointer(...parts: (string | number)[]): string {
  let out = "";
  for (const p of parts) {
    const s = String(p);
    out += "/" + (s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s);
  }
  return out;
}
/** Appends segments to an existing pointer. */
export const join = (base: string, ...parts: (string | number)[]): string => base + pointer(...parts);

/** JSON with object keys sorted, for comparing `arguments` across retries. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson((value as Record<string, unknown>)[k])).join(",") + "}";
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
