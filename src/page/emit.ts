import type { RecordDraft } from "../shared/tapRecord.ts";
import { PROTOCOL_VERSION, TAP_SOURCE } from "../shared/tags.ts";
import type { Natives } from "./natives.ts";

/** How long records wait to be posted together: one post per ~50 ms costs the page ~1.07×, one per record ~1.5×. */
export const FLUSH_MS = 50;
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
  /**
   * Emits a record the page caused by sending, one task later while a stream of ours is being read: an SSE event
   * the page already acted on (its answer) reaches our branch of the tee in the same task, so the event lands first.
   */
  emitSent(record: RecordDraft): void;
  /** Streams being read: while > 0, sends are deferred (emitSent). */
  streams: number;
}

/**
 * The tap's only way out: records are queued and posted to the content relay in one envelope per ~50 ms. The relay
 * takes the envelope out of the event (stopImmediatePropagation) before any page listener sees it. At `pagehide` the
 * rest goes synchronously as a CustomEvent: a message posted then would be dropped with the document.
 */
export function createEmitter(win: Window, N: Natives, delay = FLUSH_MS): Emitter {
  let queue: (RecordDraft | Slot)[] = [];
  let scheduled = false;
  let deferred: RecordDraft[] = [];
  const isSlot = (item: RecordDraft | Slot): item is Slot => "since" in item && !("kind" in item);
  const envelope = (records: RecordDraft[]) => ({ source: TAP_SOURCE, v: PROTOCOL_VERSION, kind: "records" as const, records });

  const take = (all: boolean): RecordDraft[] => {
    const out: RecordDraft[] = [];
    const now = N.now();
    let i = 0;
    for (; i < queue.length; i++) {
      const item = queue[i]!;
      if (!isSlot(item)) out.push(item);
      else if (item.records) out.push(...item.records);
      else if (all || now - item.since > HOLD_MS) item.since = -1; // given up: its records go at the end when they come
      else break;
    }
    queue = queue.slice(i);
    return out;
  };

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    N.setTimeout.call(win, flush, delay);
  };

  const flush = (): void => {
    scheduled = false;
    const records = take(false);
    if (queue.length > 0) schedule();
    if (records.length === 0) return;
    try {
      (N.postMessage as (message: unknown, targetOrigin: string) => void).call(win, envelope(records), "*");
    } catch {
      // A record that cannot be cloned costs its batch, never the page.
    }
  };

  const push = (item: RecordDraft | Slot): void => {
    queue.push(item);
    schedule();
  };

  // One task later, without timers a page could throttle or count: a private MessageChannel.
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const records = deferred;
    deferred = [];
    for (const record of records) push(record);
  };

  N.listen.call(
    win,
    "pagehide",
    () => {
      for (const record of deferred.splice(0)) queue.push(record);
      const records = take(true);
      if (records.length === 0) return;
      try {
        N.dispatch.call(win, new N.CustomEvent(TAP_SOURCE, { detail: N.stringify(envelope(records)) }));
      } catch {
        // Never into the page.
      }
    },
    true,
  );

  const emitter: Emitter = {
    streams: 0,
    emit: (record) => push(record),
    reserve() {
      const slot: Slot = { records: undefined, since: N.now() };
      push(slot);
      return (records) => {
        if (slot.since === -1) for (const record of records) push(record);
        else slot.records = records;
      };
    },
    emitSent(record) {
      if (emitter.streams === 0 && deferred.length === 0) return push(record);
      deferred.push(record);
      if (deferred.length === 1) channel.port2.postMessage(null);
    },
  };
  return emitter;
}
