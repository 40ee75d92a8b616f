import type { RecordDraft } from "../shared/tapRecord.ts";
import { MAX_BATCH, MAX_ENVELOPE_CHARS, TAP_CHANNEL, TAP_ENVELOPE_PREFIX, TAP_SOURCE } from "../shared/tags.ts";
import type { Natives } from "./natives.ts";
import {
  append,
  ArrayPrototype,
  JSONStringify,
  NumberIsFinite,
  NumberPrototypeToString,
  ObjectPrototype,
  ReflectGetOwnPropertyDescriptor,
  ReflectOwnKeys,
  SetCtor,
  SetPrototypeAdd,
  SetPrototypeDelete,
  SetPrototypeHas,
  WeakMapCtor,
  WeakMapPrototypeHas,
  WeakMapPrototypeSet,
} from "./primordials.ts";

/**
 * When records are posted. The page's main thread pays for every post (the relay's `port.postMessage`: 0.1–0.5 ms
 * measured on the 2-core VMs, most of it fixed, not per byte) and for every timer (a `setTimeout` call and the
 * wake-up: ~0.1 ms there); see docs/benchmarks-tap.md. So the tap posts once per burst of traffic: QUIET_MS after the last open exchange
 * ended with none opened since (a JSON exchange, a streamed response whose events come a few ms apart: one post
 * after it, not one per 50 ms of it), and at the latest FLUSH_MS after a batch's first record (long-lived streams).
 * Two timers at most per batch, none per record or per exchange.
 */
export const QUIET_MS = 30;
export const FLUSH_MS = 250;
/** Most exchanges followed at once (see `track`). */
const MAX_OPEN = 1000;
/** Longest a reserved slot holds back the records behind it (a JSON body that never finishes). */
const HOLD_MS = 1000;

interface Slot {
  records: RecordDraft[] | undefined;
  since: number;
}

export interface Emitter {
  emit(record: RecordDraft): void;
  /**
   * Reserves the current position for records known later (a response whose body is still being read from the
   * tee): the page may read its branch first and send its next request before our copy is read, yet the response
   * must stay ahead of it. Records behind an unfilled slot wait (up to HOLD_MS).
   */
  reserve(): (records: RecordDraft[]) => void;
  /** The private channel (below): the relay also sends the tap its decode rules on it (tags.ts TAP_DECODERS). */
  channel: EventTarget;
  /**
   * Whether records are sent (the worker records this frame: tags.ts TAP_RECORDING). Off, `emit` drops its record,
   * `reserve` gives a slot that keeps nothing, and what waits is dropped: the page's traffic goes no further.
   */
  setSending(on: boolean): void;
  sending(): boolean;
}

/**
 * The tap's only way out, a channel no page script can reach. At install — document_start, before any page
 * script, and after the relay (content.js comes first in the manifest) — the tap makes an EventTarget of its own
 * and hands it to the relay in one synchronous `TAP_CHANNEL` event on the window, as the `relatedTarget` of a
 * MouseEvent: DOM objects are shared between the page's world and the relay's, an object `detail` would not cross.
 * The relay keeps the target of the first such event and stops that event. From then on each batch is a
 * `CustomEvent` with a JSON string `detail` dispatched on that target: never seen by page listeners (it is not in
 * the DOM and nothing the page can reach refers to it), and synchronous, so the last batch still goes at `pagehide`.
 * Records are batched (QUIET_MS, FLUSH_MS).
 */
