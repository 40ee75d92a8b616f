/**
 * Reads what it can from a HAR that `JSON.parse` refused — usually one cut short (a crashed export, a copy that
 * stopped, a size limit). One pass over the text tracks containers and object keys, skipping strings with
 * `indexOf`; each complete element of `log.entries` (and `log.creator`, `log.pages`) is handed to `JSON.parse`
 * on its own, so an entry with a syntax error costs that entry only.
 */
export interface SalvagedHar {
  creator?: unknown;
  pages?: unknown;
  /** Complete entries by index; a hole is an entry whose own text would not parse (see `brokenEntries`). */
  entries: unknown[];
  brokenEntries: { index: number; error: string }[];
  /** A `log.entries` array was found. */
  foundEntries: boolean;
  /** The text ended with containers open. */
  truncated: boolean;
  /** Index of the entry the text ended inside, when it did. */
  cutInEntry: number | null;
}

interface Frame {
  array: boolean;
  /** The key whose value is being read (objects only). */
  key: string | undefined;
  expectKey: boolean;
  start: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Index of the quote closing the string opened at `open`, or -1 when the text ends first. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

export function salvageHar(text: string): SalvagedHar {
  const out: SalvagedHar = { entries: [], brokenEntries: [], foundEntries: false, truncated: false, cutInEntry: null };
  const stack: Frame[] = [];
  // stack[0] the root object, stack[1] `log`, stack[2] `log.entries`, stack[3] one entry.
  const inLog = (): boolean => stack.length >= 2 && !stack[0]!.array && stack[0]!.key === "log" && !stack[1]!.array;
  const inEntries = (): boolean => stack.length >= 3 && inLog() && stack[1]!.key === "entries" && stack[2]!.array;
  // Counting commas rather than objects keeps indexes right when an element is not an object.
  let entryIndex = 0;
  let unbalanced = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break;
      const top = stack[stack.length - 1];
      if (top && !top.array && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          top.key = undefined;
        }
        top.expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (stack.length === 2 && inLog() && stack[1]!.key === "entries" && c === OPEN_BRACKET) out.foundEntries = true;
      stack.push({ array: c === OPEN_BRACKET, key: undefined, expectKey: c === OPEN_BRACE, start: i });
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      const frame = stack.pop();
      if (!frame) {
        unbalanced = true;
        break;
      }
      if (stack.length === 3 && inEntries()) {
        try {
          out.entries[entryIndex] = JSON.parse(text.slice(frame.start, i + 1));
        } catch (error) {
          out.brokenEntries.push({ index: entryIndex, error: error instanceof Error ? error.message : String(error) });
        }
      } else if (stack.length === 2 && inLog() && (stack[1]!.key === "creator" || stack[1]!.key === "pages")) {
        try {
          out[stack[1]!.key] = JSON.parse(text.slice(frame.start, i + 1));
        } catch {
          // Only names the client; the entries matter.
        }
      }
    } else if (c === COMMA) {
      const top = stack[stack.length - 1];
      if (top && !top.array) top.expectKey = true;
      else if (stack.length === 3 && inEntries()) entryIndex++;
    }
    i++;
  }
  if (!unbalanced && stack.length > 0) {
    out.truncated = true;
    if (stack.length > 3 && inEntries()) out.cutInEntry = entryIndex;
  }
  return out;
}
