// RFC 6901 JSON pointers, as findings and flows name places in a message.
/** One RFC 6901 reference token: `~` → `~0`, `/` → `~1`. */
const token = (part: string | number): string => String(part).replace(/~/g, "~0").replace(/\//g, "~1");

/** RFC 6901 JSON pointer from path segments. */
export function pointer(...parts: (string | number)[]): string {
  let out = "";
  for (const p of parts) out += "/" + token(p);
  return out;
}

/** Appends segments to an existing pointer. */
export function join(base: string, ...parts: (string | number)[]): string {
  return base + pointer(...parts);
}
