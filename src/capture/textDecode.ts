import type { Problem } from "./problem.ts";
import { notUtf8, utf16Of } from "./textChecks.ts";

/**
 * A capture file's bytes as text, piece by piece. UTF-8, its BOM dropped; UTF-16 with a BOM is decoded as such
 * (Windows tools write it); UTF-16 without one is refused with its name, as importing it as UTF-8 would only give
 * NULs. A UTF-8 sequence split between two pieces waits for the next one: each piece is decoded whole up to its
 * last complete sequence (a TextDecoder in stream mode does the same at half the speed, in Node 20).
 */
export interface CaptureDecoder {
  /** The text these bytes complete ("" while the first bytes are still too few to tell the encoding). */
  write(bytes: Uint8Array): string;
  end(): string;
  /** Set once the bytes are known not to be text this importer reads. */
  readonly refused: Problem | undefined;
}

/** Enough to tell UTF-16 without a BOM by its NULs (textChecks.ts looks at 64 characters). */
const SNIFF = 128;

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** Where the last UTF-8 sequence of `bytes` starts if it is incomplete, else the length. */
function completeUpTo(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needs > back ? n - back : n;
  }
  return n;
}

export function createCaptureDecoder(file: string): CaptureDecoder {
  let decoder: TextDecoder | undefined;
  let utf8 = true;
  /** Bytes not decoded yet: the head while the encoding is not known, then an incomplete last sequence. */
  let pending: Uint8Array = new Uint8Array(0);
  let first = true;
  let refused: Problem | undefined;

  const decode = (bytes: Uint8Array, last: boolean): string => {
    if (!utf8) return decoder!.decode(bytes, { stream: !last });
    const whole = pending.length ? concat(pending, bytes) : bytes;
    const upTo = last ? whole.length : completeUpTo(whole);
    pending = whole.slice(upTo);
    let text = decoder!.decode(whole.subarray(0, upTo));
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text) first = false;
    return text;
  };

  const start = (last: boolean): string => {
    const bytes = pending;
    pending = new Uint8Array(0);
    const label =
      bytes[0] === 0xff && bytes[1] === 0xfe
        ? "utf-16le"
        : bytes[0] === 0xfe && bytes[1] === 0xff
          ? "utf-16be"
          : "utf-8";
    utf8 = label === "utf-8";
    if (utf8) {
      const head = new TextDecoder().decode(bytes.subarray(0, SNIFF));
      const encoding = head === "" ? undefined : utf16Of(head);
      if (encoding) {
        refused = notUtf8(file, encoding);
        return "";
      }
    }
    // The BOM of UTF-8 is dropped by hand: a whole-piece decode would drop one at the start of every piece.
    decoder = new TextDecoder(label, utf8 ? { ignoreBOM: true } : {});
    return decode(bytes, last);
  };

  return {
    write(bytes) {
      if (refused) return "";
      if (decoder) return decode(bytes, false);
      pending = concat(pending, bytes);
      return pending.length < SNIFF ? "" : start(false);
    },
    end() {
      if (refused) return "";
      if (!decoder) return start(true);
      return decode(new Uint8Array(0), true);
    },
    get refused() {
      return refused;
    },
  };
}
