import type { RecordDraft } from "../shared/tapRecord.ts";
import { PROTOCOL_VERSION, TAP_CHANNEL, TAP_SOURCE } from "../shared/tags.ts";
import type { Natives } from "./natives.ts";
import { append, JSONStringify, WeakMapCtor, WeakMapPrototypeHas, WeakMapPrototypeSet } from "./primordials.ts";

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
}

/**
 * The tap's only way out, a channel no page script can reach. At install — document_start, before any page
 * script, and after the relay (content.js comes first in the manifest) — the tap makes an EventTarget of its own
 * and hands it to the relay in one synchronous `TAP_CHANNEL` event on the window, as the `relatedTarget` of a
 * MouseEvent: DOM objects are shared between the page's world and the relay's, an object `detail` would not cross.
 * The relay keeps the target of the first such event and stops that event. From then on each batch is a
 * `CustomEvent` with a JSON string `detail` dispatched on that target: never seen by page listeners (it is not in
 * the DOM and nothing the page can reach refers to it), and synchronous, so the last batch still goes at `pagehide`.
 * Records are batched: one dispatch per ~50 ms.
 */
export function createEmitter(win: Window, N: Natives, delay = FLUSH_MS): Emitter {
  const channel = new N.EventTarget();
  N.dispatch(win, new N.MouseEvent(TAP_CHANNEL, { __proto__: null, relatedTarget: channel } as MouseEventInit));

  let queue: (RecordDraft | Slot)[] = [];
  let scheduled = false;
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
      } else if (all || now - (item as Slot).since > HOLD_MS) (item as Slot).since = -1; // given up: its records go at the end when they come
      else break;
    }
    const rest: (RecordDraft | Slot)[] = [];
    for (let j = i; j < queue.length; j++) append(rest, queue[j]!);
    queue = rest;
    return out;
  };

  const send = (records: RecordDraft[]): void => {
    if (records.length === 0) return;
    try {
      const detail = JSONStringify({ source: TAP_SOURCE, v: PROTOCOL_VERSION, kind: "records", records });
      N.dispatch(channel, new N.CustomEvent(TAP_SOURCE, { __proto__: null, detail } as CustomEventInit));
    } catch {
      // A batch that cannot be serialized costs itself, never the page.
    }
  };

  const flush = (): void => {
    scheduled = false;
    const records = take(false);
    if (queue.length > 0) schedule();
    send(records);
  };

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    N.setTimeout(flush, delay);
  };

  const push = (item: RecordDraft | Slot): void => {
    append(queue, item);
    schedule();
  };

  N.listen(win, "pagehide", () => send(take(true)), true);

  return {
    emit: push,
    reserve() {
      const slot: Slot = { records: undefined, since: N.now() };
      WeakMapPrototypeSet(slots, slot, true);
      push(slot);
      return (records) => {
        if (slot.since === -1) for (let i = 0; i < records.length; i++) push(records[i]!);
        else slot.records = records;
      };
    },
  };
}
