import { createValueReader, type Parsed } from "../jsonValue.ts";

/**
 * The cheap pass of a HAR import: reads the document as it arrives, in pieces of text of any size, and hands on
 * each element of `log.entries` and `log._mcpRecords` and `log.creator`, each parsed on its own by `JSON.parse`
 * (jsonValue.ts), in whatever order the log holds them — never the whole document as one text or one object
 * tree. This pass only follows the document's outline: the root object, `log`, its arrays.
 *
 * It also reads a document that is not valid JSON, as far as it can: a syntax error outside the entries is noted
 * (the first one says why) and the pass goes on; an entry that does not parse costs that entry only; a document
 * cut short says where it ends. Other members (`version`, `pages`, …) are checked by `JSON.parse` when small.
 */
export interface ScanHandler {
  /** `log.creator`, parsed. */
  creator(parsed: Parsed): void;
  /** One element of `log.entries`, parsed (index counts elements). */
  entry(index: number, parsed: Parsed): void;
  /** One element of `log._mcpRecords`, parsed. */
  record(index: number, parsed: Parsed): void;
}

export interface ScanEnd {
  /** Nothing but whitespace. */
  empty: boolean;
  /** The document does not begin with `{`: its text when small enough to be parsed for the reason. */
  foreign?: { text: string | undefined };
  /** A `log.entries` array was found. */
  foundEntries: boolean;
  /** The text ended inside the document. */
  truncated: boolean;
  /** The entry the text ended inside, when it did. */
  cutInEntry: number | null;
  /** Why the document is not valid JSON (the first reason found), when it is not. */
  error?: string;
  /** Entries that parsed. */
  entries: number;
}

const QUOTE = 34;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/** Other members are checked only up to this size, and a document that is not a HAR is read only so far. */
const KEEP_OTHER = 16 * 2 ** 20;
/** Just under the longest string V8 makes (2^29 - 24 characters). */
const KEEP_ELEMENT = 2 ** 29 - 2 ** 20;
const KEEP_KEY = 2 ** 20;

/** Where the outline stands: the root object, `log`, or one of log's arrays. */
const enum Level {
  Top,
  Root,
  Log,
  Array,
}
const enum Expect {
  Value,
  Key,
  Colon,
  Next,
  Done,
}
/** What the value being read is. */
const enum Kind {
  Key,
  Entry,
  Record,
  Creator,
  Other,
}

