import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Decoder } from "../capture/envelopes/index.ts";
import type { Problem } from "../capture/problem.ts";
import type { CaptureRecord } from "../capture/record.ts";
import { joinCaptures } from "../capture/session.ts";
import { createEngine, type EngineOptions, type Finding } from "../engine/index.ts";
import type { Severity } from "../engine/ruleKit/types.ts";
import type { Linted } from "./formats/types.ts";
import { readCapture, readError } from "./read.ts";
import { atLeast } from "./report.ts";

export interface LintOptions {
  engine: EngineOptions;
  rules: readonly Decoder[];
  min: Severity;
  /** Analyse several files as one session even when none of them is a backend capture. */
  session: boolean;
}

/** What reading a file told besides its records: its format, JSONL line numbers, problems. */
interface Imported {
  format?: "har" | "jsonl";
  lines?: ReadonlyMap<number, number>;
  problems: Problem[];
  unreadable: boolean;
}

type Engine = ReturnType<typeof createEngine>;

/**
 * Pieces of 64 KiB: each piece's text is then a young-generation string that dies in the next scavenge. A 1 MiB
 * piece's text goes to V8's large-object space, which only a full collection frees, so a gigabyte file left a
 * gigabyte of such garbage between full collections (docs/benchmarks-har.md).
 */
const PIECE = 1 << 16;

const open = (file: string) => (file === "-" ? process.stdin : createReadStream(file, { highWaterMark: PIECE }));

/**
 * The flows a report lists: a page's relayed ask joined with the agent backend's elicitation is told by the
 * backend's flow (its relay), so it is not listed apart, as in the panel.
 */
const listed = (engine: Engine) => [...engine.flows()].filter((flow) => flow.joinedInto === undefined);

/** A file's report with what the formats need to place its findings (formats/types.ts). */
function linted(file: string, read: Imported, engine: Engine, min: Severity): Linted {
  // The file is whole: what waited on time (relay judgements) is judged now.
  engine.settle(Infinity);
  return {
    file,
    ...(read.format && { format: read.format }),
    ...(read.lines && { lines: read.lines }),
    flows: listed(engine),
    findings: engine.findings().filter(atLeast(min)),
    problems: [...read.problems, ...engine.problems()],
  };
}

/**
 * `lint` over its files: each alone, as it streams (one engine per file, no record kept once seen), or, when a file
 * holds an agent backend's records (`source: "backend"`, from `mcp-elicit proxy`) or `--session` asks, all of them
 * as one session: merged by time into one record sequence (src/capture/session.ts), as the live panel joins the
 * page's capture and the proxy's feed, and reported once, each finding and problem naming its file.
 */
export async function lintFiles(
  files: readonly string[],
  options: LintOptions,
): Promise<{ reports: Linted[]; unreadable: boolean }> {
  if (files.length === 1) {
    const file = files[0]!;
    const engine = createEngine(options.engine);
    const read = await readFile(file, options.rules, (records) => {
      for (const record of records) engine.push(record);
    });
    return { reports: [linted(file, read, engine, options.min)], unreadable: read.unreadable };
  }
  const read: (Imported & { records: CaptureRecord[] })[] = [];
  for (const file of files) {
    const records: CaptureRecord[] = [];
    const imported = await readFile(file, options.rules, (batch) => {
      for (const record of batch) records.push(record);
    });
    read.push({ ...imported, records });
  }
  const unreadable = read.some((r) => r.unreadable);
  const joined = options.session || read.some((r) => r.records.some((record) => record.source === "backend"));
  if (!joined) {
    const reports = read.map((r, i) => {
      const engine = createEngine(options.engine);
      for (const record of r.records) engine.push(record);
      return linted(files[i]!, r, engine, options.min);
    });
    return { reports, unreadable };
  }
  const { records, origins } = joinCaptures(read.map((r) => r.records));
  const engine = createEngine(options.engine);
  for (const record of records) engine.push(record);
  // The capture is whole: what waited on time is judged now.
  engine.settle(Infinity);
  // Findings and problems name their file and the entry (HAR) or seq (JSONL) in it, as linting that file alone would.
  const place = (seq: number) => {
    const origin = origins[seq];
    return (
      origin && { file: files[origin.capture]!, entry: origin.entry ?? origin.seq, har: origin.entry !== undefined }
    );
  };
  const findings: Finding[] = engine
    .findings()
    .filter(atLeast(options.min))
    .map((f) => {
      const at = place(f.record);
      return at ? { ...f, file: at.file, entry: at.entry } : f;
    });
  const problems: Problem[] = engine.problems().map((p) => {
    const at = p.record === undefined ? undefined : place(p.record);
    return at ? { ...p, file: at.file, ...(at.har ? { entry: at.entry } : { record: at.entry }) } : p;
  });
  const session: Linted = {
    file: files.join(" + "),
    session: [...files],
    flows: listed(engine),
    findings,
    problems: [...read.flatMap((r) => r.problems), ...problems],
  };
  return { reports: [session], unreadable };
}

async function readFile(
  file: string,
  rules: readonly Decoder[],
  onRecords: (records: CaptureRecord[]) => void,
): Promise<Imported> {
  try {
    const imported = await readCapture(open(file), file, { rules, onRecords });
    return {
      format: imported.format,
      ...(imported.lines && { lines: imported.lines }),
      problems: imported.problems,
      unreadable: imported.problems.length > 0,
    };
  } catch (e) {
    const why = readError(
      e,
      await stat(file).then(
        (s) => s.size,
        () => undefined,
      ),
    );
    console.error(`mcp-elicit: cannot read ${file}: ${why}`);
    return { problems: [{ file, message: `cannot read the file: ${why}` }], unreadable: true };
  }
}
