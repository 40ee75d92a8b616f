// What a tab may cost the worker, and how what it refuses is counted: records over the budget are dropped and
// counted, never lost silently (docs/extension.md "Budget").

export interface Limits {
  /** Bytes the whole worker keeps and holds, every tab together (`createWorkerBudget`). */
  maxTotalBytes?: number;
  /** The tab's memory budget: bytes of records (`recordBytes`) one tab keeps; later ones are dropped and counted. */
  maxBytes: number;
  /** Largest record kept; a larger one is dropped and counted as too large. */
  maxRecordBytes: number;
}
/** 256 MB of records per tab (docs/extension.md "Budget"); one record at most 8 MB (the tap cuts texts at 1 MiB). */
export const DEFAULT_LIMITS: Limits = {
  maxBytes: 256 * 2 ** 20,
  maxRecordBytes: 8 * 2 ** 20,
  maxTotalBytes: 512 * 2 ** 20,
};
/** The test build's budget (`__TEST__`): 16 MiB a tab, 32 MiB in all. */
export const TEST_LIMITS: Limits = { maxBytes: 16 * 2 ** 20, maxRecordBytes: 8 * 2 ** 20, maxTotalBytes: 32 * 2 ** 20 };

/** What a session tells the budget of what it costs: its stored bytes and the characters its held items carry. */
export interface Costly {
  meta: { bytes: number };
  heldChars(): number;
}

/**
 * The budget of the whole worker, checked before a relay's batch is parsed: a tab's stored records, its held window
 * messages (hold.ts) and the batches on their way in count against the tab's `maxBytes` and, all tabs together,
 * against `maxTotalBytes`. A batch refused is dropped unparsed; its records are counted as dropped.
 * Text is counted at two bytes a character, as `recordBytes` counts it.
 */
export function createWorkerBudget(limits: Limits) {
  const total = limits.maxTotalBytes ?? Infinity;
  /** Per tab: bytes stored and held, as last settled, and bytes admitted but not settled yet. */
  const used = new Map<number, number>();
  const pending = new Map<number, number>();
  let sum = 0;
  const add = (map: Map<number, number>, tabId: number, bytes: number): void => {
    map.set(tabId, (map.get(tabId) ?? 0) + bytes);
    sum += bytes;
  };
  return {
    /**
     * Whether a batch of `chars` characters may come in; if so it counts as pending until `settle`. A tab at its
     * budget takes nothing more; below it, a batch comes in and its records are kept while they fit (tabSession.ts),
     * so a tab costs at most its budget and one batch (MAX_ENVELOPE_CHARS). The worker as a whole never takes a
     * batch past its total.
     */
    admit(tabId: number, chars: number): boolean {
      const bytes = 2 * chars;
      const tab = (used.get(tabId) ?? 0) + (pending.get(tabId) ?? 0);
      if (tab >= limits.maxBytes || sum + bytes > total) return false;
      add(pending, tabId, bytes);
      return true;
    },
    /** A batch of `chars` was taken in (0: none); the tab now costs what the session says. */
    settle(tabId: number, chars: number, session: Costly): void {
      if (chars > 0) add(pending, tabId, -2 * chars);
      sum -= used.get(tabId) ?? 0;
      const bytes = session.meta.bytes + 2 * session.heldChars();
      used.set(tabId, bytes);
      sum += bytes;
    },
    forget(tabId: number): void {
      sum -= (used.get(tabId) ?? 0) + (pending.get(tabId) ?? 0);
      used.delete(tabId);
      pending.delete(tabId);
    },
    clear(): void {
      used.clear();
      pending.clear();
      sum = 0;
    },
    /** Bytes the worker holds now, every tab together (tests). */
    total: (): number => sum,
    /** The limits a tab's session applies to each record (tabSession.ts). */
    tab: (_tabId: number): Limits => limits,
  };
}

/** Bytes a record costs the worker, estimated: two per character of its strings (V8 and IndexedDB may need that), plus a fixed cost per record and per field. */
export function recordBytes(record: object): number {
  let bytes = 128;
  for (const value of Object.values(record)) {
    bytes += 16;
    if (typeof value === "string") bytes += 2 * value.length;
    else if (value !== null && typeof value === "object") bytes += recordBytes(value);
  }
  return bytes;
}

/** Records a refused envelope carried, as far as its text tells (1 when it is not even JSON). */
export function recordsIn(text: string): number {
  try {
    const data = JSON.parse(text) as { records?: unknown };
    return Array.isArray(data.records) && data.records.length > 0 ? data.records.length : 1;
  } catch {
    return 1;
  }
}
