import { createWriteStream, type WriteStream } from "node:fs";
import { jsonlParts } from "../../capture/jsonl.ts";
import type { CaptureRecord } from "../../capture/record.ts";

/** The file gets the lines of this long at once: one write instead of one per record (close() writes the rest). */
const WRITE_EVERY_MS = 20;

/** A record as the forwarding code makes it: the journal numbers it. */
export type RecordDraft = CaptureRecord extends infer R
  ? R extends CaptureRecord
    ? Omit<R, "seq" | "v">
    : never
  : never;

export interface Journal {
  /** Numbers the record, keeps its JSONL line for the feed, writes the line to the file and tells the listeners. */
  push(draft: RecordDraft): void;
  /** Every record so far, in order, read back from the kept lines (for tests and the exit message). */
  records(): CaptureRecord[];
  /** How many records so far. */
  count(): number;
  /** The JSONL lines of the records from `seq` on (the feed's start and its Last-Event-ID resumption). */
  since(seq: number): readonly string[];
  /** Called with every record pushed from now on; returns the function that stops it. */
  listen(listener: (seq: number, line: string) => void): () => void;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/**
 * The proxy's capture: records numbered in the order they happen, kept as JSONL lines for the panel's feed (which
 * must replay from the first one; the lines are the only copy kept) and written to the file through the project's
 * exporter, so `mcp-elicit lint` reads it as any other capture.
 */
export function createJournal(out?: string): Journal {
  const lines: string[] = [];
  const listeners = new Set<(seq: number, line: string) => void>();
  const file: WriteStream | undefined = out === undefined ? undefined : createWriteStream(out, { flags: "w" });
  let failure: Error | undefined;
  file?.on("error", (error) => (failure = error));
  let corked = false;

  return {
    push(draft) {
      const seq = lines.length;
      const [line = ""] = jsonlParts([{ v: 1, seq, ...draft } as CaptureRecord]);
      lines.push(line);
      if (file && !failure) {
        if (!corked) {
          corked = true;
          file.cork();
          setTimeout(() => {
            if (!corked) return;
            corked = false;
            file.uncork();
          }, WRITE_EVERY_MS).unref();
        }
        file.write(line);
      }
      for (const listener of listeners) listener(seq, line);
    },
    records: () => lines.map((line) => JSON.parse(line) as CaptureRecord),
    count: () => lines.length,
    since: (seq) => lines.slice(Math.max(0, seq)),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      if (!file) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        if (corked) {
          corked = false;
          file.uncork();
        }
        file.end(() => (failure ? reject(failure) : resolve()));
      });
    },
  };
}
