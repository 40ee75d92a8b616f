import { createUnwrapper, type DecodeRule } from "../../src/capture/envelopes/index.ts";
import { detectFormat, importCapture } from "../../src/capture/import.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { createEngine, type Finding, type Flow, type Problem } from "../../src/engine/index.ts";
import type { Changes } from "../state/store.ts";

/** How far an import is: records analysed, bytes of the file read, its size, and its record count once known. */
export interface ImportCounts {
  records: number;
  bytes: number;
  size: number;
  /** Records in the file: known once a file read whole has been imported (HAR, or JSONL imported again whole). */
  total?: number;
}

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

/** A file as the import worker gets it: a File (a Blob with a name); tests may pass only its text. */
export type ImportSource = { name: string; size?: number; stream?(): ReadableStream<Uint8Array>; text(): Promise<string> };

/** Analysis time between two progress steps (the first step goes out as soon as there are rows to show). */
const STEP_MS = 40;

export type ImportOptions = {
  /** Decode rules for the envelope stage (the extension worker's). */
  rules?: readonly DecodeRule[];
  /** Analysis time between two steps, in ms (STEP_MS); 0 makes a step of every piece, as tests of the step flow need. */
  stepMs?: number;
};
/** Text handed to the importer at once (whole lines, about this many characters); less until the first rows show. */
const PIECE = 64 * 1024;
const FIRST_PIECE = 16 * 1024;

/** Every `"seq":` that is a member name (one inside a string is always preceded by a backslash). */
const SEQ_MEMBER = /(?<!\\)"seq"\s*:/g;
const count = (re: RegExp, text: string): number => {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
};

/** A file's text as it is read, counting the bytes read (the first lines are in hand after one disk read). */
async function* textChunks(file: ImportSource, read: { bytes: number }): AsyncGenerator<string> {
  read.bytes = 0;
  if (typeof file.stream === "function") {
    const reader = file.stream().getReader();
    // Decoded as TextDecoderStream would (UTF-8, a BOM dropped, bad bytes replaced), with the bytes counted.
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read.bytes += value.byteLength;
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const tail = decoder.decode();
    if (tail) yield tail;
    return;
  }
  const text = await file.text();
  read.bytes = file.size ?? text.length;
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

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
 * whole (a step with `restart`), so flows, findings and problems are always those of `mcp-elicit lint`. HAR is one
 * JSON document: read whole, then analysed in steps. Both go through the envelope stage with the decode rules given
 * (the extension worker's, so a file reads as the tab would), as `mcp-elicit lint --decode` does.
 */
export async function importFile(file: ImportSource, onProgress: OnProgress, options: ImportOptions = {}): Promise<ImportResult> {
  const stepMs = options.stepMs ?? STEP_MS;
  const read = { bytes: 0 };
  const size = file.size ?? 0;
  const feed = createFeeder((changes, done, restart) => {
    const step: ImportProgress = { changes, records: feed.records(), bytes: read.bytes, size: Math.max(size, read.bytes), done };
    const total = feed.total();
    if (total !== undefined) step.total = total;
    if (restart) step.restart = true;
    return onProgress(step);
  });
  // Not `for await … break`: leaving that loop would close the generator.
  let chunks = textChunks(file, read);
  const pieces: string[] = [];
  let head = "";
  while (head.length < 4096) {
    const next = await chunks.next();
    if (next.done) break;
    pieces.push(next.value);
    head += next.value;
  }
  const format = detectFormat(head, file.name);

  const rules = options.rules ?? [];
  if (format === "jsonl") {
    if (await importJsonlProgressively(pieces, chunks, file.name, feed, rules, stepMs)) return { format, ...(await feed.finish()), problems: feed.problems, whole: false };
    // Read again rather than keep every chunk in memory for this rare case.
    await chunks.return(undefined);
    feed.restart();
    pieces.length = 0;
    chunks = textChunks(file, read);
  }
  // Read whole first: steps with no changes say how much is read.
  let stepStart = performance.now();
  for await (const chunk of chunks) {
    pieces.push(chunk);
    if (performance.now() - stepStart >= stepMs) {
      await feed.flush();
      stepStart = performance.now();
    }
  }
  const text = pieces.join("");
  pieces.length = 0;
  const whole = importCapture(text, file.name, { rules });
  feed.problems.push(...whole.problems);
  feed.known(whole.records.length);
  stepStart = performance.now();
  for (let i = 0; i < whole.records.length; ) {
    feed.push(whole.records.slice(i, (i += 500)));
    if (!feed.shown() || performance.now() - stepStart >= stepMs) {
      await feed.flush();
      stepStart = performance.now();
    }
  }
  return { format, ...(await feed.finish()), problems: feed.problems, whole: format === "jsonl" };
}

/** Imports whole lines as they arrive (`read`: the chunks read already); false when the file must be imported whole instead. */
async function importJsonlProgressively(read: string[], rest: AsyncGenerator<string>, name: string, feed: Feeder, rules: readonly DecodeRule[], stepMs: number): Promise<boolean> {
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
        stepStart = performance.now();
      }
    }
    return true;
  };
  for (const chunk of read.splice(0)) if (!(await take(chunk, false))) return false;
  for (;;) {
    const next = await rest.next();
    if (next.done) break;
    if (!(await take(next.value, false))) return false;
  }
  return carry === "" || take("", true);
}

type Feeder = ReturnType<typeof createFeeder>;

function createFeeder(step: (changes: Changes, done: boolean, restart: boolean) => void | Promise<void>) {
  let engine = createEngine();
  let flows = new Set<Flow>();
  let findings: Finding[] = [];
  let problems: Problem[] = [];
  let records: CaptureRecord[] = [];
  let analysed = 0;
  let total: number | undefined;
  let shown = false;
  let restarting = false;
  const importProblems: Problem[] = [];
  /** Hands on what changed since the last step. */
  const flush = (done = false): void | Promise<void> => {
    if (flows.size > 0) shown = true;
    const changes: Changes = { flows: [...flows], findings, problems, records };
    const wasRestarting = restarting;
    restarting = false;
    flows = new Set();
    findings = [];
    problems = [];
    records = [];
    return step(changes, done, wasRestarting);
  };
  return {
    problems: importProblems,
    /** Records analysed so far. */
    records: (): number => analysed,
    /** Records in the file, once known. */
    total: (): number | undefined => total,
    known(records: number): void {
      total = records;
    },
    /** Whether a step with rows (flows) went out. */
    shown: (): boolean => shown,
    push(batch: readonly CaptureRecord[]): void {
      for (const record of batch) {
        records.push(record);
        analysed++;
        const delta = engine.push(record);
        for (const f of delta.flows) flows.add(f);
        if (delta.findings.length) findings.push(...delta.findings);
        if (delta.problems.length) problems.push(...delta.problems);
      }
    },
    flush,
    /** Starts again from nothing; the next step says so (`restart`). */
    restart(): void {
      engine = createEngine();
      flows = new Set();
      findings = [];
      problems = [];
      records = [];
      analysed = 0;
      total = undefined;
      shown = false;
      restarting = true;
      importProblems.length = 0;
    },
    async finish(): Promise<{ records: number; flows: number; findings: number }> {
      problems.unshift(...importProblems);
      await flush(true);
      return { records: analysed, flows: engine.flows().length, findings: engine.findings().length };
    },
  };
}
