import type { CaptureRecord } from "../capture/record.ts";

/** What the worker keeps of a tab besides its records (persisted with them, so a woken worker resumes exactly). */
export interface TabMeta {
  tabId: number;
  /** The seq the next stored record gets. */
  nextSeq: number;
  /** Records dropped at the tab's budget (and by a relay's full queue). */
  dropped: number;
  /** Messages and records refused by validation (relay and worker). */
  rejected: number;
  /** Records dropped because one alone was too large (tap, relay or worker); absent in metas of older builds. */
  tooLarge?: number;
  /** Bytes of records stored (budget.ts `recordBytes`), against the budget. */
  bytes: number;
  preserveLog: boolean;
  /** Recording paused from the panel: new records are acknowledged but not kept (absent in metas of older builds). */
  paused?: boolean;
  /** Records seen while paused. */
  skipped?: number;
  /** The envelope stage's counts (panelProtocol.ts TabStats.envelopes), summed over worker restarts. */
  envelopes?: Record<string, number>;
  /** The current top-frame document; a new one is a navigation. */
  topDoc?: string;
  /** When recording started (recording.ts) and why. */
  recordingSince?: number;
  recordingReason?: "devtools" | "site";
  /** Per document, the highest relay number stored: what a relay resends after a worker restart is stored once. */
  docs: Record<string, number>;
  /**
   * Per agent backend (a proxy feed's origin and path), the highest feed seq stored: a panel that reads the feed
   * again from its start adds nothing twice (absent in metas of older builds).
   */
  backends?: Record<string, number>;
}

export const newMeta = (tabId: number, preserveLog = false): TabMeta => ({
  tabId,
  nextSeq: 0,
  dropped: 0,
  rejected: 0,
  bytes: 0,
  preserveLog,
  docs: {},
});

/** Where capture records live while the worker sleeps: IndexedDB in the extension (idbStore.ts), memory in tests. */
export interface RecordStore {
  load(tabId: number): Promise<{ meta: TabMeta; records: CaptureRecord[] } | undefined>;
  /** Stores records and the meta that counts them, atomically. */
  append(meta: TabMeta, records: readonly CaptureRecord[]): Promise<void>;
  /** Drops the tab's records and writes its meta (clear, navigation). */
  reset(meta: TabMeta): Promise<void>;
  remove(tabId: number): Promise<void>;
  clearAll(): Promise<void>;
}

export function createMemoryStore(): RecordStore & { tabs: Map<number, { meta: TabMeta; records: CaptureRecord[] }> } {
  const tabs = new Map<number, { meta: TabMeta; records: CaptureRecord[] }>();
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    tabs,
    async load(tabId) {
      const tab = tabs.get(tabId);
      return tab && copy(tab);
    },
    async append(meta, records) {
      const tab = tabs.get(meta.tabId) ?? { meta, records: [] };
      tab.meta = copy(meta);
      tab.records.push(...copy(records));
      tabs.set(meta.tabId, tab);
    },
    async reset(meta) {
      tabs.set(meta.tabId, { meta: copy(meta), records: [] });
    },
    async remove(tabId) {
      tabs.delete(tabId);
    },
    async clearAll() {
      tabs.clear();
    },
  };
}
