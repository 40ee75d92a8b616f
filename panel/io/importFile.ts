import type { EngineOptions } from "../../src/engine/index.ts";
import { createUnwrapper, type Decoder } from "../../src/capture/envelopes/index.ts";
import { importHarStream } from "../../src/capture/har/stream.ts";
import { detectFormat } from "../../src/capture/import.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Problem } from "../../src/engine/index.ts";
import type { Changes, ImportCounts } from "./changes.ts";
import { readHead } from "../../src/capture/head.ts";
import { fileBytes, textOf, type ImportSource } from "./fileRead.ts";
import { createFeeder, type Feeder } from "./importFeed.ts";

export type { ImportSource };

/** One step of an import: what the engine made of the records since the last step, and how far the import is. */
export interface ImportProgress extends ImportCounts {
  /** Flows (their latest state), findings, problems and records: added to what the steps before gave. */
  changes: Changes;
  /** Everything the steps before gave is void: the file is read again whole (a JSONL file whose seqs must be renumbered). */
  restart?: true;
  /** The last step. */
  done: boolean;
}

export interface ImportResult {
  format: "har" | "jsonl";
  records: number;
  flows: number;
  findings: number;
  problems: Problem[];
  /** The progressive path gave up and the file was imported whole (a JSONL file whose seqs must be renumbered). */
  whole: boolean;
}

/** Analysis time between two progress steps (the first step goes out as soon as there are rows to show). */
const STEP_MS = 40;

export type ImportOptions = {
  /** Decode rules for the envelope stage (the extension worker's). */
  rules?: readonly Decoder[];
  /** The engine settings (rule levels, strict profile): the worker's, as the panel has them. */
  engine?: EngineOptions;
  /** Analysis time between two steps, in ms (STEP_MS); 0 makes a step of every piece, as tests of the step flow need. */
  stepMs?: number;
  /** Stops the import between two pieces: importFile rejects with the signal's reason. */
  signal?: AbortSignal;
};
/** Text handed to the importer at once (whole lines, about this many characters); less until the first rows show. */
const PIECE = 64 * 1024;
const FIRST_PIECE = 16 * 1024;
/** Bytes of a HAR handed to its importer at once (a stream's chunk can be megabytes), and records to the engine. */
const HAR_PIECE = 256 * 1024;
const SLICE = 500;

/** Every `"seq":` that is a member name (one inside a string is always preceded by a backslash). */
const SEQ_MEMBER = /(?<!\\)"seq"\s*:/g;
const count = (re: RegExp, text: string): number => {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
};

/**
 * What hears each step. It may return a promise: the import then waits for it before going on (the import worker
 * uses that to hear the panel, which acknowledges each step it has shown: importer.ts).
 */
export type OnProgress = (progress: ImportProgress) => void | Promise<void>;

/**
 * A HAR or JSONL file through the same engine as the extension's worker and the CLI, in steps while it is read:
 * the first flows go out long before a large file is through. This runs in the panel's import worker
 * (importer.ts), which posts each step to the panel; the panel shows them (startImport.ts).
 *
 * JSONL is read piece by piece (whole lines) with the canonical importer (src/capture/jsonl.ts). That equals
 * importing it whole exactly when every record carries its seq in increasing order and no line is bad; when a
 * piece shows otherwise (a problem, a record without seq, a seq going backwards), the file is imported again
 * whole (a step with `restart`), so flows, findings and problems are always those of `mcp-elicit lint`. HAR goes
 * through the CLI's streaming importer (importHarProgressively, below), never read whole. Both go through the envelope stage with the decode rules given
 * (the extension worker's, so a file reads as the tab would), as `mcp-elicit lint --decode` does.
 */
export async function importFile(
  file: ImportSource,
  onProgress: OnProgress,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const stepMs = options.stepMs ?? STEP_MS;
  const read = { bytes: 0 };
  /** Bytes of the file read (JSONL), or handed to the importer (HAR, read ahead of it by a piece). */
  let bytes = (): number => read.bytes;
  const size = file.size ?? 0;
  const feed = createFeeder((changes, done, restart) => {
    const step: ImportProgress = {
      changes,
      records: feed.records(),
      bytes: bytes(),
      size: Math.max(size, bytes()),
      done,
    };
    const total = feed.total();
    if (total !== undefined) step.total = total;
    if (restart) step.restart = true;
    return onProgress(step);
  }, options.engine);
  const rules = options.rules ?? [];
  const { signal } = options;
  signal?.throwIfAborted();
  const head = await readHead(fileBytes(file, read), 4096);
  const format = detectFormat(head.text, file.name);
  if (format === "har") {
    let imported = 0;
    bytes = () => imported;
    const problems = await importHarProgressively(head.all, file.name, feed, {
      rules,
      stepMs,
      signal,
      onBytes: (n) => (imported = n),
    });
    for (const p of problems) feed.problems.push(p);
    return { format, ...(await feed.finish()), problems: feed.problems, whole: false };
  }

  // Not `for await … break`: leaving that loop would close the generator.
  const chunks = textOf(head.all, head.encoding);
  if (await importJsonlProgressively(chunks, file.name, feed, rules, stepMs, signal))
    return { format, ...(await feed.finish()), problems: feed.problems, whole: false };
  // Read again rather than keep every chunk in memory for this rare case, and whole: steps with no changes say how
  // much is read.
  await chunks.return(undefined);
  feed.restart();
  const pieces: string[] = [];
  let stepStart = performance.now();
  let chars = 0;
  for await (const chunk of textOf(fileBytes(file, read), head.encoding)) {
    signal?.throwIfAborted();
    pieces.push(chunk);
    chars += chunk.length;
    if (performance.now() - stepStart >= stepMs) {
      await feed.flush();
      stepStart = performance.now();
    }
  }
  let text: string;
  try {
    text = pieces.join("");
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Past the longest string this browser makes (about 512 MB in Chromium): said as the CLI says it.
    feed.problems.push({
      file: file.name,
      message: `too large to read (${Math.round(chars / 2 ** 20)} MB): a JSONL capture whose records are not in seq order is read as one text, and this one is longer than the longest text this browser can hold`,
    });
    return { format, ...(await feed.finish()), problems: feed.problems, whole: true };
  } finally {
    pieces.length = 0;
  }
  const whole = importJsonl(text, file.name, { rules });
  for (const p of whole.problems) feed.problems.push(p);
  feed.known(whole.records.length);
  stepStart = performance.now();
  for (let i = 0; i < whole.records.length; ) {
    signal?.throwIfAborted();
    feed.push(whole.records.slice(i, (i += SLICE)));
    if (!feed.shown() || performance.now() - stepStart >= stepMs) {
      await feed.flush();
      stepStart = performance.now();
    }
  }
  return { format, ...(await feed.finish()), problems: feed.problems, whole: true };
}

