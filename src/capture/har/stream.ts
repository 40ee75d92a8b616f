import { checkRecord } from "../checkRecord.ts";
import type { Problem } from "../problem.ts";
import { createUnwrapper, envelopeEndpoints, type Decoder } from "../envelopes/index.ts";
import { errorText, importEntry, type EntryContext, type EntryOut } from "./entry.ts";
import { createHarScanner, type ScanEnd } from "./scan.ts";
import { createRecordWindow, CREATOR_PENDING } from "./window.ts";
import type { CaptureRecord } from "../record.ts";
import { createCaptureDecoder } from "../textDecode.ts";

/**
 * HAR import, streaming: the file is read piece by piece and never held as one text or one object tree. The scanner
 * (scan.ts) cuts out each entry's text, `JSON.parse` reads it, entry.ts makes its records, and the record
 * window (window.ts) hands them on in time order. Never throws on bad input: what cannot be read is a problem
 * and the rest is still imported. `importHar` (import.ts) is this over one text.
 */
export interface ImportOptions {
  /** Decode-as rules (src/capture/envelopes): traffic to their URLs carries MCP at their pointers. */
  rules?: readonly Decoder[];
}

export interface HarImportOptions extends ImportOptions {
  /** The records, in time order and numbered, a batch at a time, as soon as nothing still to read can precede them. */
  onRecords?(records: CaptureRecord[]): void;
  /** Bytes of records (about) held whole before the import streams (window.ts); 0 streams from the start. */
  window?: number;
  /** Bytes (about) the streaming import holds before it settles and lets go the endpoints idle longest (horizon.ts). */
  hold?: number;
}

export interface HarStreamOptions extends HarImportOptions {
  /** Stops the import between two pieces: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes read so far, after each piece. */
  onProgress?(bytes: number): void;
}

export interface HarImportResult {
  problems: Problem[];
  /** Records handed to onRecords. */
  records: number;
  /** The most the streaming window held at once (bytes, about; at most `hold`); 0 for a capture held whole. */
  held: number;
}

/** Past about this much memory of records a HAR import streams instead of settling the whole capture at the end. */
export const WINDOW = 16 * 2 ** 20;
/** What the streaming import holds at most (about), whatever the order of the entries. */
export const HOLD = 4 * 2 ** 20;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);
const mb = (chars: number): string => `${Math.round(chars / 2 ** 20)} MB`;

/** A HAR's bytes (a Node stream, a web ReadableStream, any AsyncIterable of pieces), imported as they come. */
export async function importHarStream(
  source: AsyncIterable<Uint8Array>,
  file: string,
  options: HarStreamOptions = {},
): Promise<HarImportResult> {
  const importer = createHarImport(file, options);
  const decoder = createCaptureDecoder(file);
  let bytes = 0;
  for await (const piece of source) {
    options.signal?.throwIfAborted();
    bytes += piece.byteLength;
    importer.write(decoder.write(piece));
    if (decoder.refused) return { problems: [decoder.refused], records: 0, held: 0 };
    options.onProgress?.(bytes);
  }
  importer.write(decoder.end());
  if (decoder.refused) return { problems: [decoder.refused], records: 0, held: 0 };
  return importer.end();
}

/** The import over text pieces, synchronously: `write` each, then `end`. */
export function createHarImport(file: string, options: HarImportOptions = {}) {
  const problems: Problem[] = [];
  let records = 0;
  let creator: string | undefined;
  const unwrap = createUnwrapper(options.rules ? { rules: options.rules } : {});
  const window = createRecordWindow({
    file,
    problems,
    unwrap,
    budget: options.window ?? WINDOW,
    hold: options.hold ?? HOLD,
    creator: () => creator ?? "",
    deliver(batch) {
      records += batch.length;
      options.onRecords?.(batch);
    },
  });
  const ctx: EntryContext = {
    file,
    creator: CREATOR_PENDING,
    lastTime: 0,
    problems,
    envelope: envelopeEndpoints(options.rules),
  };

  const scanner = createHarScanner({
    creator(parsed) {
      if (!("value" in parsed)) return;
      const value = parsed.value;
      ctx.creator = creator = isObj(value) ? [str(value.name), str(value.version)].filter(Boolean).join(" ") : "";
    },
    entry(index, parsed) {
      if ("tooLarge" in parsed)
        return void problems.push({
          file,
          entry: index,
          message: `entry ${index} is too large to read (${mb(parsed.tooLarge)} of text); skipped`,
        });
      if ("error" in parsed)
        return void problems.push({
          file,
          entry: index,
          message: `entry ${index} is not valid JSON (${parsed.error}); skipped`,
        });
      const out: EntryOut = { drafts: [], ...(ctx.creator === CREATOR_PENDING && { creatorPending: true }) };
      let start: number | undefined;
      try {
        start = importEntry(parsed.value, index, ctx, out);
        if (start !== undefined) ctx.lastTime = start;
      } catch (error) {
        return void problems.push({
          file,
          entry: index,
          message: `entry ${index} could not be imported (${errorText(error)}); skipped`,
        });
      }
      window.entry(index, out, start);
    },
    record(index, parsed) {
      const where = `log._mcpRecords[${index}]`;
      if ("tooLarge" in parsed) return void problems.push({ file, message: `${where} is too large to read; skipped` });
      if ("error" in parsed)
        return void problems.push({ file, message: `${where} is not valid JSON (${parsed.error}); skipped` });
      const record = checkRecord(parsed.value);
      if (record.success) window.extra(record.data);
      else
        problems.push({
          file,
          message: `${where} is not a capture record (${record.error.issues[0]?.message ?? "invalid"}); skipped`,
        });
    },
  });

  return {
    write(text: string): void {
      if (text !== "") scanner.write(text);
    },
    end(): HarImportResult {
      const scan = scanner.end();
      const refused = notAHar(scan, file);
      if (refused) return { problems: [refused], records: 0, held: 0 };
      window.finish();
      const cut = scan.truncated || scan.error !== undefined ? damaged(scan, file) : undefined;
      return { problems: cut ? [cut, ...problems] : problems, records, held: window.peak() };
    },
  };
}

/** The one problem of a file that is not a HAR at all. */
function notAHar(scan: ScanEnd, file: string): Problem | undefined {
  if (scan.empty) return { file, message: "the file is empty: no capture records" };
  if (scan.foreign) {
    let reason = 'it does not begin with "{"';
    if (scan.foreign.text !== undefined) {
      try {
        JSON.parse(scan.foreign.text);
        return { file, message: "not a HAR file: no log.entries array" };
      } catch (error) {
        reason = errorText(error);
      }
    }
    return { file, message: `not a HAR file: not JSON (${reason})` };
  }
  if (scan.foundEntries) return undefined;
  if (scan.error === undefined) return { file, message: "not a HAR file: no log.entries array" };
  return {
    file,
    message: `not a HAR file: ${scan.truncated ? "truncated" : "invalid JSON"} before any log.entries (${scan.error})`,
  };
}

/** What a HAR that is not valid JSON, or is cut short, is said to be: the first problem of its import. */
function damaged(scan: ScanEnd, file: string): Problem {
  const where = scan.cutInEntry !== null ? ` inside entry ${scan.cutInEntry}` : "";
  return {
    file,
    ...(scan.cutInEntry !== null && { entry: scan.cutInEntry }),
    message: scan.truncated
      ? `truncated HAR: the file ends${where} (${scan.error}); imported the ${scan.entries} complete entries before the cut`
      : `invalid JSON in the HAR (${scan.error}); imported the entries that parse on their own`,
  };
}
