/**
 * Depth bounds for captured JSON. `JSON.parse` reads any depth (it does not recurse), but every recursive walk
 * after it — `JSON.stringify`, the rules, redaction, the panel's views — overflows the stack somewhere past ten
 * thousand levels. No MCP message nests anywhere near MAX_DEPTH; a capture that does is hostile or broken, and
 * what lies deeper is cut off (replaced by TOO_DEEP) before anything walks it, so the rest is still analysed.
 */
export const MAX_DEPTH = 200;
export const TOO_DEEP = `[nested deeper than ${MAX_DEPTH} levels: not analysed]`;

/** How deep `value` nests (a primitive: 0, `{}`: 1), counted no further than `limit + 1`; iterative. */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  if (value === null || typeof value !== "object") return 0;
  const values: object[] = [value];
  const depths: number[] = [1];
  let deepest = 1;
  while (values.length > 0) {
    const v = values.pop()!;
    const d = depths.pop()!;
    if (d > deepest) deepest = d;
    if (deepest > limit) return deepest;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c: unknown = v[i];
        if (c !== null && typeof c === "object") {
          values.push(c);
          depths.push(d + 1);
        }
      }
    } else {
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        const c: unknown = (v as Record<string, unknown>)[key];
        if (c !== null && typeof c === "object") {
          values.push(c);
          depths.push(d + 1);
        }
      }
    }
  }
  return deepest;
}

/** One RFC 6901 reference token. */
const token = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Cuts `value` (parsed JSON, changed in place) below `max` levels: every object or array at depth `max` that
 * holds objects or arrays gets TOO_DEEP in their place. Returns the JSON pointers of the values cut (the
 * first `keep` of them, and how many in all), or undefined when nothing was that deep. Iterative.
 */
export function cutDeep(value: unknown, max = MAX_DEPTH, keep = 3): { pointers: string[]; count: number } | undefined {
  if (depthOf(value, max) <= max) return undefined;
  const pointers: string[] = [];
  let count = 0;
  const stack: { v: object; d: number; at: string }[] = [{ v: value as object, d: 1, at: "" }];
  while (stack.length > 0) {
    const { v, d, at } = stack.pop()!;
    const visit = (c: unknown, key: string, set: () => void): void => {
      if (c === null || typeof c !== "object") return;
      const where = `${at}/${key}`;
      if (d < max) return void stack.push({ v: c, d: d + 1, at: where });
      set();
      if (count++ < keep) pointers.push(where);
    };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], String(i), () => (v[i] = TOO_DEEP));
    } else {
      for (const key in v) {
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        visit((v as Record<string, unknown>)[key], token(key), () => ((v as Record<string, unknown>)[key] = TOO_DEEP));
      }
    }
  }
  return { pointers, count };
}

/** Parses JSON text and cuts it at MAX_DEPTH (`cutDeep`); throws what JSON.parse throws. */
export function parseBounded(text: string): { value: unknown; cut: { pointers: string[]; count: number } | undefined } {
  const value: unknown = JSON.parse(text);
  // A value nested d levels deep is at least 2d characters long: short texts need no walk.
  return { value, cut: text.length <= 2 * MAX_DEPTH ? undefined : cutDeep(value) };
}

/** What a depth cut tells the user: where, and that the rest was still read. */
export function describeCut(cut: { pointers: string[]; count: number }): string {
  const more = cut.count > cut.pointers.length ? ` and ${cut.count - cut.pointers.length} more` : "";
  const named = cut.pointers.map((p) => (p.length > 160 ? `${p.slice(0, 160)}…` : p));
  return `JSON nested deeper than ${MAX_DEPTH} levels at ${named.join(", ")}${more}: the part below is not analysed; the rest of the message is.`;
}
