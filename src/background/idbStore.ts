import type { CaptureRecord } from "../capture/record.ts";
import type { RecordStore, TabMeta } from "./store.ts";

/**
 * The record store of the extension: IndexedDB, one object store of records keyed [tabId, seq] and one of tab
 * metas keyed tabId. Chosen over storage.session: its 10 MB quota is shared by every tab and a single large MCP
 * result (up to the tap's 1 MiB cap) would eat a tenth of it, and it needs whole values rewritten where IndexedDB
 * appends a batch in one transaction. The database outlives the browser session, so the worker clears it at
 * browser start-up and on install (tab ids are reused across sessions).
 */
export function openIdbStore(name = "mcp-elicitation-inspector"): RecordStore {
  const opened = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("records");
      request.result.createObjectStore("tabs");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const range = (tabId: number) => IDBKeyRange.bound([tabId, 0], [tabId, Number.MAX_SAFE_INTEGER]);
  const done = (request: IDBRequest | IDBTransaction): Promise<void> =>
    new Promise((resolve, reject) => {
      if ("oncomplete" in request) {
        request.oncomplete = () => resolve();
        request.onabort = request.onerror = () => reject(request.error);
      } else {
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }
    });
  const write = async (fn: (records: IDBObjectStore, tabs: IDBObjectStore) => void): Promise<void> => {
    const db = await opened;
    const tx = db.transaction(["records", "tabs"], "readwrite");
    fn(tx.objectStore("records"), tx.objectStore("tabs"));
    await done(tx);
  };

  return {
    async load(tabId) {
      const db = await opened;
      const tx = db.transaction(["records", "tabs"], "readonly");
      const meta = tx.objectStore("tabs").get(tabId) as IDBRequest<TabMeta | undefined>;
      const records = tx.objectStore("records").getAll(range(tabId)) as IDBRequest<CaptureRecord[]>;
      await done(tx);
      return meta.result ? { meta: meta.result, records: records.result } : undefined;
    },
    append: (meta, records) =>
      write((store, tabs) => {
        for (const record of records) store.put(record, [meta.tabId, record.seq]);
        tabs.put(meta, meta.tabId);
      }),
    reset: (meta) =>
      write((store, tabs) => {
        store.delete(range(meta.tabId));
        tabs.put(meta, meta.tabId);
      }),
    remove: (tabId) =>
      write((store, tabs) => {
        store.delete(range(tabId));
        tabs.delete(tabId);
      }),
    clearAll: () =>
      write((store, tabs) => {
        store.clear();
        tabs.clear();
      }),
  };
}
