// What the worker records: a tab while DevTools is open on it, as DevTools' Network panel does, and the sites the
// user chose to record without DevTools. Everything else the relays send is acknowledged and dropped before it is
// parsed: no session, no IndexedDB (docs/extension.md "Privacy").

/** Why a tab is being recorded. */
export type RecordingReason = "devtools" | "site";

/** Where the gate keeps its state: `storage.session` for the inspected tabs, `storage.local` for the sites. */
export interface GateStorage {
  readInspected(): Promise<unknown>;
  writeInspected(value: Record<string, number>): Promise<void>;
  readSites(): Promise<unknown>;
  writeSites(value: string[]): Promise<void>;
  /** Calls `listener` with each new stored site list (another window's panel, a test). */
  onSitesChange?(listener: (value: unknown) => void): void;
}

export function createMemoryGateStorage(sites: string[] = []): GateStorage {
  let inspected: Record<string, number> = {};
  let kept = [...sites];
  return {
    readInspected: async () => ({ ...inspected }),
    writeInspected: async (value) => void (inspected = { ...value }),
    readSites: async () => [...kept],
    writeSites: async (value) => void (kept = [...value]),
  };
}

/** Most sites recorded without DevTools. */
const MAX_SITES = 256;
/**
 * A worker woken after a stop finds the tabs that were inspected in storage.session; the DevTools pages reconnect at
 * once. A tab whose inspector has not come back by then (DevTools closed while the worker slept) stops recording.
 */
export const RECONNECT_GRACE_MS = 10_000;

/**
 * The site of a frame as the browser names it: its scheme and host, any port (`http://127.0.0.1` for every local
 * port). Undefined for what is not http(s).
 */
export function siteOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? `${u.protocol}//${u.hostname}` : undefined;
  } catch {
    return undefined;
  }
}

export function createRecordingGate(storage: GateStorage, now: () => number = Date.now) {
  /** Per inspected tab: since when, and how many inspectors (DevTools pages, panels) are connected. */
  const inspected = new Map<number, { since: number; inspectors: number }>();
  let sites = new Set<string>();
  function takeSites(value: unknown): void {
    if (Array.isArray(value))
      sites = new Set(value.filter((s): s is string => typeof s === "string" && siteOf(s) === s).slice(0, MAX_SITES));
    else if (value === undefined) sites = new Set();
  }
  const persist = (): void => {
    const value: Record<string, number> = {};
    for (const [tabId, { since }] of inspected) value[tabId] = since;
    void storage.writeInspected(value).catch(() => undefined);
  };
  let ready = false;
  const loaded = Promise.all([
    storage.readInspected().then(
      (value) => {
        if (value === null || typeof value !== "object") return;
        for (const [tab, since] of Object.entries(value)) {
          const tabId = Number(tab);
          if (Number.isInteger(tabId) && typeof since === "number" && !inspected.has(tabId))
            inspected.set(tabId, { since, inspectors: 0 });
        }
        setTimeout(() => {
          let changed = false;
          for (const [tabId, entry] of inspected) if (entry.inspectors === 0 && inspected.delete(tabId)) changed = true;
          if (changed) persist();
        }, RECONNECT_GRACE_MS);
      },
      () => undefined,
    ),
    storage.readSites().then(takeSites, () => undefined),
  ]);
  void loaded.then(() => void (ready = true));
  storage.onSitesChange?.(takeSites);

  return {
    loaded,
    /** Whether what is recorded has been read from storage (batches wait for it: hub.ts). */
    isLoaded: (): boolean => ready,
    /** Whether records of this tab, from a frame at `frameUrl`, are kept; and since when and why. */
    recording(tabId: number, frameUrl: string | undefined): { since: number; reason: RecordingReason } | undefined {
      const entry = inspected.get(tabId);
      if (entry) return { since: entry.since, reason: "devtools" };
      const site = siteOf(frameUrl);
      return site !== undefined && sites.has(site) ? { since: 0, reason: "site" } : undefined;
    },
    /** DevTools (its page, or a panel) opened on the tab; the returned function says it closed. */
    inspect(tabId: number): () => void {
      const entry = inspected.get(tabId);
      if (entry) entry.inspectors++;
      else {
        inspected.set(tabId, { since: now(), inspectors: 1 });
        persist();
      }
      let open = true;
      return () => {
        const current = inspected.get(tabId);
        if (!open || !current) return;
        open = false;
        if (--current.inspectors > 0) return;
        inspected.delete(tabId);
        persist();
      };
    },
    isInspected: (tabId: number): boolean => inspected.has(tabId),
    sites: (): string[] => [...sites],
    hasSite: (site: string | undefined): boolean => site !== undefined && sites.has(site),
    /** Records the site without DevTools (on), or no longer (off). */
    async setSite(site: string, on: boolean): Promise<void> {
      await loaded;
      if (siteOf(site) !== site) return;
      if (on && sites.size < MAX_SITES) sites.add(site);
      else if (!on) sites.delete(site);
      await storage.writeSites([...sites]).catch(() => undefined);
    },
    forgetTab(tabId: number): void {
      if (inspected.delete(tabId)) persist();
    },
  };
}

export type RecordingGate = ReturnType<typeof createRecordingGate>;
