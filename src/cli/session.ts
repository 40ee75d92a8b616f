import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Decoder } from "../capture/envelopes/index.ts";
import type { Problem } from "../capture/problem.ts";
import type { CaptureRecord } from "../capture/record.ts";
import { joinCaptures } from "../capture/session.ts";
import { createEngine, type EngineOptions, type Finding } from "../engine/index.ts";
import { readCapture, readError } from "./read.ts";
import { atLeast, type FileReport } from "./report.ts";
import type { Severity } from "../engine/rules/types.ts";

export interface LintOptions {
  engine: EngineOptions;
  rules: readonly Decoder[];
  min: Severity;
  /** Analyse several files as one session even when none of them is a backend capture. */
  session: boolean;
}

interface Read {
  file: string;
  records: CaptureRecord[];
  problems: Problem[];
  unreadable: boolean;
}

const open = (file: string) => (file === "-" ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 }));

/**
 * `lint` over its files: each alone, as it streams (one engine per file, no record kept once seen), or, when a file
 * holds an agent backend's records (`source: "backend"`, from `mcp-elicit proxy`) or `--session` asks, all of them
 * as one session: merged by time into one record sequence (src/capture/session.ts), as the live panel joins the
 * page's capture and the proxy's feed, and reported once, each finding and problem naming its file.
 */
export async function lintFiles(files: readonly string[], options: LintOptions): Promise<{ reports: FileReport[]; unreadable: boolean }> {
  if (files.length === 1) {
    const report = await lintOne(files[0]!, options);
    return { reports: [report.report], unreadable: report.unreadable };
  }
  const read: Read[] = [];
  for (const file of files) read.push(await readAll(file, options.rules));
  const unreadable = read.some((r) => r.unreadable);
  const joined = options.session || read.some((r) => r.records.some((record) => record.source === "backend"));
  if (!joined) {
    const reports = read.map((r) => {
      const engine = createEngine(options.engine);
      for (const record of r.records) engine.push(record);
      engine.settle(Infinity);
      return { file: r.file, flows: [...engine.flows()], findings: engine.findings().filter(atLeast(options.min)), problems: [...r.problems, ...engine.problems()] };
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
    return origin && { file: files[origin.capture]!, entry: origin.entry ?? origin.seq };
  };
  const findings: Finding[] = engine.findings().filter(atLeast(options.min)).map((f) => ({ ...f, ...place(f.record) }));
  const problems: Problem[] = engine.problems().map((p) => {
    const at = p.record === undefined ? undefined : place(p.record);
    return at ? { ...p, file: at.file, ...(origins[p.record!]!.entry !== undefined ? { entry: at.entry } : { record: at.entry }) } : p;
  });
  return {
    reports: [{ file: files.join(" + "), session: [...files], flows: [...engine.flows()], findings, problems: [...read.flatMap((r) => r.problems), ...problems] }],
    unreadable,
  };
}

async function lintOne(file: string, options: LintOptions): Promise<{ report: FileReport; unreadable: boolean }> {
  const engine = createEngine(options.engine);
  const read = await readFile(file, options.rules, (records) => {
    for (const record of records) engine.push(record);
  });
  engine.settle(Infinity);
  return {
    report: { file, flows: [...engine.flows()], findings: engine.findings().filter(atLeast(options.min)), problems: [...read.problems, ...engine.problems()] },
    unreadable: read.unreadable,
  };
}

async function readAll(file: string, rules: readonly Decoder[]): Promise<Read> {
  const records: CaptureRecord[] = [];
  const read = await readFile(file, rules, (batch) => {
    for (const record of batch) records.push(record);
  });
  return { file, records, ...read };
}

async function readFile(file: string, rules: readonly Decoder[], onRecords: (records: CaptureRecord[]) => void): Promise<{ problems: Problem[]; unreadable: boolean }> {
  try {
    const imported = await readCapture(open(file), file, { rules, onRecords });
    return { problems: imported.problems, unreadable: imported.problems.length > 0 };
  } catch (e) {
    const why = readError(e, await stat(file).then((s) => s.size, () => undefined));
    console.error(`mcp-elicit: cannot read ${file}: ${why}`);
    return { problems: [{ file, message: `cannot read the file: ${why}` }], unreadable: true };
  }
}
