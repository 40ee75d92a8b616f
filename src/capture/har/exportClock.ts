import type { CaptureRecord } from "../record.ts";

export interface Clock {
  /** Where importHar will put a record that sits at a fixed time: a request body at its whole-millisecond start. */
  at(index: number): number;
  /** `start + wait` and `start + time` of an HTTP entry (see below). */
  span(
    start: number,
    head: number | undefined,
    events: number[],
    end: number | undefined,
    last: number,
  ): { headAt: number; endAt: number };
}

/** Ties between entries go by entry order, which need not be capture order: keep a little clear of them. */
const CLEAR = 1e-3;
/** How far importHar's placement moves an event past a bound (order.ts EPSILON), with room for rounding. */
const PLACED = 1.5e-3;

/**
 * HAR keeps fewer times than a capture, and importHar sorts what it reads by time: the clock picks the times it
 * does keep so that the records come back in capture order.
 *
 * - `startedDateTime` has whole milliseconds. A request body is rounded down, or up when rounding down would
 *   pass more records of other exchanges (a message weighs two, a head or an end one): a client's answer sent
 *   within the millisecond of the question must not come back before it.
 * - An event stream has one time for its head and first event (`start + wait`) and one for its last event and
 *   its end (`start + time`); the events between are spread evenly. The first event keeps its time; the last is
 *   placed as close to its own as the events between allow (each must stay between the records of other exchanges
 *   around it), and the end with it unless other exchanges' records fall between them.
 */
export function createClock(records: readonly CaptureRecord[], groups: Map<string, number[]>): Clock {
  const groupOf = new Int32Array(records.length);
  let g = 0;
  for (const indexes of groups.values()) {
    g++;
    for (const i of indexes) groupOf[i] = g;
  }
  const weight = (r: CaptureRecord): number => (r.kind === "message" ? 2 : 1);
  const fixed = new Map<number, number>();
  for (const indexes of groups.values()) {
    const body = indexes.find((i) => {
      const r = records[i]!;
      return r.kind === "message" && r.direction === "c2s";
    });
    if (body === undefined || records[body]!.transport !== "http") continue;
    const time = records[body]!.time;
    const down = Math.floor(time);
    const up = Math.ceil(time);
    let below = 0;
    let above = 0;
    for (let j = body - 1; j >= 0 && records[j]!.time >= down; j--)
      if (groupOf[j] !== groupOf[body]) below += weight(records[j]!);
    for (let j = body + 1; j < records.length && records[j]!.time <= up; j++)
      if (groupOf[j] !== groupOf[body]) above += weight(records[j]!);
    fixed.set(body, below <= above ? down : up);
  }
  const at = (i: number): number => fixed.get(i) ?? records[i]!.time;
  // The nearest records of other exchanges before and after each record (-1: none), in one pass each way.
  const before = new Int32Array(records.length).fill(-1);
  const after = new Int32Array(records.length).fill(-1);
  for (let i = 1; i < records.length; i++) before[i] = groupOf[i - 1] !== groupOf[i] ? i - 1 : before[i - 1]!;
  for (let i = records.length - 2; i >= 0; i--) after[i] = groupOf[i + 1] !== groupOf[i] ? i + 1 : after[i + 1]!;
  const around = (i: number): [number, number] => [
    before[i]! < 0 ? -Infinity : at(before[i]!) + CLEAR,
    after[i]! < 0 ? Infinity : at(after[i]!) - CLEAR,
  ];

  return {
    at,
    span(start, head, events, end, last) {
      const first = events[0];
      // A first event placed just past a bound (order.ts moves it by PLACED) that its head is not past: the head
      // keeps its time and importHar's placement, which has the same bound, moves the event again; written at the
      // event, the head would come back later than it was.
      const firstAt = first !== undefined ? records[first]!.time : undefined;
      const placed = head !== undefined && firstAt !== undefined && firstAt > head && firstAt - head <= PLACED;
      const headAt = Math.max(start, placed ? head : (firstAt ?? head ?? start));
      if (events.length < 2) return { headAt, endAt: Math.max(headAt, end !== undefined ? records[end]!.time : last) };
      // Event k lands at headAt + (endAt - headAt) * k / (n - 1): each window bounds endAt.
      const n = events.length;
      let lo = headAt;
      let hi = Infinity;
      events.forEach((e, k) => {
        if (k === 0) return;
        const share = k / (n - 1);
        const [below, above] = around(e);
        lo = Math.max(lo, headAt + (below - headAt) / share);
        hi = Math.min(hi, headAt + (above - headAt) / share);
      });
      const want = records[events[n - 1]!]!.time;
      // The records' own last time, if importHar's spread (entry.ts) puts every event and the end strictly between
      // the other exchanges' records around it: records that are an import of this clock's export then export to
      // the same times (a window clear of neighbours by CLEAR can exclude, by an ulp, the time it gave before).
      const inOrder = (i: number, t: number): boolean =>
        (before[i]! < 0 || at(before[i]!) < t) && (after[i]! < 0 || t < at(after[i]!));
      const keeps =
        want >= headAt &&
        (end === undefined || inOrder(end, want)) &&
        events.every((e, k) => k === 0 || inOrder(e, headAt + ((want - headAt) * k) / (n - 1)));
      if (keeps && (want < lo || want > hi)) return { headAt, endAt: want };
      if (lo > hi) return { headAt, endAt: Math.max(headAt, want) };
      if (end !== undefined) {
        const [below, above] = around(end);
        const endLo = Math.max(lo, below);
        const endHi = Math.min(hi, above);
        if (endLo <= endHi) return { headAt, endAt: clamp(want, endLo, endHi) };
      }
      return { headAt, endAt: clamp(want, lo, hi) };
    },
  };
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