export function createHarScanner(on: ScanHandler) {
  let level = Level.Top;
  let expect = Expect.Value;
  /** Right after `{` or `[`: a close is not a trailing comma. */
  let first = true;
  let key: string | undefined;
  let array: Kind.Entry | Kind.Record = Kind.Entry;
  const seen = { log: false, entries: false, records: false };
  let started = false;
  let foreign: { parts: string[]; length: number } | undefined;
  let error: string | undefined;
  let entryIndex = 0;
  let recordIndex = 0;
  let parsedEntries = 0;
  const reader = createValueReader();
  /** The value being read, if any. */
  let reading: Kind | undefined;
  /** Characters before the piece being read, for the positions in syntax errors. */
  let offset = 0;
  /** Text after the document: not read. */
  let after = false;

  const syntax = (message: string): void => void (error ??= message);
  const unexpected = (c: number, at: number): void =>
    syntax(
      `Unexpected ${c === QUOTE ? "string" : `character ${JSON.stringify(String.fromCharCode(c))}`} at position ${offset + at}`,
    );

  /** Reads a value whole, from `at`; returns where the outline goes on (the piece's length when the value goes on in the next). */
  const read = (kind: Kind, text: string, at: number): number => {
    reading = kind;
    reader.begin(
      text,
      at,
      kind === Kind.Entry || kind === Kind.Record ? KEEP_ELEMENT : kind === Kind.Key ? KEEP_KEY : KEEP_OTHER,
    );
    return readOn(text, at + 1);
  };
  const readOn = (text: string, from: number): number => {
    const got = reader.read(text, from);
    if (!got) {
      reader.more(text);
      return text.length;
    }
    const kind = reading!;
    reading = undefined;
    done(kind, got.parsed);
    return got.end;
  };

  /** A value read whole, handed on. */
  const done = (kind: Kind, parsed: Parsed): void => {
    expect = kind === Kind.Key ? Expect.Colon : Expect.Next;
    const why = "error" in parsed ? parsed.error : undefined;
    switch (kind) {
      case Kind.Key:
        key = "value" in parsed && typeof parsed.value === "string" ? parsed.value : undefined;
        if (why !== undefined) syntax(why);
        return;
      case Kind.Entry:
        on.entry(entryIndex, parsed);
        if (why !== undefined) syntax(`${why} (in entry ${entryIndex})`);
        else if ("value" in parsed) parsedEntries++;
        entryIndex++;
        return;
      case Kind.Record:
        on.record(recordIndex, parsed);
        if (why !== undefined) syntax(`${why} (in log._mcpRecords[${recordIndex}])`);
        recordIndex++;
        return;
      case Kind.Creator:
        on.creator(parsed);
        if (why !== undefined) syntax(why);
        return;
      case Kind.Other:
        if (why !== undefined) syntax(why);
    }
  };

  /** Goes into one of the outline's own containers. */
  const enter = (to: Level, next: Expect): void => {
    level = to;
    expect = next;
    first = true;
  };

  /** A value where the outline expects one: one of the outline's own containers, or a value read whole. */
  const value = (text: string, i: number, c: number): number => {
    if (level === Level.Top) {
      started = true;
      if (c !== OPEN_BRACE) {
        // Not a HAR: the rest is kept only to say why.
        foreign = { parts: [text.slice(i)], length: text.length - i };
        return text.length;
      }
      enter(Level.Root, Expect.Key);
      return i + 1;
    }
    if (level === Level.Root && key === "log" && c === OPEN_BRACE && !seen.log) {
      seen.log = true;
      enter(Level.Log, Expect.Key);
      return i + 1;
    }
    if (
      level === Level.Log &&
      c === OPEN_BRACKET &&
      ((key === "entries" && !seen.entries) || (key === "_mcpRecords" && !seen.records))
    ) {
      array = key === "entries" ? Kind.Entry : Kind.Record;
      if (array === Kind.Entry) seen.entries = true;
      else seen.records = true;
      enter(Level.Array, Expect.Value);
      return i + 1;
    }
    return read(
      level === Level.Array ? array : level === Level.Log && key === "creator" ? Kind.Creator : Kind.Other,
      text,
      i,
    );
  };

  const close = (c: number, at: number): void => {
    if (c !== (level === Level.Array ? CLOSE_BRACKET : CLOSE_BRACE)) unexpected(c, at);
    level = level === Level.Array ? Level.Log : level === Level.Log ? Level.Root : Level.Top;
    expect = level === Level.Top ? Expect.Done : Expect.Next;
    first = false;
  };

  /** One character of the outline at `i` (not whitespace); returns where to go on. */
  const step = (text: string, i: number, c: number): number => {
    switch (expect) {
      case Expect.Done:
        syntax(`Unexpected non-whitespace character after JSON at position ${offset + i}`);
        after = true;
        return text.length;
      case Expect.Key:
        if (c === QUOTE) return read(Kind.Key, text, i);
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (!first)
            syntax(
              `Unexpected character ${JSON.stringify(String.fromCharCode(c))} after a comma at position ${offset + i}`,
            );
          close(c, i);
        } else unexpected(c, i);
        return i + 1;
      case Expect.Colon:
        expect = Expect.Value;
        if (c === COLON) return i + 1;
        unexpected(c, i);
        return i;
      case Expect.Value:
        if (level === Level.Top) return value(text, i, c);
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (!first || level !== Level.Array)
            syntax(
              `Unexpected character ${JSON.stringify(String.fromCharCode(c))} where a value belongs at position ${offset + i}`,
            );
          close(c, i);
          return i + 1;
        }
        if (c === COMMA || c === COLON) {
          unexpected(c, i);
          if (level !== Level.Array) expect = Expect.Key;
          return i + 1;
        }
        return value(text, i, c);
      case Expect.Next:
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          close(c, i);
          return i + 1;
        }
        expect = level === Level.Array ? Expect.Value : Expect.Key;
        first = false;
        if (c === COMMA) return i + 1;
        // A missing comma: read on as if it were there.
        syntax(
          `Expected ',' or '${level === Level.Array ? "]" : "}"}' after ${level === Level.Array ? "an array element" : "a property value"} at position ${offset + i}`,
        );
        return i;
    }
  };

  return {
    /** The next piece of the document's text. */
    write(text: string): void {
      if (foreign) {
        if (foreign.length + text.length <= KEEP_OTHER) foreign.parts.push(text);
        foreign.length += text.length;
        return;
      }
      if (after) return;
      const n = text.length;
      let i = reading === undefined ? 0 : readOn(text, 0);
      while (i < n) {
        const c = text.charCodeAt(i);
        i = isSpace(c) ? i + 1 : step(text, i, c);
      }
      offset += n;
    },
    end(): ScanEnd {
      const common = { foundEntries: seen.entries, entries: parsedEntries };
      if (foreign)
        return {
          empty: false,
          foreign: { text: foreign.length <= KEEP_OTHER ? foreign.parts.join("") : undefined },
          truncated: false,
          cutInEntry: null,
          ...common,
        };
      if (!started) return { empty: true, truncated: false, cutInEntry: null, ...common };
      const truncated = level !== Level.Top || reading !== undefined;
      if (truncated) syntax("Unexpected end of JSON input");
      return {
        empty: false,
        truncated,
        cutInEntry: reading === Kind.Entry ? entryIndex : null,
        ...(error !== undefined && { error }),
        ...common,
      };
    },
  };
}
