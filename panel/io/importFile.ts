import { detectFormat, importCapture } from "../../src/capture/import.ts";
import { createUnwrapper } from "../../src/capture/envelopes/index.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { createEngine, type Finding, type Flow, type Problem } from "../../src/engine/index.ts";
import type { DecodeRule } from "../../src/capture/envelopes/index.ts";
import type { Changes } from "../state/store.ts";

/** Where an import's results go: the store's `openFile` / `ingestFile` (tests pass their own). */
export interface ImportSink {
  openFile(name: string): void;
  ingestFile(changes: Changes, done?: boolean): void;
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

/** Main-thread time per slice before the import yields to rendering and input. */
const SLICE_MS = 24;
/** Text handed to the importer at once (whole lines, about this many characters); less until the first rows show. */
const PIECE = 64 * 1024;
const FIRST_PIECE = 16 * 1024;

const yieldToBrowser = (): Promise<void> =>
  new Promise((resolve) => {
    // A message task, not setTimeout (clamped to 4 ms when nested): rendering still runs between tasks.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close(); // an open port keeps Node's event loop alive (the tests run this in Node)
      resolve();
    };
    channel.port2.postMessage(null);
  });

/** After the next frame is painted (a task queued from requestAnimationFrame runs after the paint). */
const nextFrame = (): Promise<void> =>
  typeof requestAnimationFrame === "function" ? new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))) : yieldToBrowser();

/** Every `"seq":` that is a member name (one inside a string is always preceded by a backslash). */
const SEQ_MEMBER = /(?<!\\)"seq"\s*:/g;
const count = (re: RegExp, text: string): number => {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
};

