import type { Problem } from "../problem.ts";
import type { Unwrapper } from "../envelopes/index.ts";
import { INSPECTOR_V2 } from "../envelopes/inspectorV2.ts";
import { settleInspectorSessions, type EntryTimes } from "../envelopes/inspectorV2Har.ts";
import type { EntryOut } from "./entry.ts";
import { createValidator, unheardSessions, unreadableEnvelopes } from "./checks.ts";
import { createStreamPlacer, type HarStream } from "./order.ts";
import { CAPTURE_VERSION, type CaptureRecord, type MessageRecord } from "../record.ts";

/**
 * A HAR too large to hold, settled as it is read. Browsers write entries in the order they started, so once an
 * entry starting at `t` is read, every record still to come is at `t` or later (less SLACK, for entries a little
 * out of order). A record is handed on when nothing can still go before it: no later entry, no SSE stream whose
 * events are not placed yet (they are placed once the stream's last byte is behind, order.ts), no Inspector v2
 * session (its events are placed by the whole session, at the end).
 *
 * Held meanwhile: the records of that window of time and what placing needs across entries (order.ts forgets
 * the rest). A capture whose entries are out of time order by more than SLACK, or whose `log._mcpRecords` comes
 * after its entries, is still read whole, but some of its records reach the engine after later ones: a problem
 * says how many.
 */
export interface StreamingWindow {
  /** `late`: read after entries (log._mcpRecords after log.entries). */
  extra(record: CaptureRecord, late: boolean): void;
  entry(index: number, out: EntryOut, start: number | undefined): void;
  finish(): void;
}

export interface WindowOptions {
  file: string;
  problems: Problem[];
  unwrap: Unwrapper;
  /** Records in time order, numbered (`seq`), a batch at a time. */
  deliver(records: CaptureRecord[]): void;
  /** Bytes of records (about: sizeOf) held whole before the window streams. */
  budget: number;
  /** The `client` of records of entries read before `log.creator`: the creator's name, once known ("" if none). */
  creator(): string;
}

/** How far out of start order entries may be (ms): a browser's clocks and write order disagree by less. */
const SLACK = 2000;
/** Records handed on at once: the engine runs over a batch at a time, not between every two entries. */
const BATCH = 1024;
/** Exchanges and placed streams kept before what they let go is forgotten. */
const FORGET_EVERY = 512;

interface Open {
  stream: HarStream;
  exchange: string;
}

