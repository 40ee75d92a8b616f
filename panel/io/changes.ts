// What the panel's store is fed, as the worker (panelProtocol.ts) and the import worker (importProtocol.ts) hand it
// over: wire types, kept apart from the view state that consumes them.
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow, Problem } from "../../src/engine/index.ts";

/** One batch of changes, from the worker (snapshot, delta) or from the import worker (a file's step). */
export interface Changes {
  flows: readonly Flow[];
  findings: readonly Finding[];
  problems: readonly Problem[];
  records?: readonly CaptureRecord[] | undefined;
}

/** How far an import is: records analysed, bytes of the file read, its size, and its record count once known. */
export interface ImportCounts {
  records: number;
  bytes: number;
  size: number;
  /** Records in the file: known once a HAR is read to its end, or a JSONL file imported again whole. */
  total?: number;
}
