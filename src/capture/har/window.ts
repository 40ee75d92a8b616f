import { settleInspectorSessions, type EntryTimes } from "../envelopes/inspectorV2Har.ts";
import type { EntryOut } from "./entry.ts";
import { unheardSessions, unreadableEnvelopes, validateRecords } from "./checks.ts";
import { placeStreamEvents, type HarStream } from "./order.ts";
import { createStreamingWindow, type StreamingWindow, type WindowOptions } from "./horizon.ts";
import { sizeOf } from "./lane.ts";
import { CAPTURE_VERSION, type CaptureRecord } from "../record.ts";

/**
 * Between the entries read and the records handed on: what happens after every entry is made (the envelope stage,
 * placing SSE events, Inspector v2 sessions, the schema check, time order) needs more than one entry at a time.
 *
 * A capture of up to `budget` characters of records is held whole and settled at the end, as one pass over all of
 * it: the result never depends on how the file was cut into pieces. Past the budget the window streams
 * (horizon.ts): records are handed on in time order once nothing still to come can go before them, and what
 * was held so far goes first.
 */
export interface RecordWindow {
  /** A record of `log._mcpRecords` (valid already). */
  extra(record: CaptureRecord): void;
  /** One entry's records, as the entry made them (before the envelope stage); `start`: its start, when readable. */
  entry(index: number, out: EntryOut, start: number | undefined): void;
  /** Hands on what is left; problems of the whole capture are added. */
  finish(): void;
  /** Past the budget: records are handed on while the file is read. */
  readonly streaming: boolean;
  /** The most the streaming window held at once (bytes, about); 0 for a capture held whole. */
  peak(): number;
}

/** The `client` of a record whose entry was read before `log.creator` and named no page: replaced by the creator. */
export const CREATOR_PENDING = "\u0000creator";

export function createRecordWindow(o: WindowOptions): RecordWindow {
  let extras: CaptureRecord[] = [];
  let entries: { index: number; out: EntryOut; start: number | undefined }[] = [];
  let held = 0;
  let streaming: StreamingWindow | undefined;

  const named = ({ drafts, creatorPending }: EntryOut): void => {
    if (!creatorPending) return;
    const creator = o.creator();
    for (const r of drafts) if (r.client === CREATOR_PENDING) r.client = creator;
  };

  const stream = (): void => {
    streaming = createStreamingWindow(o);
    for (const r of extras) streaming.extra(r, false);
    for (const e of entries) {
      named(e.out);
      streaming.entry(e.index, e.out, e.start);
    }
    extras = [];
    entries = [];
  };

  return {
    get streaming() {
      return streaming !== undefined;
    },
    peak: () => streaming?.peak() ?? 0,
    extra(record) {
      if (streaming) return streaming.extra(record, true);
      extras.push(record);
      held += sizeOf(record);
    },
    entry(index, out, start) {
      if (streaming) {
        named(out);
        return streaming.entry(index, out, start);
      }
      entries.push({ index, out, start });
      for (const r of out.drafts) held += sizeOf(r);
      if (held > o.budget) stream();
    },
    finish() {
      if (streaming) return streaming.finish();
      const { file, problems, unwrap } = o;
      const drafts: CaptureRecord[] = [];
      const rebuilt = new Set<CaptureRecord>();
      const unwrapped = (draft: CaptureRecord): void => {
        for (const out of unwrap.push(draft)) {
          if (out === draft) drafts.push(draft);
          else {
            const record = { ...out, v: CAPTURE_VERSION, seq: 0 } as CaptureRecord;
            rebuilt.add(record);
            drafts.push(record);
          }
        }
      };
      // Our own HAR export keeps records HAR cannot hold (postMessage, the HTTP+SSE EventSource, stdio, enveloped
      // messages) verbatim; first, so that a proxied EventSource's endpoint event is known before the POSTs it names.
      extras.forEach(unwrapped);
      // Entries in HAR order through the envelope stage (an Inspector v2 connect comes before the sends it names).
      const times = new Map<number, EntryTimes>();
      const streams: HarStream[] = [];
      for (const { index, out } of entries) {
        named(out);
        if (out.times) times.set(index, out.times);
        if (out.stream) streams.push(out.stream);
        out.drafts.forEach(unwrapped);
      }
      unreadableEnvelopes(file, problems, unwrap);
      // An SSE event's time is a guess: placed by what must have happened before the records are ordered.
      placeStreamEvents(drafts, streams);
      const inspector = settleInspectorSessions(drafts, times);
      unheardSessions(file, problems, inspector.unheard);
      const records = validateRecords(inspector.records, file, problems, rebuilt);
      // Stable (ES2019): same-time records keep the order they were made in, entries their HAR order.
      records.sort((a, b) => a.time - b.time);
      records.forEach((record, seq) => (record.seq = seq));
      if (records.length) o.deliver(records);
    },
  };
}