/**
 * A HAR through the streaming importer (src/capture/har/stream.ts, as `mcp-elicit lint` reads one): the file's bytes
 * go in a piece at a time and are never held whole; the records it hands on go through the engine a slice at a
 * time while the file is still read. A step goes out every stepMs, and at once when the first rows are ready. The
 * importer holds a capture of up to 16 MB of records whole and settles it at its end (har/window.ts), so a smaller
 * file's records come once it is read; a larger one's while it is read. Returns the importer's problems.
 */
async function importHarProgressively(
  bytes: AsyncIterable<Uint8Array>,
  name: string,
  feed: Feeder,
  options: { rules: readonly Decoder[]; stepMs: number; signal: AbortSignal | undefined; onBytes(bytes: number): void },
): Promise<Problem[]> {
  let queue: CaptureRecord[] = [];
  let stepStart = performance.now();
  const step = async (): Promise<void> => {
    if ((!feed.shown() && feed.pending()) || performance.now() - stepStart >= options.stepMs) {
      await feed.flush();
      stepStart = performance.now();
    }
  };
  /** The records handed on so far, through the engine a slice at a time. */
  const drain = async (): Promise<void> => {
    const records = queue;
    queue = [];
    for (let i = 0; i < records.length; ) {
      options.signal?.throwIfAborted();
      feed.push(records.slice(i, (i += SLICE)));
      await step();
    }
  };
  // The importer asks for the next piece once it has read the last: the engine and the steps run in between.
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for await (const piece of bytes) {
      for (let at = 0; at < piece.byteLength; at += HAR_PIECE) {
        yield piece.byteLength <= HAR_PIECE ? piece : piece.subarray(at, at + HAR_PIECE);
        await drain();
        await step();
      }
    }
  }
  const result = await importHarStream(pieces(), name, {
    rules: options.rules,
    ...(options.signal && { signal: options.signal }),
    onProgress: options.onBytes,
    onRecords(records) {
      for (const r of records) queue.push(r);
    },
  });
  // The rest (all of a capture held whole) once the file is read: its record count is known.
  feed.known(result.records);
  await drain();
  return result.problems;
}

/** Imports whole lines as they arrive; false when the file must be imported whole instead. */
async function importJsonlProgressively(
  rest: AsyncGenerator<string>,
  name: string,
  feed: Feeder,
  rules: readonly Decoder[],
  stepMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  // One envelope stage across the pieces: an Inspector v2 connect names the upstream of later sends.
  const unwrapper = createUnwrapper({ rules });
  let lastSeq = -1;
  let carry = "";
  let stepStart = performance.now();
  /** One piece of whole lines; false when the file must be imported whole. */
  const piece = (text: string): boolean => {
    const part = importJsonl(text, name, { unwrapper });
    if (part.problems.length > 0 || count(SEQ_MEMBER, text) !== part.records.length) return false;
    for (const r of part.records) {
      if (r.seq <= lastSeq) return false;
      lastSeq = r.seq;
    }
    feed.push(part.records);
    return true;
  };
  const take = async (chunk: string, last: boolean): Promise<boolean> => {
    const text = carry + chunk;
    const end = last ? text.length : text.lastIndexOf("\n") + 1;
    carry = text.slice(end);
    // Pieces of about PIECE characters (a stream chunk can be megabytes), so steps stay short.
    for (let at = 0; at < end; ) {
      const size = feed.shown() ? PIECE : FIRST_PIECE;
      const cut = at + size >= end ? end : text.lastIndexOf("\n", at + size) + 1 || end;
      if (!piece(text.slice(at, cut <= at ? end : cut))) return false;
      at = cut <= at ? end : cut;
      // The first rows go out at once; then a step every stepMs.
      if (!feed.shown() || performance.now() - stepStart >= stepMs) {
        await feed.flush();
        signal?.throwIfAborted();
        stepStart = performance.now();
      }
    }
    return true;
  };
  for (;;) {
    signal?.throwIfAborted();
    const next = await rest.next();
    if (next.done) break;
    if (!(await take(next.value, false))) return false;
  }
  if (carry !== "" && !(await take("", true))) return false;
  // A file of no records (empty, blank lines) is read whole too, so it is said to be empty as mcp-elicit lint says it.
  return lastSeq >= 0;
}
