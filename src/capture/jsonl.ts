import { checkRecord } from "./checkRecord.ts";
import type { Problem } from "./problem.ts";
import { createUnwrapper, type Decoder, type Unwrapper } from "./envelopes/index.ts";
import type { CaptureImport } from "./har/import.ts";
import { CAPTURE_VERSION, CaptureRecord } from "./record.ts";
import { unreadableText } from "./textChecks.ts";

/**
 * The JSONL capture format: one capture record per line (docs/capture-format.md). Line order is capture order and
 * is kept as is, never re-sorted by time (clocks of different clients need not agree).
 *
 * `seq`: kept when every record has one and they increase strictly down the file (gaps are fine: a filtered
 * export stays referable). When some records have none, or one goes backwards, every record is renumbered
 * 0, 1, 2… in line order; a file with a seq out of order gets a problem saying so, a file without any seq does not.
 */
const MAX_LINE_PROBLEMS = 100;

export interface JsonlImportOptions {
  /** Decode-as rules for records still in their envelope (src/capture/envelopes). */
  rules?: readonly Decoder[];
  /** One unwrapper across calls, for a capture read in parts (the panel's progressive import). */
  unwrapper?: Unwrapper;
}

/**
 * Records go through the envelope stage as they are read: the extension stores them unwrapped and stamped
 * already (they pass unchanged), a capture written by hand or by another tool may hold envelopes still. A record
 * taken out of an envelope keeps its line's seq; an envelope that carried no MCP leaves a gap.
 */
export function importJsonl(text: string, file: string, options: JsonlImportOptions = {}): CaptureImport {
  const unwrap = options.unwrapper ?? createUnwrapper(options.rules ? { rules: options.rules } : {});
  // A whole file (not a part of one read progressively): empty, or UTF-16, is said so.
  const refused = options.unwrapper ? undefined : unreadableText(text, file);
  if (refused) return { records: [], problems: [refused] };
  const problems: Problem[] = [];
  const records: CaptureRecord[] = [];
  let badLines = 0;
  const bad = (line: number, message: string): void => {
    if (++badLines <= MAX_LINE_PROBLEMS) problems.push({ file, line, message: `line ${line}: ${message}; skipped` });
  };
  let missing = 0;
  let disorder: { line: number; seq: number; after: number } | undefined;
  let previous = -1;

  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split("\n");
  lines.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (body.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      bad(line, `not JSON (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      bad(line, "not a capture record (not a JSON object)");
      return;
    }
    const object = value as Record<string, unknown>;
    if (object.v !== undefined && object.v !== CAPTURE_VERSION) {
      bad(
        line,
        `capture version ${JSON.stringify(object.v)} is not supported (this build reads version ${CAPTURE_VERSION})`,
      );
      return;
    }
    const hasSeq = object.seq !== undefined;
    const parsed = checkRecord(hasSeq ? object : { ...object, seq: 0 });
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join(".") || "record"}: ${issue.message}`);
      bad(line, `not a capture record (${issues.join("; ")})`);
      return;
    }
    if (!hasSeq) missing++;
    else if (parsed.data.seq <= previous && !disorder) disorder = { line, seq: parsed.data.seq, after: previous };
    if (hasSeq) previous = Math.max(previous, parsed.data.seq);
    const { seq, v } = parsed.data;
    for (const out of unwrap.push(parsed.data))
      records.push(out === parsed.data ? parsed.data : ({ ...out, seq, v } as CaptureRecord));
  });

  if (badLines > MAX_LINE_PROBLEMS)
    problems.push({ file, message: `${badLines - MAX_LINE_PROBLEMS} more bad lines not listed` });
  if (missing > 0 || disorder) {
    records.forEach((record, seq) => (record.seq = seq));
    if (disorder) {
      problems.push({
        file,
        line: disorder.line,
        message: `line ${disorder.line}: seq ${disorder.seq} does not follow ${disorder.after}; all records renumbered 0…${records.length - 1} in line order`,
      });
    } else if (missing < records.length) {
      problems.push({
        file,
        message: `${missing} of ${records.length} records have no seq; all records renumbered 0…${records.length - 1} in line order`,
      });
    }
  }
  return { records, problems };
}

/**
 * One record per line, `\n` after each. Each record goes through the schema first, which drops any field the
 * format does not have (and with it anything a caller attached by mistake, such as a full header set).
 */
export function exportJsonl(records: readonly CaptureRecord[]): string {
  let out = "";
  for (const line of jsonlParts(records)) out += line;
  return out;
}

/** The JSONL of a capture as text parts, a line each (for a Blob: never one string); their join is exportJsonl's. */
export function* jsonlParts(records: readonly CaptureRecord[]): Generator<string> {
  for (const record of records) {
    const parsed = CaptureRecord.safeParse(record);
    yield `${JSON.stringify(parsed.success ? parsed.data : record)}\n`;
  }
}
