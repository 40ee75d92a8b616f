import type { Problem } from "../problem.ts";
import type { Unwrapper } from "../envelopes/index.ts";
import { INSPECTOR_V2 } from "../envelopes/inspectorV2.ts";
import { settleInspectorSessions, type EntryTimes } from "../envelopes/inspectorV2Har.ts";
import type { EntryOut } from "./entry.ts";
import { createValidator, unheardSessions, unreadableEnvelopes } from "./checks.ts";
import { createLane, laneKey, placerOf, sizeOf, type Lane } from "./lane.ts";
import type { HarStream } from "./order.ts";
import { createTimeQueue, type Held } from "./timeQueue.ts";
import { CAPTURE_VERSION, type CaptureRecord, type MessageRecord } from "../record.ts";

/**
 * A HAR too large to hold, settled as it is read, in bounded memory whatever the order of its entries.
 *
 * Browsers write entries in the order they started, so once an entry starting at `t` is read, every record still
 * to come is at `t` or later (less SLACK, for entries a little out of order). A record is handed on when nothing
 * can still go before it: no later entry, no SSE stream whose events are not placed yet (they are placed once the
 * stream's last byte is behind, order.ts), no Inspector v2 session (its events are placed by the whole session).
 *
 * HAR 1.2 does not require that order, and a HAR merged from several recordings goes back in time at each one.
 * An entry that starts more than SLACK before the latest start begins a new stretch of time: the horizon follows
 * it back, and what the earlier stretch left waits until the horizon passes it again. Records wait by lane (one
 * endpoint of one page, lane.ts): the engine never relates two lanes, so when what waits outgrows `hold`, the
 * lanes idle longest are settled and let go whole (their streams placed with what is known, their records handed
 * on in time order). A record that arrives after later records of its own lane were handed on is analysed after
 * them: a problem names its entry.
 */
export interface StreamingWindow {
  /** `late`: read after entries (log._mcpRecords after log.entries). */
  extra(record: CaptureRecord, late: boolean): void;
  entry(index: number, out: EntryOut, start: number | undefined): void;
  finish(): void;
  /** The most it held between two entries (bytes, about: sizeOf), which `hold` bounds. */
  peak(): number;
}

export interface WindowOptions {
  file: string;
  problems: Problem[];
  unwrap: Unwrapper;
  /** Records in time order, numbered (`seq`), a batch at a time. */
  deliver(records: CaptureRecord[]): void;
  /** Bytes of records (about: sizeOf) held whole before the window streams. */
  budget: number;
  /** Bytes (about) the streaming window holds before it lets lanes go. */
  hold: number;
  /** The `client` of records of entries read before `log.creator`: the creator's name, once known ("" if none). */
  creator(): string;
}

/** How far out of start order entries may be (ms): a browser's clocks and write order disagree by less. */
const SLACK = 2000;
/** Records handed on at once: the engine runs over a batch at a time, not between every two entries. */
const BATCH = 1024;
/** Exchanges and placed streams a lane keeps before what they let go is forgotten. */
const FORGET_EVERY = 512;
/** A lane without an entry among the last IDLE read is let go first when the window is full. */
const IDLE = 64;
/** Entries read too late named one by one; past these, a count. */
const NAMED = 20;

interface Open {
  stream: HarStream;
  lane: Lane;
  exchange: string;
}

const byTime = (a: Held<Lane>, b: Held<Lane>): number => a.time - b.time || a.order - b.order;
const endpointOf = (lane: Lane): string => lane.key.slice(lane.key.indexOf("\u0000") + 1) || "(no URL)";