export function createStreamingWindow(o: WindowOptions): StreamingWindow {
  const placer = createStreamPlacer();
  const check = createValidator(o.file, o.problems);
  const queue = createTimeQueue();
  /** Capture order of each record made (the tie-break of records at the same time), and of events not yet placed. */
  let made = 0;
  const unplaced = new Map<MessageRecord, number>();
  let open: Open[] = [];
  /** Placed streams, kept a while as the context of others (order.ts); GET streams with server requests among them and the open ones. */
  let recent: HarStream[] = [];
  const asking = new Set<HarStream>();
  const inspector = { records: [] as CaptureRecord[], order: new Map<CaptureRecord, number>(), times: new Map<number, EntryTimes>(), floor: Infinity };
  let horizon = -Infinity;
  let handedOn = -Infinity;
  let late = 0;
  let lateExtras = 0;
  let seq = 0;
  let batch: CaptureRecord[] = [];
  let done: string[] = [];

  /** Records the envelope stage built, until their check (checks.ts validateRecords). */
  const rebuilt = new Set<CaptureRecord>();

  const settle = (record: CaptureRecord, order: number): void => {
    const valid = check(record, rebuilt.delete(record));
    if (!valid) return;
    if (valid.time < handedOn) late++;
    queue.push(valid, order);
  };

  const add = (draft: CaptureRecord, events: ReadonlySet<MessageRecord> | undefined, times: EntryTimes | undefined): void => {
    for (const out of o.unwrap.push(draft)) {
      const record = out === draft ? draft : ({ ...out, v: CAPTURE_VERSION, seq: 0 } as CaptureRecord);
      if (record !== draft) rebuilt.add(record);
      placer.learnSession(record);
      placer.learn(record, events !== undefined);
      const order = made++;
      if (record.kind === "message" && record.envelope === INSPECTOR_V2) {
        inspector.records.push(record);
        inspector.order.set(record, order);
        if (record.entry !== undefined && times) inspector.times.set(record.entry, times);
        inspector.floor = Math.min(inspector.floor, record.direction === "c2s" ? record.time : (times?.headAt ?? record.time));
      } else if (record === draft && record.kind === "message" && events?.has(record)) unplaced.set(record, order);
      else settle(record, order);
    }
  };

  /** The first end and the first start among the open streams. */
  let openEnd = Infinity;
  let openFrom = Infinity;
  const opened = (): void => {
    openEnd = openFrom = Infinity;
    for (const { stream } of open) {
      openEnd = Math.min(openEnd, stream.to);
      openFrom = Math.min(openFrom, stream.from);
    }
  };

  /** Places the streams that ended before the horizon and hands on what nothing can precede any more. */
  const release = (final: boolean): void => {
    if (final || openEnd < horizon) {
      const ended = final ? open : open.filter((s) => s.stream.to < horizon);
      open = final ? [] : open.filter((s) => s.stream.to >= horizon);
      opened();
      const streams = ended.map((s) => s.stream);
      placer.place(streams, asking.size ? [...streams, ...open.map((s) => s.stream), ...recent] : streams);
      const events = streams.flatMap((s) => s.events.flatMap((e) => (unplaced.has(e) ? [[e, unplaced.get(e)!] as const] : [])));
      events.sort((a, b) => a[1] - b[1]);
      for (const [e, order] of events) {
        unplaced.delete(e);
        settle(e, order);
      }
      recent.push(...streams);
      for (const s of ended) done.push(s.exchange);
    }
    const before = final ? Infinity : Math.min(horizon, inspector.floor, openFrom);
    while (queue.size > 0 && queue.peekTime() < before) {
      const record = queue.pop();
      record.seq = seq++;
      handedOn = Math.max(handedOn, record.time);
      batch.push(record);
    }
    if (batch.length >= BATCH || (final && batch.length)) {
      o.deliver(batch);
      batch = [];
    }
    if (done.length >= FORGET_EVERY || recent.length >= FORGET_EVERY) {
      placer.forget(before - SLACK, done);
      done = [];
      recent = recent.filter((s) => {
        if (s.to >= before - SLACK) return true;
        asking.delete(s);
        return false;
      });
    }
  };

  return {
    extra(record, isLate) {
      if (isLate) lateExtras++;
      add(record, undefined, undefined);
    },
    entry(index, out, start) {
      if (start !== undefined) horizon = Math.max(horizon, start - SLACK);
      const events = out.stream && new Set(out.stream.events);
      for (const draft of out.drafts) add(draft, events, out.times);
      if (out.stream) {
        if (placer.track(out.stream)) asking.add(out.stream);
        open.push({ stream: out.stream, exchange: `har:${index}` });
        openEnd = Math.min(openEnd, out.stream.to);
        openFrom = Math.min(openFrom, out.stream.from);
      } else done.push(`har:${index}`);
      release(false);
    },
    finish() {
      release(true);
      unreadableEnvelopes(o.file, o.problems, o.unwrap);
      const settled = settleInspectorSessions(inspector.records, inspector.times);
      unheardSessions(o.file, o.problems, settled.unheard);
      for (const r of settled.records) settle(r, inspector.order.get(r)!);
      release(true);
      const { file, problems } = o;
      if (lateExtras) problems.push({ file, message: `log._mcpRecords comes after log.entries: its ${lateExtras} record${lateExtras === 1 ? " was" : "s were"} read after the entries, too late for the envelope stage to learn from (an export of this version writes them first)` });
      if (late) problems.push({ file, message: `${late} record${late === 1 ? "" : "s"} came after later ones had been analysed: the HAR's entries are out of time order by more than a streaming import holds (${SLACK / 1000} s)` });
    },
  };
}

/** Records by time, then capture order: a binary heap (times and orders beside the records, so comparing reads no record). */
function createTimeQueue() {
  const records: CaptureRecord[] = [];
  const times: number[] = [];
  const orders: number[] = [];
  const less = (i: number, j: number): boolean => times[i]! < times[j]! || (times[i] === times[j] && orders[i]! < orders[j]!);
  const swap = (i: number, j: number): void => {
    const r = records[i]!;
    records[i] = records[j]!;
    records[j] = r;
    const t = times[i]!;
    times[i] = times[j]!;
    times[j] = t;
    const o = orders[i]!;
    orders[i] = orders[j]!;
    orders[j] = o;
  };
  return {
    get size() {
      return records.length;
    },
    peekTime: (): number => times[0]!,
    push(record: CaptureRecord, order: number): void {
      records.push(record);
      times.push(record.time);
      orders.push(order);
      for (let i = records.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!less(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop(): CaptureRecord {
      const top = records[0]!;
      swap(0, records.length - 1);
      records.pop();
      times.pop();
      orders.pop();
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < records.length && less(l, m)) m = l;
        if (r < records.length && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
      return top;
    },
  };
}
