import type { CaptureRecord } from "../record.ts";

/** A record waiting in the window: its time, its capture order (the tie-break) and its place in the queue. */
export interface Held<L> {
  record: CaptureRecord;
  time: number;
  order: number;
  lane: L;
  /** Its index in the heap (-1 once out). */
  at: number;
}

const less = <L>(a: Held<L>, b: Held<L>): boolean => a.time < b.time || (a.time === b.time && a.order < b.order);

/**
 * Records by time, then capture order: a binary heap whose items know their index, so that the records of one lane
 * can be taken out of the middle when the lane is let go (horizon.ts). Iterative: nothing here recurses.
 */
export function createTimeQueue<L>() {
  const heap: Held<L>[] = [];
  const put = (h: Held<L>, i: number): void => {
    heap[i] = h;
    h.at = i;
  };
  const up = (i: number): void => {
    const h = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(h, heap[parent]!)) break;
      put(heap[parent]!, i);
      i = parent;
    }
    put(h, i);
  };
  const down = (i: number): void => {
    const h = heap[i]!;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && less(heap[r]!, heap[l]!) ? r : l;
      if (!less(heap[child]!, h)) break;
      put(heap[child]!, i);
      i = child;
    }
    put(h, i);
  };
  const remove = (h: Held<L>): void => {
    const i = h.at;
    const last = heap.pop()!;
    if (last !== h) {
      put(last, i);
      up(i);
      down(last.at);
    }
    h.at = -1;
  };
  return {
    get size(): number {
      return heap.length;
    },
    peekTime: (): number => heap[0]!.time,
    push(h: Held<L>): void {
      heap.push(h);
      up(heap.length - 1);
    },
    pop(): Held<L> {
      const top = heap[0]!;
      remove(top);
      return top;
    },
    remove,
  };
}
