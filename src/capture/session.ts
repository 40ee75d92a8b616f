import type { CaptureRecord } from "./record.ts";

/** Where a record of a joined session came from. */
export interface RecordOrigin {
  /** Index of the capture in the list given to joinCaptures. */
  capture: number;
  /** Its seq in that capture. */
  seq: number;
  /** Its HAR entry, when the capture was a HAR. */
  entry?: number;
}

export interface JoinedSession {
  /** Every record, numbered 0, 1, 2… in the joined order. */
  records: CaptureRecord[];
  /** By joined seq: where each record came from. */
  origins: RecordOrigin[];
}

/**
 * Several captures of one session (a HAR saved in the page and the JSONL of `mcp-elicit proxy`, say) as one record
 * sequence, as the live panel sees them: merged by time, each capture's own order kept (a record never passes one
 * of its own capture that came before it, whatever the clocks say), ties going to the capture listed first. Records
 * keep their `source`; seq is renumbered; an exchange name that two captures both use is prefixed with the later
 * capture's index so the two never merge.
 */
export function joinCaptures(captures: readonly (readonly CaptureRecord[])[]): JoinedSession {
  const seen = new Set<string>();
  const renamed = captures.map((records, i) => {
    const names = new Set<string>();
    for (const r of records) if (r.exchange !== undefined) names.add(r.exchange);
    const clash = i > 0 && [...names].some((name) => seen.has(name));
    for (const name of names) seen.add(clash ? `${i}:${name}` : name);
    return clash;
  });
  const records: CaptureRecord[] = [];
  const origins: RecordOrigin[] = [];
  const next = captures.map(() => 0);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < captures.length; i++) {
      const head = captures[i]![next[i]!];
      if (head !== undefined && (pick < 0 || head.time < captures[pick]![next[pick]!]!.time)) pick = i;
    }
    if (pick < 0) break;
    const record = captures[pick]![next[pick]!++]!;
    const seq = records.length;
    origins.push({ capture: pick, seq: record.seq, ...(record.entry !== undefined && { entry: record.entry }) });
    records.push({
      ...record,
      seq,
      ...(renamed[pick] && record.exchange !== undefined && { exchange: `${pick}:${record.exchange}` }),
    });
  }
  return { records, origins };
}
