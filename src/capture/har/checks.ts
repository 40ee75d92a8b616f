import { checkRecord } from "../checkRecord.ts";
import type { Problem } from "../problem.ts";
import type { Unwrapper } from "../envelopes/index.ts";
import { MAX_TIME, type CaptureRecord } from "../record.ts";

/**
 * What importHar checks of its own output and of the numbers it reads: every record it makes passes the capture
 * schema (so that both exports can write it and read it back), and times, statuses and headers out of range or of
 * the wrong type are reported with the entry that holds them, never taken silently.
 */
type Obj = Record<string, unknown>;
const shown = (x: unknown): string => {
  try {
    const text = JSON.stringify(x) ?? String(x);
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  } catch {
    return typeof x;
  }
};

/** A HAR status: an integer 0–999 (0: no response), else 0 with a problem. Strings are reported, not read. */
export function harStatus(response: Obj | undefined, problem: (message: string) => void): number {
  const status = response?.status;
  if (status === undefined) return 0;
  if (typeof status === "number" && Number.isInteger(status) && status >= 0 && status <= 999) return status;
  problem(`response.status ${shown(status)} is not an HTTP status (an integer 100–599); taken as no response`);
  return 0;
}

/** Reports a `headers` member that is there but is not an array of {name, value} (HAR 1.2). */
export function checkHeaders(
  owner: Obj | undefined,
  where: "request" | "response",
  problem: (message: string) => void,
): void {
  const headers = owner?.headers;
  if (headers === undefined || Array.isArray(headers)) return;
  problem(
    `${where}.headers is ${headers === null ? "null" : Array.isArray(headers) ? "an array" : typeof headers}, not an array of {name, value}; no ${where} headers read`,
  );
}

/** HAR timings (ms, -1: does not apply) and an entry's `time`: a number out of range counts as 0, reported. */
export function harSpan(holder: Obj, name: string, label: string, problem: (message: string) => void): number {
  const x = holder[name];
  if (x === undefined || x === null) return 0;
  if (typeof x !== "number" || !Number.isFinite(x)) {
    problem(`${label} ${shown(x)} is not a number; taken as 0`);
    return 0;
  }
  if (x > MAX_SPAN) {
    problem(`${label} ${shown(x)} ms is out of range (over a year); taken as 0`);
    return 0;
  }
  return Math.max(0, x);
}
/** A year: longer than any entry of a real HAR (a GET stream held open for days included). */
export const MAX_SPAN = 365 * 24 * 3600 * 1000;

/**
 * The last check of importHar. A record the envelope stage built (`rebuilt`) goes through the capture schema; one
 * importEntry made, or one of `log._mcpRecords` (read through the schema already), is of the format by
 * construction — its members' types say so, they are in the schema's order, and the fuzz tests check every
 * import against the schema — so of it only the time is checked, the one member made of the file's numbers. A
 * record whose time is out of range is placed at the previous record's time; a refusal by the schema drops the
 * record. Either way a problem names the entry.
 */
export function validateRecords(
  drafts: CaptureRecord[],
  file: string,
  problems: Problem[],
  rebuilt: ReadonlySet<CaptureRecord>,
): CaptureRecord[] {
  const check = createValidator(file, problems);
  const out: CaptureRecord[] = [];
  for (const record of drafts) {
    const valid = check(record, rebuilt.has(record));
    if (valid) out.push(valid);
  }
  return out;
}

/** validateRecords one record at a time, in the order they are made (a streaming import): the record as the schema reads it, or undefined. */
export function createValidator(
  file: string,
  problems: Problem[],
): (record: CaptureRecord, rebuilt: boolean) => CaptureRecord | undefined {
  let lastTime = 0;
  return (record, rebuilt) => {
    if (typeof record.time !== "number" || !Number.isFinite(record.time) || Math.abs(record.time) > MAX_TIME) {
      const where = record.entry !== undefined ? `entry ${record.entry}: ` : "";
      problems.push({
        file,
        ...(record.entry !== undefined && { entry: record.entry }),
        message: `${where}a ${record.kind} record's time ${shown(record.time)} is out of range; placed at the previous record's time`,
      });
      record.time = lastTime;
    }
    if (!rebuilt) {
      lastTime = record.time;
      return record;
    }
    const parsed = checkRecord(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = record.entry !== undefined ? `entry ${record.entry}: ` : "";
      problems.push({
        file,
        ...(record.entry !== undefined && { entry: record.entry }),
        message: `${where}a ${record.kind} record is not valid (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}); skipped`,
      });
      return undefined;
    }
    lastTime = parsed.data.time;
    return parsed.data;
  };
}

/** Envelope bodies the envelope stage could not read, counted once for the capture. */
export function unreadableEnvelopes(file: string, problems: Problem[], unwrap: Unwrapper): void {
  const unreadable = unwrap.counts().unreadable;
  if (unreadable)
    problems.push({
      file,
      message: `${unreadable} envelope bod${unreadable > 1 ? "ies" : "y"} (host API calls or wrappers that should carry MCP) could not be read; skipped`,
    });
}

/** Inspector v2 sessions whose server is not heard in the HAR (envelopes/inspectorV2Har.ts). */
export function unheardSessions(
  file: string,
  problems: Problem[],
  unheard: readonly { session: string; messages: number }[],
): void {
  for (const { session, messages } of unheard) {
    problems.push({
      file,
      message: `MCP Inspector v2 session ${session}: the HAR holds no body of its events stream (/api/mcp/events; a HAR keeps none of a stream still open or cut when it was saved), so none of the server's messages; its ${messages} client message${messages === 1 ? " is" : "s are"} left out rather than checked without them (the extension's live capture sees the stream)`,
    });
  }
}
