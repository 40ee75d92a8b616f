import type { Provenance } from "./intake.ts";

// The wait of window messages before they are stored. A message between a page and its iframe is recorded by the
// tap of the frame that receives it, so the two halves of one conversation come through two relays, each batching
// for up to FLUSH_MS (src/page/emit.ts), and their arrival order is not the order on the wire. Items (tap envelopes)
// that carry window messages therefore wait, then go in the order of their records' times across documents. Each
// document's own order is kept: later items of a document with an item waiting wait behind it. Acks follow what is
// stored (tabSession.ts).

/**
 * Items wait until none has come for HOLD_MS (more than the tap's FLUSH_MS of 250: the other frames' batches of the
 * same moments are in by then), but no item waits longer than MAX_HOLD_MS (a page that never stops posting messages).
 */
export const HOLD_MS = 400;
export const MAX_HOLD_MS = 2000;

/** A relay item waiting: its document, its relay number, when it came, and its records unchecked. */
interface Held {
  doc: string;
  number: number;
  arrived: number;
  records: unknown[];
  from?: Provenance;
  /** Characters of the envelope it came in. */
  size: number;
}

/** A held record and the frame it came from. */
export interface HeldRecord {
  raw: unknown;
  from?: Provenance;
}

export const isWindowMessage = (raw: unknown): boolean =>
  raw !== null && typeof raw === "object" && (raw as { transport?: unknown }).transport === "postMessage";

const timeOf = ({ raw }: HeldRecord): number => {
  const time = raw !== null && typeof raw === "object" ? (raw as { time?: unknown }).time : undefined;
  return typeof time === "number" ? time : -Infinity;
};

/** The records of several documents' queues, merged by time; each queue's own order is kept. */
function byTime(queues: Iterable<HeldRecord[]>): HeldRecord[] {
  const heads = [...queues].map((queue) => ({ queue, at: 0 }));
  const out: HeldRecord[] = [];
  for (;;) {
    let best: (typeof heads)[number] | undefined;
    for (const head of heads)
      if (head.at < head.queue.length && (!best || timeOf(head.queue[head.at]!) < timeOf(best.queue[best.at]!)))
        best = head;
    if (!best) return out;
    out.push(best.queue[best.at++]!);
  }
}

/** One tab's waiting items. */
export function createHold() {
  let held: Held[] = [];
  /** Characters of the items waiting, for the worker's budget (budget.ts). */
  let chars = 0;
  /** Per document with an item waiting, the number of its last one. */
  const waiting = new Map<string, number>();

  return {
    /** Whether any item waits. */
    any: (): boolean => held.length > 0,
    /** The number of the document's last item waiting, if any: its later items wait behind it. */
    lastOf: (doc: string): number | undefined => waiting.get(doc),
    /** The number of the document's first item waiting, if any: what it may ack stops before it. */
    firstOf: (doc: string): number | undefined => held.find((h) => h.doc === doc)?.number,
    add(doc: string, number: number, arrived: number, records: unknown[], from?: Provenance, size = 0): void {
      held.push({ doc, number, arrived, records, size, ...(from && { from }) });
      chars += size;
      waiting.set(doc, number);
    },
    /** When waiting items may go (ms since the epoch), or undefined when none waits. */
    nextRelease: (): number | undefined =>
      held.length > 0 ? Math.min(held.at(-1)!.arrived + HOLD_MS, held[0]!.arrived + MAX_HOLD_MS) : undefined,
    /**
     * Takes the items that may go: all of them once none has come for HOLD_MS (or with `all`), else those that have
     * waited HOLD_MS once the oldest has waited MAX_HOLD_MS. Their records merged by time, and per document the
     * number of the last item taken.
     */
    take(now: number, all = false): { records: HeldRecord[]; acks: Map<string, number> } {
      const quiet = held.length > 0 && held.at(-1)!.arrived + HOLD_MS <= now;
      const ready = held.filter(
        (h) => all || quiet || (held[0]!.arrived + MAX_HOLD_MS <= now && h.arrived + HOLD_MS <= now),
      );
      held = held.slice(ready.length);
      for (const item of ready) chars -= item.size;
      const acks = new Map<string, number>();
      const queues = new Map<string, HeldRecord[]>();
      for (const item of ready) {
        const queue = queues.get(item.doc) ?? [];
        for (const raw of item.records) queue.push({ raw, from: item.from });
        queues.set(item.doc, queue);
        acks.set(item.doc, item.number);
      }
      for (const [doc, number] of acks) if (waiting.get(doc) === number) waiting.delete(doc);
      return { records: byTime(queues.values()), acks };
    },
    chars: (): number => chars,
    clear(): void {
      held = [];
      chars = 0;
      waiting.clear();
    },
  };
}
