/**
 * One JSON value of a document read in pieces of text, parsed by `JSON.parse` once its end is found.
 *
 * Where it ends is found from its strings (each string's end with `indexOf`, backslashes counted) and its bracket
 * depth. A container that starts a line is first looked for as a pretty-printer writes it (Chrome, Firefox and
 * Playwright all do): up to the next line that holds only its indentation and its closing bracket, found by one
 * `indexOf`. A raw line break is never inside a JSON string, and `JSON.parse` reads a container exactly to its
 * close, so a text cut there that parses is the value; one that does not is read again character by character.
 * The text is kept up to `limit` characters; past that only its length is counted.
 */
export type Parsed = { value: unknown } | { error: string } | { tooLarge: number };

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** Where a number, `true`, `false` or `null` ends. */
const endsLiteral = (c: number): boolean =>
  c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 58;

export const parseText = (text: string): Parsed => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

export function createValueReader() {
  let start = 0;
  let parts: string[] = [];
  let length = 0;
  let limit = 0;
  let depth = 0;
  let inString = false;
  let literal = false;
  /** Backslashes just before the start of this piece, inside a string. */
  let slashes = 0;
  /** The line that closes the value if a pretty-printer wrote it ("\n", its indentation, its bracket), while it may still be used. */
  let closer: string | undefined;
  /** Values in a row whose closing line was not where a pretty-printer puts it: past a few, the document is not written so. */
  let misses = 0;

  /** Reads character by character from `from`: just after the value's end in this piece, or -1. */
  const scan = (text: string, from: number): number => {
    const n = text.length;
    let i = from;
    if (literal) {
      while (i < n && !endsLiteral(text.charCodeAt(i))) i++;
      return i < n ? i : -1;
    }
    // The state in locals while the loop runs, written back when the piece ends; the loop calls nothing but
    // `indexOf` (a rare call inside it would make the optimised loop bail out at every piece's end).
    let d = depth;
    let quoted = inString;
    while (i < n) {
      if (quoted) {
        const quote = text.indexOf('"', i);
        let k = quote < 0 ? n : quote;
        while (k > i && text.charCodeAt(k - 1) === BACKSLASH) k--;
        // Only a run of backslashes that reaches back to the piece's start continues one from the piece before.
        const run = (quote < 0 ? n : quote) - k + (k === 0 ? slashes : 0);
        if (quote < 0) {
          slashes = run;
          break;
        }
        slashes = 0;
        i = quote + 1;
        if ((run & 1) === 1) continue;
        quoted = false;
        if (d === 0) return i;
        continue;
      }
      const c = text.charCodeAt(i++);
      if (c === QUOTE) quoted = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) d++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --d === 0) return i;
    }
    depth = d;
    inString = quoted;
    return -1;
  };

  const textTo = (text: string, end: number): string | undefined => {
    if (length + end - start > limit) return undefined;
    return parts.length === 0 ? text.slice(start, end) : parts.join("") + text.slice(0, end);
  };

  return {
    /** A value starts at `at` (its first character) of this piece, kept up to `max` characters; read on from `at + 1`. */
    begin(text: string, at: number, max: number): void {
      const c = text.charCodeAt(at);
      start = at;
      parts = [];
      length = 0;
      limit = max;
      depth = c === OPEN_BRACE || c === OPEN_BRACKET ? 1 : 0;
      inString = c === QUOTE;
      literal = depth === 0 && !inString;
      slashes = 0;
      closer = undefined;
      if (depth === 1 && misses < 8) {
        let k = at - 1;
        while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k--;
        if (k >= 0 && text.charCodeAt(k) === 10 && at - k <= 64)
          closer = `\n${text.slice(k + 1, at)}${c === OPEN_BRACE ? "}" : "]"}`;
      }
    },

    /**
     * Reads on in this piece (from just after the value's first character in the piece it began in, from 0 in the
     * next ones): the value and where it ended, or undefined when it goes on in the next piece (then `more`).
     */
    read(text: string, from: number): { end: number; parsed: Parsed } | undefined {
      if (closer !== undefined) {
        const line = text.indexOf(closer, from);
        if (line >= 0) {
          const end = line + closer.length;
          const value = textTo(text, end);
          const parsed = value === undefined ? undefined : parseText(value);
          if (parsed && "value" in parsed) {
            misses = 0;
            return { end, parsed };
          }
        }
        closer = undefined;
        misses++;
      }
      const end = scan(text, from);
      if (end < 0) return undefined;
      const value = textTo(text, end);
      return { end, parsed: value === undefined ? { tooLarge: length + end - start } : parseText(value) };
    },

    /** The piece ended inside the value: its part is kept (while the value is within its limit). */
    more(text: string): void {
      closer = undefined;
      length += text.length - start;
      if (length > limit) parts = [];
      else parts.push(start === 0 ? text : text.slice(start));
      start = 0;
    },
  };
}