/** A file's text as it is read: a File's stream, decoded (the first lines are in hand after one disk read). */
type TextSource = { name: string; stream?(): ReadableStream<Uint8Array>; text(): Promise<string> };
async function* textChunks(file: TextSource): AsyncGenerator<string> {
  if (typeof file.stream === "function" && typeof TextDecoderStream === "function") {
    const reader = file.stream().pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  }
  const text = await file.text();
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

/**
 * A HAR or JSONL file through the same engine as the worker and the CLI, in the panel, in slices while it is
 * read: the first flows are on screen long before a large file is through, and the panel answers input meanwhile.
 *
 * JSONL is read piece by piece (whole lines) with the canonical importer (src/capture/jsonl.ts). That equals
 * importing it whole exactly when every record carries its seq in increasing order and no line is bad; when a
 * piece shows otherwise (a problem, a record without seq, a seq going backwards), the file is imported again
 * whole, so flows, findings and problems are always those of `mcp-elicit lint`. HAR is one JSON document: read
 * whole, then analysed in slices. Both go through the envelope stage with the decode rules given (the worker's,
 * so a file reads as the tab would), as `mcp-elicit lint --decode` does.
 */
export async function importFile(file: TextSource, sink: ImportSink, options: { onFirstRows?(): void; rules?: readonly DecodeRule[] } = {}): Promise<ImportResult> {
  let first = true;
  const feed = createFeeder(sink, () => {
    if (!first) return;
    first = false;
    options.onFirstRows?.();
  });
  sink.openFile(file.name);
  // Not `for await … break`: leaving that loop would close the generator.
  const chunks = textChunks(file);
  const read: string[] = [];
  let head = "";
  while (head.length < 4096) {
    const next = await chunks.next();
    if (next.done) break;
    read.push(next.value);
    head += next.value;
  }
  performance.mark("mcp:import-first-chunk");
  const format = detectFormat(head, file.name);

  const rules = options.rules ?? [];
  if (format === "jsonl") {
    if (await importJsonlProgressively(read, chunks, file.name, feed, rules)) return { format, ...feed.finish(), problems: feed.problems, whole: false };
    // Read again rather than keep every chunk in memory for this rare case.
    await chunks.return(undefined);
    sink.openFile(file.name);
    feed.restart();
    read.length = 0;
    for await (const chunk of textChunks(file)) read.push(chunk);
  } else for await (const chunk of chunks) read.push(chunk);
  const text = read.join("");
  read.length = 0;
  const whole = importCapture(text, file.name, { rules });
  feed.problems.push(...whole.problems);
  for (let i = 0; i < whole.records.length; ) {
    const start = performance.now();
    while (i < whole.records.length && performance.now() - start < SLICE_MS) feed.push(whole.records.slice(i, (i += 500)));
    feed.flush(false);
    if (i < whole.records.length) await yieldToBrowser();
  }
  return { format, ...feed.finish(), problems: feed.problems, whole: format === "jsonl" };
}

/** Imports whole lines as they arrive (`read`: the chunks read already); false when the file must be imported whole instead. */
async function importJsonlProgressively(read: string[], rest: AsyncGenerator<string>, name: string, feed: Feeder, rules: readonly DecodeRule[]): Promise<boolean> {
  // One envelope stage across the pieces: an Inspector v2 connect names the upstream of later sends.
  const unwrapper = createUnwrapper({ rules });
  let lastSeq = -1;
  let carry = "";
  let sliceStart = performance.now();
  let painted = false;
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
    // Pieces of about PIECE characters (a stream chunk can be megabytes), so slices stay short.
    for (let at = 0; at < end; ) {
      const size = painted ? PIECE : FIRST_PIECE;
      const cut = at + size >= end ? end : text.lastIndexOf("\n", at + size) + 1 || end;
      if (!piece(text.slice(at, cut <= at ? end : cut))) return false;
      at = cut <= at ? end : cut;
      if (!painted) {
        // The first rows go out at once, and the import waits for the frame that shows them.
        painted = feed.flush(false);
        if (painted) await nextFrame();
        sliceStart = performance.now();
      } else if (performance.now() - sliceStart > SLICE_MS) {
        feed.flush(false);
        await yieldToBrowser();
        sliceStart = performance.now();
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

/**
 * One string (and one headers object) per distinct value across the file's records: JSON.parse makes a fresh copy
 * of every URL, client, exchange and header set, and a large capture repeats them hundreds of thousands of times.
 */
function createInterner() {
  const strings = new Map<string, string>();
  const headers = new Map<string, NonNullable<MessageRecord["headers"]>>();
  const one = (s: string | undefined): string | undefined => {
    if (s === undefined) return s;
    const known = strings.get(s);
    if (known !== undefined) return known;
    strings.set(s, s);
    return s;
  };
  return (record: CaptureRecord): void => {
    // The enum fields keep their literal types: `one` returns the very same value, only another copy of it.
    const r = record as { kind: string; transport: string; url?: string | undefined; client?: string | undefined; exchange?: string | undefined };
    r.kind = one(r.kind)!;
    r.transport = one(r.transport)!;
    r.url = one(r.url);
    r.client = one(r.client);
    r.exchange = one(r.exchange);
    if (record.kind === "message") {
      const m = record as { direction: string; stream: string; method?: string | undefined };
      m.direction = one(m.direction)!;
      m.stream = one(m.stream)!;
      m.method = one(m.method);
    }
    if ((record.kind === "message" || record.kind === "response") && record.headers) {
      const key = JSON.stringify(record.headers);
      const known = headers.get(key);
      if (known) record.headers = known;
      else headers.set(key, record.headers);
    }
  };
}

function createFeeder(sink: ImportSink, onFirstRows: () => void) {
  let engine = createEngine();
  let intern = createInterner();
  let flows = new Set<Flow>();
  let findings: Finding[] = [];
  let problems: Problem[] = [];
  let records: CaptureRecord[] = [];
  let total = 0;
  const importProblems: Problem[] = [];
  /** Hands the store what changed; true when that included flows (rows to paint). */
  const flush = (done: boolean): boolean => {
    const rows = flows.size > 0;
    sink.ingestFile({ flows: [...flows], findings, problems, records }, done);
    if (rows || done) onFirstRows();
    flows = new Set();
    findings = [];
    problems = [];
    records = [];
    return rows;
  };
  return {
    problems: importProblems,
    push(batch: readonly CaptureRecord[]): void {
      for (const record of batch) {
        intern(record);
        records.push(record);
        total++;
        const delta = engine.push(record);
        for (const f of delta.flows) flows.add(f);
        if (delta.findings.length) findings.push(...delta.findings);
        if (delta.problems.length) problems.push(...delta.problems);
      }
    },
    flush,
    restart(): void {
      engine = createEngine();
      intern = createInterner();
      flows = new Set();
      findings = [];
      problems = [];
      records = [];
      total = 0;
      importProblems.length = 0;
    },
    finish(): { records: number; flows: number; findings: number } {
      problems.unshift(...importProblems);
      flush(true);
      return { records: total, flows: engine.flows().length, findings: engine.findings().length };
    },
  };
}
