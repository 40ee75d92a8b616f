/**
 * The text of one JSON value, read across pieces of text: where it ends is found from its strings (each string's
 * end with `indexOf`, backslashes counted) and its bracket depth, without parsing it — `JSON.parse` reads the text
 * afterwards, and says whether it is JSON. The text is kept up to `limit` characters; past that only its length.
 */
export interface ValueText {
  /** Undefined past the limit. */
  text: string | undefined;
  length: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** Where a number, `true`, `false` or `null` ends. */
const endsLiteral = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 58;

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

  /** The piece ended inside the value: its part is kept (while the value is within its limit). */
  const more = (text: string): number => {
    length += text.length - start;
    if (length > limit) parts = [];
    else parts.push(start === 0 ? text : text.slice(start));
    start = 0;
    return -1;
  };

  return {
    /** A value starts at `at` (its first character); returns where to read on. */
    begin(text: string, at: number, max: number): number {
      const c = text.charCodeAt(at);
      start = at;
      parts = [];
      length = 0;
      limit = max;
      depth = c === OPEN_BRACE || c === OPEN_BRACKET ? 1 : 0;
      inString = c === QUOTE;
      literal = depth === 0 && !inString;
      slashes = 0;
      return at + 1;
    },

    /** Reads on from `from`: the index just after the value when it ends in this piece, else -1 (then read on in the next piece from 0). */
    read(text: string, from: number): number {
      const n = text.length;
      let i = from;
      if (literal) {
        while (i < n && !endsLiteral(text.charCodeAt(i))) i++;
        return i < n ? i : more(text);
      }
      while (i < n) {
        if (inString) {
          const quote = text.indexOf('"', i);
          let k = quote < 0 ? n : quote;
          while (k > i && text.charCodeAt(k - 1) === BACKSLASH) k--;
          // Only a run of backslashes that reaches back to the piece's start continues one from the piece before.
          const run = (quote < 0 ? n : quote) - k + (k === 0 ? slashes : 0);
          if (quote < 0) {
            slashes = run;
            return more(text);
          }
          slashes = 0;
          i = quote + 1;
          if ((run & 1) === 1) continue;
          inString = false;
          if (depth === 0) return i;
          continue;
        }
        const c = text.charCodeAt(i++);
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i;
      }
      return more(text);
    },

    /** The value that `read` found ending at `end` of this piece. */
    take(text: string, end: number): ValueText {
      const total = length + end - start;
      const value = total > limit ? undefined : parts.length === 0 ? text.slice(start, end) : parts.join("") + text.slice(0, end);
      parts = [];
      return { text: value, length: total };
    },
  };
}
