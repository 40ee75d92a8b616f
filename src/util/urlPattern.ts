/**
 * The decoders' URL patterns (docs/capture-format.md, "Decoders"): a pattern with `*` matches the whole URL, each
 * `*` standing for any run of characters; without one, any URL that contains it. One module for the tap
 * (src/page/decoders.ts) and the importers (src/capture/envelopes/decoders.ts), so the two cannot disagree.
 *
 * Written with string indexing and `length` only, no method of String.prototype: the tap runs in the page, whose
 * scripts may replace those methods (src/page/primordials.ts), and a primitive string's indices and length are
 * its own.
 */
export type UrlPattern = readonly string[];

/** The pattern cut at its `*`s (one part: no wildcard). */
export function compilePattern(pattern: string): UrlPattern {
  const parts: string[] = [];
  let part = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "*") {
      parts[parts.length] = part;
      part = "";
    } else part += pattern[i];
  }
  parts[parts.length] = part;
  return parts;
}

/** Where `part` occurs in `text` at or after `from` (and ends by `end`), or -1. */
function find(text: string, part: string, from: number, end: number): number {
  for (let at = from; at + part.length <= end; at++) {
    let j = 0;
    while (j < part.length && text[at + j] === part[j]) j++;
    if (j === part.length) return at;
  }
  return -1;
}

/** A compiled pattern against a URL: a substring when there was no `*`, else the whole URL, parts in order. */
export function matchesPattern(parts: UrlPattern, url: string): boolean {
  if (parts.length === 1) return find(url, parts[0]!, 0, url.length) !== -1;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (url.length < first.length + last.length) return false;
  if (find(url, first, 0, first.length) !== 0 || find(url, last, url.length - last.length, url.length) === -1)
    return false;
  let at = first.length;
  const end = url.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = find(url, parts[i]!, at, end);
    if (found === -1) return false;
    at = found + parts[i]!.length;
  }
  return true;
}
