import { createWriteStream, type WriteStream } from "node:fs";
import { jsonlParts } from "../../capture/jsonl.ts";
import type { CaptureRecord } from "../../capture/record.ts";

/** A record as the forwarding code makes it: the journal numbers it. */
export type RecordDraft = CaptureRecord extends infer R ? (R extends CaptureRecord ? Omit<R, "seq" | "v"> : never) : never;

export interface Journal {
  /** Numbers the record, keeps it for the feed, writes its JSONL line and tells the listeners. */
  push(draft: RecordDraft): CaptureRecord;
  /** Every record so far, in order. */
  records(): readonly CaptureRecord[];
  /** The JSONL lines of the records from `seq` on (the feed's start and its Last-Event-ID resumption). */
  since(seq: number): readonly string[];
  /** Called with every record pushed from now on; returns the function that stops it. */
  listen(listener: (seq: number, line: string) => void): () => void;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/**
 * The proxy's capture: records numbered in the order they happen, kept in memory for the panel's feed (which must
 * replay from the first one) and written as JSONL lines through the project's exporter, so `mcp-elicit lint` reads
 * the file as any other capture.
 */
export function createJournal(out?: string): Journal {
  const records: CaptureRecord[] = [];
  const lines: string[] = [];
  const listeners = new Set<(seq: number, line: string) => void>();
  const file: WriteStream | undefined = out === undefined ? undefined : createWriteStream(out, { flags: "w" });
  let failure: Error | undefined;
  file?.on("error", (error) => (failure = error));

  return {
    push(draft) {
      const record = { v: 1, seq: records.length, ...draft } as CaptureRecord;
      const [line = ""] = jsonlParts([record]);
      records.push(record);
      lines.push(line);
      if (file && !failure) file.write(line);
      for (const listener of listeners) listener(record.seq, line);
      return record;
    },
    records: () => records,
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
        file.end(() => (failure ? reject(failure) : resolve()));
      });
    },
  };
}
