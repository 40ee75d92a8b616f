// RFC 6901 JSON pointers, as findings and flows name places in a message.
/** One RFC 6901 reference token: `~` → `~0`, `/` → `~1`. */
const token = (part: string | number): string => {
  if (typeof part === "number") return String(part);
  // The payload rules build a pointer for nearly every member they look at; most names need no escaping.
  return part.includes("~") || part.includes("/") ? part.replace(/~/g, "~0").replace(/\//g, "~1") : part;
};

/** RFC 6901 JSON pointer from path segments. */
export function pointer(...parts: (string | number)[]): string {
  let out = "";
  for (const p of parts) out += "/" + token(p);
  return out;
}

/** Appends segments to an existing pointer. */
export function join(
  base: string,
  a: string | number,
  b?: string | number,
  c?: string | number,
  ...more: (string | number)[]
): string {
  // Fixed parameters instead of a rest array: this runs for nearly every member the rules look at.
  let out = base + "/" + token(a);
  if (b !== undefined) out += "/" + token(b);
  if (c !== undefined) out += "/" + token(c);
  for (const p of more) out += "/" + token(p);
  return out;
}
