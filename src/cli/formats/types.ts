import type { Settings } from "../../engine/settings.ts";
import type { FileReport } from "../report.ts";

/** One linted capture as the formats see it: the report, and where its records sit in the file. */
export interface Linted extends FileReport {
  format?: "har" | "jsonl";
  /** JSONL: the line of each record, by seq (read.ts). HAR findings name the entry instead. */
  lines?: ReadonlyMap<number, number>;
}

/** What every format is given: the files, and the settings the run used (levels, the failing threshold). */
export interface FormatInput {
  files: readonly Linted[];
  settings: Settings;
  version: string;
}

/** The place of a finding (or problem) in its capture: a JSONL line, or a HAR entry. */
export function placeOf(file: Linted, entry: number | undefined, record?: number): { line?: number; entry?: number } {
  if (file.format === "har") return entry !== undefined ? { entry } : {};
  const line = file.lines?.get(record ?? entry ?? -1);
  return line !== undefined ? { line } : {};
}