export function createStreamingWindow(o: WindowOptions): StreamingWindow {
  const { file, problems } = o;
  const check = createValidator(file, problems);
  const queue = createTimeQueue<Lane>();
  /** Lanes by key, the one with an entry least recently first. */
  const lanes = new Map<string, Lane>();
  /** How far each lane let go had been handed on. */
  const gone = new Map<string, number>();
  /** Capture order of each record made (the tie-break of records at the same time), and of events not yet placed. */
  let made = 0;
  const unplaced = new Map<MessageRecord, number>();
  let open: Open[] = [];
  const inspector = {
    records: [] as CaptureRecord[],
    order: new Map<CaptureRecord, number>(),
    times: new Map<number, EntryTimes>(),
    floor: Infinity,
  };
  /** The latest start of this stretch of time. */
  let latest = -Infinity;
  let lastBefore = -Infinity;
  let entries = 0;
  let cost = 0;
  let peak = 0;
  let lateExtras = 0;
  const named = new Set<number>();
  let lateOthers = 0;
  let seq = 0;
  let batch: CaptureRecord[] = [];

  /** Records the envelope stage built, until their check (checks.ts validateRecords). */
  const rebuilt = new Set<CaptureRecord>();

  const laneOf = (key: string): Lane => {
    let lane = lanes.get(key);
    if (lane) return lane;
    const handedOn = gone.get(key);
    if (handedOn !== undefined) gone.delete(key);
    lane = createLane(key, handedOn ?? -Infinity);
    lanes.set(key, lane);
    cost += lane.cost;
    return lane;
  };
  const charge = (lane: Lane, bytes: number): void => {
    lane.cost += bytes;
    cost += bytes;
  };

  const tooLate = (record: CaptureRecord, lane: Lane): void => {
    const entry = record.entry;
    if (entry !== undefined && named.has(entry)) return;
    if (entry === undefined || named.size >= NAMED) return void lateOthers++;
    named.add(entry);
    const message =
      `entry ${entry} goes back in time before records of ${endpointOf(lane)} that were already analysed: it is out ` +
      "of order by more than the streaming import holds, so its records are analysed after later ones";
    problems.push({ file, entry, message });
  };

  const settle = (lane: Lane, record: CaptureRecord, order: number): void => {
    const valid = check(record, rebuilt.delete(record));
    if (!valid) return;
    if (valid.time < lane.handedOn) tooLate(valid, lane);
    const held: Held<Lane> = { record: valid, time: valid.time, order, lane, at: -1 };
    queue.push(held);
    lane.held.add(held);
    charge(lane, sizeOf(valid));
  };

  const hand = (held: Held<Lane>): void => {
    const { record, lane } = held;
    lane.held.delete(held);
    charge(lane, -sizeOf(record));
    record.seq = seq++;
    if (record.time > lane.handedOn) lane.handedOn = record.time;
    batch.push(record);
  };

  type Events = ReadonlySet<MessageRecord> | undefined;
  const add = (lane: Lane, draft: CaptureRecord, events: Events, times: EntryTimes | undefined): void => {
    for (const out of o.unwrap.push(draft)) {
      const record = out === draft ? draft : ({ ...out, v: CAPTURE_VERSION, seq: 0 } as CaptureRecord);
      if (record !== draft) rebuilt.add(record);
      if (record.kind === "message") {
        const placer = placerOf(lane);
        placer.learnSession(record);
        placer.learn(record, events !== undefined);
      }
      const order = made++;
      if (record.kind === "message" && record.envelope === INSPECTOR_V2) {
        inspector.records.push(record);
        inspector.order.set(record, order);
        if (record.entry !== undefined && times) inspector.times.set(record.entry, times);
        const at = record.direction === "c2s" ? record.time : (times?.headAt ?? record.time);
        inspector.floor = Math.min(inspector.floor, at);
      } else if (record === draft && record.kind === "message" && events?.has(record)) {
        unplaced.set(record, order);
        charge(lane, sizeOf(record));
      } else settle(lane, record, order);
    }
  };

  const forgetSome = (lane: Lane): void => {
    if (lane.done.length < FORGET_EVERY && lane.recent.length < FORGET_EVERY) return;
    const before = lastBefore - SLACK;
    lane.placer?.forget(before, lane.done);
    lane.done = [];
    lane.recent = lane.recent.filter((s) => {
      if (s.to >= before) return true;
      lane.asking.delete(s);
      return false;
    });
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

  /** Places streams of one lane (no longer in `open`) and settles their events in capture order. */
  const place = (lane: Lane, ended: readonly Open[]): void => {
    const streams = ended.map((s) => s.stream);
    const gone = new Set(streams);
    lane.open = lane.open.filter((s) => !gone.has(s));
    const context = lane.asking.size ? [...streams, ...lane.open, ...lane.recent] : streams;
    placerOf(lane).place(streams, context);
    const events: [MessageRecord, number][] = [];
    for (const s of streams) {
      for (const e of s.events) {
        const order = unplaced.get(e);
        if (order !== undefined) events.push([e, order]);
      }
    }
    events.sort((a, b) => a[1] - b[1]);
    for (const [e, order] of events) {
      unplaced.delete(e);
      charge(lane, -sizeOf(e));
      settle(lane, e, order);
    }
    for (const s of ended) {
      lane.recent.push(s.stream);
      lane.done.push(s.exchange);
    }
    forgetSome(lane);
  };

  /** Places the given open streams, lane by lane. */
  const close = (ended: readonly Open[]): void => {
    if (ended.length === 0) return;
    const byLane = new Map<Lane, Open[]>();
    for (const s of ended) {
      const list = byLane.get(s.lane);
      if (list) list.push(s);
      else byLane.set(s.lane, [s]);
    }
    for (const [lane, list] of byLane) place(lane, list);
  };

  /** Settles a lane whole and forgets it but for how far it got. */
  const letGo = (lane: Lane): void => {
    if (lane.open.length) {
      const mine = open.filter((s) => s.lane === lane);
      open = open.filter((s) => s.lane !== lane);
      opened();
      place(lane, mine);
    }
    const held = [...lane.held].sort(byTime);
    for (const h of held) {
      queue.remove(h);
      hand(h);
    }
    lanes.delete(lane.key);
    gone.set(lane.key, lane.handedOn);
    cost -= lane.cost;
  };

  /**
   * Past `hold`: lanes idle longest go first, then records by time whatever is still open, then any lane. At the end
   * too: the records of Inspector v2 sessions, settled last, can open lanes that each cost LANE_COST.
   */
  const relieve = (horizon: number): void => {
    const target = o.hold / 2;
    for (const lane of lanes.values()) {
      if (cost <= target || entries - lane.touched < IDLE) break;
      letGo(lane);
    }
    const until = Math.min(horizon, inspector.floor);
    while (cost > target && queue.size > 0 && queue.peekTime() < until) hand(queue.pop());
    for (const lane of lanes.values()) {
      if (cost <= target) break;
      letGo(lane);
    }
  };

  /** Places the streams that ended before the horizon and hands on what nothing can precede any more. */
  const release = (final: boolean): void => {
    const horizon = final ? Infinity : latest - SLACK;
    if (final || openEnd < horizon) {
      const ended = final ? open : open.filter((s) => s.stream.to < horizon);
      open = final ? [] : open.filter((s) => s.stream.to >= horizon);
      opened();
      close(ended);
    }
    const before = final ? Infinity : Math.min(horizon, inspector.floor, openFrom);
    lastBefore = before;
    while (queue.size > 0 && queue.peekTime() < before) hand(queue.pop());
    if (cost > o.hold) relieve(horizon);
    if (cost > peak) peak = cost;
    if (batch.length >= BATCH || (final && batch.length)) {
      o.deliver(batch);
      batch = [];
    }
  };

  return {
    extra(record, isLate) {
      if (isLate) lateExtras++;
      add(laneOf(laneKey(record)), record, undefined, undefined);
      release(false);
    },
    entry(index, out, start) {
      entries++;
      if (start !== undefined) {
        // More than SLACK back in time: a new stretch (a merged HAR's next recording) whose horizon starts here.
        if (start < latest - SLACK) latest = start;
        else if (start > latest) latest = start;
      }
      const first = out.drafts[0];
      if (first) {
        const lane = laneOf(laneKey(first));
        lanes.delete(lane.key);
        lanes.set(lane.key, lane);
        lane.touched = entries;
        const events = out.stream && new Set(out.stream.events);
        for (const draft of out.drafts) add(lane, draft, events, out.times);
        if (out.stream) {
          if (placerOf(lane).track(out.stream)) lane.asking.add(out.stream);
          open.push({ stream: out.stream, lane, exchange: `har:${index}` });
          lane.open.push(out.stream);
          openEnd = Math.min(openEnd, out.stream.to);
          openFrom = Math.min(openFrom, out.stream.from);
        } else {
          lane.done.push(`har:${index}`);
          forgetSome(lane);
        }
      }
      release(false);
    },
    finish() {
      release(true);
      unreadableEnvelopes(file, problems, o.unwrap);
      const settled = settleInspectorSessions(inspector.records, inspector.times);
      unheardSessions(file, problems, settled.unheard);
      for (const r of settled.records) settle(laneOf(laneKey(r)), r, inspector.order.get(r)!);
      release(true);
      if (lateExtras)
        problems.push({
          file,
          message: `log._mcpRecords comes after log.entries: its ${lateExtras} record${lateExtras === 1 ? " was" : "s were"} read after the entries, too late for the envelope stage to learn from (an export of this version writes them first)`,
        });
      if (lateOthers) {
        const more = named.size >= NAMED ? ` beside those of the ${NAMED} entries named above` : "";
        const records = `${lateOthers} more record${lateOthers === 1 ? "" : "s"}${more}`;
        const message =
          `${records} came after later records of their endpoint had been analysed: the HAR's entries are out of ` +
          "time order by more than a streaming import holds";
        problems.push({ file, message });
      }
    },
    peak: () => peak,
  };
}