export function createEmitter(win: Window, N: Natives, quiet = QUIET_MS, most = FLUSH_MS): Emitter {
  const channel = new N.EventTarget();
  N.dispatch(win, new N.MouseEvent(TAP_CHANNEL, { __proto__: null, relatedTarget: channel } as MouseEventInit));

  let queue: (RecordDraft | Slot)[] = [];
  /** The batch's latency bound and its quiet timer, when armed. */
  let bound: number | undefined;
  let quietTimer: number | undefined;
  /** Exchanges with records but no `end` yet. */
  let open = new SetCtor<string>();
  let openCount = 0;
  const slots = new WeakMapCtor<object, true>();

  const take = (all: boolean): RecordDraft[] => {
    const out: RecordDraft[] = [];
    const now = N.now();
    let i = 0;
    for (; i < queue.length; i++) {
      const item = queue[i]!;
      if (!WeakMapPrototypeHas(slots, item)) append(out, item as RecordDraft);
      else if ((item as Slot).records) {
        const records = (item as Slot).records!;
        for (let j = 0; j < records.length; j++) append(out, records[j]!);
      } else if (all || now - (item as Slot).since > HOLD_MS)
        (item as Slot).since = -1; // given up: its records go at the end when they come
      else break;
    }
    const rest: (RecordDraft | Slot)[] = [];
    for (let j = i; j < queue.length; j++) append(rest, queue[j]!);
    queue = rest;
    return out;
  };

  /** Records the tap could not send (one alone over the envelope limit): counted in the next envelope's `tooLarge`. */
  let tooLarge = 0;
  const post = (json: string): void => {
    // The envelope's fixed head, then the records: the relay recognises it by that head without parsing it.
    const tail = tooLarge > 0 ? `,"tooLarge":${NumberPrototypeToString(tooLarge)}}` : "}";
    N.dispatch(
      channel,
      new N.CustomEvent(TAP_SOURCE, {
        __proto__: null,
        detail: `${TAP_ENVELOPE_PREFIX}${json}${tail}`,
      } as CustomEventInit),
    );
    tooLarge = 0;
  };

  /**
   * Posts records in envelopes the relay and the worker accept whole: at most MAX_BATCH records (the envelope
   * schema's limit) and MAX_ENVELOPE_CHARS characters (a runtime message is capped); a burst over either goes in
   * halves. A record too large alone is not sent but counted (`tooLarge`), so the worker can tell it was lost.
   */
  const send = (records: RecordDraft[]): void => {
    if (records.length === 0) return;
    let json: string | undefined;
    if (records.length <= MAX_BATCH) {
      try {
        json = batchJson(records);
      } catch {
        json = undefined; // past the longest string V8 makes: halves
      }
    }
    if (json !== undefined && TAP_ENVELOPE_PREFIX.length + json.length + 32 <= MAX_ENVELOPE_CHARS) {
      try {
        post(json);
      } catch {
        // A dispatch that fails costs the batch, never the page.
      }
      return;
    }
    if (records.length === 1) {
      tooLarge++;
      try {
        post("[]");
      } catch {
        // Never into the page.
      }
      return;
    }
    const half = records.length > MAX_BATCH ? MAX_BATCH : records.length >> 1;
    const first: RecordDraft[] = [];
    const second: RecordDraft[] = [];
    for (let i = 0; i < records.length; i++) append(i < half ? first : second, records[i]!);
    send(first);
    send(second);
  };

  // Runs from a timer: nothing may throw out of it (the page's onerror would see it).
  const flush = (): void => {
    try {
      if (bound !== undefined) N.clearTimeout(bound);
      if (quietTimer !== undefined) N.clearTimeout(quietTimer);
      bound = quietTimer = undefined;
      const records = take(false);
      if (queue.length > 0) bound = N.setTimeout(flush, quiet);
      send(records);
    } catch {
      // Never into the page.
    }
  };

  const push = (item: RecordDraft | Slot): void => {
    append(queue, item);
    bound ??= N.setTimeout(flush, most);
  };

  /** The quiet timer: posts if no exchange is open (one that opened since waits for its own end). */
  const onQuiet = (): void => {
    quietTimer = undefined;
    if (openCount === 0) flush();
  };

  /** Follows the exchanges the records belong to: the batch goes QUIET_MS after the last open one ends. */
  const track = (record: RecordDraft): void => {
    const exchange = record.exchange;
    if (exchange === undefined) return;
    if (record.kind === "end") {
      if (SetPrototypeDelete(open, exchange) && --openCount === 0 && quietTimer === undefined)
        quietTimer = N.setTimeout(onQuiet, quiet);
    } else if (!SetPrototypeHas(open, exchange)) {
      // Exchanges that never end (a response the page never reads, a socket left open) would pile up here: past
      // MAX_OPEN they are forgotten, and batches go by the quiet timer again.
      if (openCount >= MAX_OPEN) {
        open = new SetCtor<string>();
        openCount = 0;
      }
      SetPrototypeAdd(open, exchange);
      openCount++;
    }
  };

  let sending = true;
  N.listen(win, "pagehide", () => sending && send(take(true)), true);
  const drop = (): void => undefined;

  return {
    channel,
    setSending(on) {
      sending = on;
      if (on) return;
      if (bound !== undefined) N.clearTimeout(bound);
      if (quietTimer !== undefined) N.clearTimeout(quietTimer);
      bound = quietTimer = undefined;
      queue = [];
      open = new SetCtor<string>();
      openCount = 0;
      tooLarge = 0;
    },
    sending: () => sending,
    emit(record) {
      if (!sending) return;
      push(record);
      track(record);
    },
    reserve() {
      if (!sending) return drop;
      const slot: Slot = { records: undefined, since: N.now() };
      WeakMapPrototypeSet(slots, slot, true);
      push(slot);
      return (records) => {
        if (slot.since === -1) for (let i = 0; i < records.length; i++) push(records[i]!);
        else slot.records = records;
        for (let i = 0; i < records.length; i++) track(records[i]!);
      };
    },
  };
}

/**
 * The batch as JSON text. JSON.stringify asks every object and array it meets for `toJSON`; the tap's records and
 * their array have only Object.prototype and Array.prototype above them, so unless the page has put a `toJSON` on
 * one of those (a look at their own properties, which runs nothing), it finds none and runs no page code. If it
 * has, the records are written by `recordJson` instead (slower: a call per field).
 */
function batchJson(records: RecordDraft[]): string {
  if (
    ReflectGetOwnPropertyDescriptor(ObjectPrototype, "toJSON") === undefined &&
    ReflectGetOwnPropertyDescriptor(ArrayPrototype, "toJSON") === undefined
  )
    return JSONStringify(records);
  let out = "[";
  for (let i = 0; i < records.length; i++) out += `${i === 0 ? "" : ","}${recordJson(records[i]!)}`;
  return `${out}]`;
}

/**
 * A record as JSON text, without JSON.stringify walking it: JSON.stringify asks every object and array it meets for
 * `toJSON`, through Object.prototype and Array.prototype, where a page may have put a getter, which would then run
 * for every record the tap posts. Records are the tap's own plain objects (own string keys; values that are
 * strings, numbers, booleans or a headers object of strings), so reading them runs no page code; strings and keys go
 * through JSONStringify, which asks a string nothing. Gives what JSON.stringify gives for them.
 */
export function recordJson(record: object): string {
  const keys = ReflectOwnKeys(record);
  let out = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== "string") continue;
    const value: unknown = (record as Record<string, unknown>)[key];
    let json: string;
    if (typeof value === "string") json = JSONStringify(value);
    else if (typeof value === "number") json = NumberIsFinite(value) ? NumberPrototypeToString(value) : "null";
    else if (typeof value === "boolean") json = value ? "true" : "false";
    else if (value !== null && typeof value === "object") json = recordJson(value);
    else continue;
    out += `${first ? "" : ","}${JSONStringify(key)}:${json}`;
    first = false;
  }
  return `${out}}`;
}
