import { RELAY_GRACE_MS } from "../engine/index.ts";
import { ContentBatch } from "../shared/contentProtocol.ts";
import { TAP_ENVELOPE_PREFIX } from "../shared/tags.ts";
import { chunkRecords, PanelCommand, RECORD_CHUNK_CHARS } from "../shared/panelProtocol.ts";
import { debug } from "../shared/debug.ts";
import { badgeFor, type Badge } from "./badge.ts";
import { createWorkerBudget, DEFAULT_LIMITS, recordsIn, type Limits } from "./budget.ts";
import { createPanels, type PanelLink } from "./panels.ts";
import { envelope, post, type HubPort } from "./ports.ts";
import { ACK_MS, createRelayAcks } from "./relayAcks.ts";
import { createMemoryRuleStorage, createDecoderBook, type DecoderChange, type DecoderStorage } from "./decoderBook.ts";
import { createSettingsBook, type SettingsStorage } from "./settingsBook.ts";
import { createMemoryStore, newMeta, type RecordStore } from "./store.ts";
import { siteOf, type RecordingGate } from "./recording.ts";
import type { Provenance } from "./intake.ts";
import { createTabSession, emptyDelta, type SessionDelta, type TabSession } from "./tabSession.ts";

export type { HubPort };

export interface HubOptions {
  store: RecordStore;
  /** Shows a tab's badge (chrome.action in the extension). */
  badge?(tabId: number, badge: Badge): void;
  limits?: Limits;
  /** How long deltas gather before a panel gets them. */
  flushMs?: number;
  /** Message text per chunk of records sent to a panel (default RECORD_CHUNK_CHARS; tests make it small). */
  recordChunkChars?: number;
  /** Least time between two acks on one relay's port (ACK_MS). */
  ackMs?: number;
  /** Where the decode rules are kept (storage.local in the extension; memory by default). */
  rules?: DecoderStorage;
  /** Where the engine settings are kept (storage.local in the extension; none by default). */
  settings?: SettingsStorage;
  /**
   * What is recorded (recording.ts): tabs with DevTools open, and the sites chosen to be recorded without. Absent
   * (tests of other parts), every tab is recorded.
   */
  gate?: RecordingGate;
  /** Whether a tab is private (incognito): its capture lives in memory only, never in `store`. */
  isPrivate?(tabId: number): Promise<boolean>;
  /**
   * Tells the relays of a tab (every tab: undefined) that it may be recorded now, so their taps, told to stop by an
   * ack, start sending again (`tabs.sendMessage` in the extension: contentProtocol.ts WorkerWake).
   */
  wake?(tabId: number | undefined): void;
}

/**
 * The worker's state: one session (records + engine) per tab, loaded from the store on first use after a wake,
 * and the panels subscribed to each tab. Work on a tab runs one step at a time (a promise chain per tab), so a
 * batch that arrives while the tab is still being replayed waits for the replay.
 */
export function createHub(options: HubOptions) {
  const disk = options.store;
  /** Private tabs' captures: memory only. */
  const memory = createMemoryStore();
  const privateTabs = new Set<number>();
  const storeOf = (tabId: number): RecordStore => (privateTabs.has(tabId) ? memory : disk);
  const gate = options.gate;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const budget = createWorkerBudget(limits);
  const flushMs = options.flushMs ?? 50;
  const ackMs = options.ackMs ?? ACK_MS;
  const chunkChars = options.recordChunkChars ?? RECORD_CHUNK_CHARS;
  const sessions = new Map<number, Promise<TabSession>>();
  const chains = new Map<number, Promise<unknown>>();
  const panels = createPanels(flushMs, chunkChars);
  const badges = new Map<number, string>();
  let barrier: Promise<unknown> = gate?.loaded ?? Promise.resolve();
  // Rules apply to what arrives from then on: the sessions already loaded get them too, and every panel is told.
  const book = createDecoderBook(options.rules ?? createMemoryRuleStorage(), (rules) => {
    for (const [tabId, s] of sessions) void serial(tabId, async () => (await s).setRules(rules));
  });

  // New settings: every loaded tab is analysed again and its panels get a fresh snapshot.
  const settings = createSettingsBook(
    options.settings ?? { read: async () => undefined, write: async () => undefined },
    (engine) => {
      for (const [tabId, s] of sessions) {
        void serial(tabId, async () => {
          const session = await s;
          session.reanalyse(engine);
          publish(tabId, session, "reset");
        });
      }
    },
  );

  const serial = <T>(tabId: number, step: () => Promise<T>): Promise<T | undefined> => {
    const previous = chains.get(tabId) ?? Promise.resolve();
    const next = Promise.all([previous, barrier])
      .catch(() => undefined)
      .then(step)
      .catch((error: unknown) => {
        debug("hub", `tab ${tabId}:`, error);
        return undefined;
      });
    chains.set(tabId, next);
    void next.then(() => chains.get(tabId) === next && chains.delete(tabId));
    return next;
  };

  const session = (tabId: number): Promise<TabSession> => {
    let s = sessions.get(tabId);
    if (!s) {
      const privacy = options.isPrivate?.(tabId).catch(() => false) ?? Promise.resolve(false);
      s = privacy
        .then((isPrivate) => {
          if (isPrivate) privateTabs.add(tabId);
          return Promise.all([
            storeOf(tabId)
              .load(tabId)
              .catch(() => undefined),
            book.loaded,
            settings.loaded,
          ]);
        })
        .then(([loaded]) =>
          createTabSession(
            loaded?.meta ?? newMeta(tabId),
            loaded?.records ?? [],
            budget.tab(tabId),
            book.rules(),
            settings.options(),
          ),
        );
      sessions.set(tabId, s);
    }
    return s;
  };

  const showBadge = (tabId: number, s: TabSession): void => {
    const badge = badgeFor(s.severities());
    const key = `${badge.text}|${badge.color}`;
    if (badges.get(tabId) === key) return;
    badges.set(tabId, key);
    options.badge?.(tabId, badge);
  };

  const settles = new Map<number, ReturnType<typeof setTimeout>>();
  const publish = (tabId: number, s: TabSession, delta: SessionDelta | "reset"): void => {
    const site = topSites.get(tabId);
    s.setSite(site, gate ? gate.hasSite(site) : false);
    showBadge(tabId, s);
    panels.publish(tabId, s, delta);
    scheduleSettle(tabId, s);
  };
  /** A relay judgement that waits on time (engine `settle`, RELAY_GRACE_MS) is made once the time has passed. */
  const scheduleSettle = (tabId: number, s: TabSession): void => {
    if (!s.unsettled() || settles.has(tabId) || stopped) return;
    const current = sessions.get(tabId);
    settles.set(
      tabId,
      setTimeout(() => {
        settles.delete(tabId);
        void serial(tabId, async () => {
          if (sessions.get(tabId) !== current) return; // the tab was closed or the browser restarted meanwhile
          const delta = s.settle();
          if (delta.flows.size > 0 || delta.findings.length > 0) publish(tabId, s, delta);
          else scheduleSettle(tabId, s);
        });
      }, RELAY_GRACE_MS + 100),
    );
  };

  /** Each tab's top site, from its top frame's relay: what the panel's "Record on this site" names. */
  const topSites = new Map<number, string>();

  /** Each document's ack, through the port its relay uses now: items that waited (TabSession `release`) are acked later. */
  const ackers = new Map<string, (doc: string, upTo: number) => void>();
  const releases = new Map<number, ReturnType<typeof setTimeout>>();
  let stopped = false;
  /** Stores the tab's waiting items once they have waited long enough (hold.ts HOLD_MS). */
  const scheduleRelease = (tabId: number, s: TabSession): void => {
    const at = s.nextRelease();
    if (at === undefined || releases.has(tabId) || stopped) return;
    const current = sessions.get(tabId);
    releases.set(
      tabId,
      setTimeout(
        () => {
          releases.delete(tabId);
          void serial(tabId, async () => {
            if (sessions.get(tabId) !== current) return; // the tab was closed or the browser restarted meanwhile
            const result = s.release();
            budget.settle(tabId, 0, s);
            if (result.stored.length > 0 || result.acks.size > 0) await storeOf(tabId).append(s.meta, result.stored);
            for (const [doc, upTo] of result.acks) ackers.get(doc)?.(doc, upTo);
            if (result.stored.length > 0) publish(tabId, s, result.delta);
            scheduleRelease(tabId, s);
          });
        },
        Math.max(0, at - Date.now()),
      ),
    );
  };

  return {
    /** A content relay's port: record batches in, acks out (after the records are stored). */
    connectContent(port: HubPort): void {
      const sender = port.sender;
      const tabId = sender?.tab?.id;
      if (tabId === undefined || tabId < 0) return port.disconnect();
      if (sender?.tab?.incognito) privateTabs.add(tabId);
      // The browser's word on the relay's frame: Chromium gives the origin, Firefox the URL.
      const frameUrl = sender?.origin ?? sender?.url;
      const origin = frameUrl === undefined ? undefined : originOf(frameUrl);
      const from: Provenance | undefined = origin === undefined ? undefined : { frame: sender?.frameId ?? 0, origin };
      const acks = createRelayAcks(port, ackMs);
      let doc: string | undefined;
      port.onDisconnect.addListener(() => {
        acks.stop();
        if (doc !== undefined && ackers.get(doc) === acks.queue) ackers.delete(doc);
      });
      // A woken worker reads what it records (inspected tabs, sites) from storage, while relays already resend what
      // they hold: their batches wait for it, in order, rather than be taken for a tab nobody inspects.
      let waiting: Promise<void> | undefined = gate && !gate.isLoaded() ? gate.loaded.then(() => undefined) : undefined;
      port.onMessage.addListener((message) => {
        if (waiting) waiting = waiting.then(() => take(message));
        else take(message);
      });
      const take = (message: unknown): void => {
        if (sender?.frameId === 0 && origin !== undefined) topSites.set(tabId, siteOf(origin) ?? origin);
        // Before anything is parsed: a tab nobody inspects keeps nothing, and no tab passes the worker's budget.
        const head = batchHead(message);
        const recording = gate?.recording(tabId, frameUrl);
        if (gate && !recording) {
          // The relay tells its tap to stop sending: the page's traffic goes no further than the tap.
          if (head) acks.queue(head.doc, head.last, false);
          return;
        }
        const size = head?.chars ?? 0;
        if (head && !budget.admit(tabId, size)) {
          acks.queue(head.doc, head.last);
          void serial(tabId, async () => {
            const s = await session(tabId);
            s.meta.dropped += head.records;
            publish(tabId, s, emptyDelta());
          });
          return;
        }
        const parsed = ContentBatch.safeParse(message);
        void serial(tabId, async () => {
          const s = await session(tabId);
          if (recording)
            s.setRecording(
              recording.since === 0 ? (s.recordingSince() ?? Date.now()) : recording.since,
              recording.reason,
            );
          if (!parsed.success) {
            // A relay of another version or a broken one: what it carried is refused, counted as well as it tells.
            const items = (message as { records?: unknown } | null)?.records;
            s.meta.rejected +=
              Array.isArray(items) && items.length > 0
                ? items.reduce<number>((n, item) => n + (typeof item === "string" ? recordsIn(item) : 1), 0)
                : 1;
            return;
          }
          const batch = parsed.data;
          doc = batch.doc;
          ackers.set(batch.doc, acks.queue);
          const result = s.ingest(batch, Date.now(), from);
          budget.settle(tabId, size, s);
          const store = storeOf(tabId);
          if (result.navigated) await store.reset(s.meta);
          if (
            result.stored.length > 0 ||
            s.records().length > 0 ||
            s.meta.dropped > 0 ||
            s.meta.rejected > 0 ||
            (s.meta.tooLarge ?? 0) > 0 ||
            result.navigated
          )
            await storeOf(tabId).append(s.meta, result.stored);
          acks.queue(batch.doc, result.ackUpTo);
          publish(tabId, s, result.navigated ? "reset" : result.delta);
          scheduleRelease(tabId, s);
        });
      };
    },

    /** A panel's port: commands in (validated), a snapshot then deltas out. */
    connectPanel(port: HubPort): void {
      const tellRules = (tabId: number, change: DecoderChange, changed: boolean): void => {
        post(port, {
          ...envelope,
          kind: "decoders",
          tabId,
          rules: change.rules,
          ...(change.error !== undefined && { error: change.error }),
        });
        if (!changed || change.error !== undefined) return;
        for (const other of panels.all())
          if (other.port !== port)
            post(other.port, { ...envelope, kind: "decoders", tabId: other.tabId, rules: change.rules });
      };
      const tellSettings = (tabId: number, error: string | undefined, changed: boolean): void => {
        const config = settings.config();
        post(port, { ...envelope, kind: "settings", tabId, config, ...(error !== undefined && { error }) });
        if (!changed || error !== undefined) return;
        for (const other of panels.all())
          if (other.port !== port) post(other.port, { ...envelope, kind: "settings", tabId: other.tabId, config });
      };
      let link: PanelLink | undefined;
      /** The tab this port inspects (the DevTools page's, or a panel's subscription), and how to let it go. */
      let inspecting: { tabId: number; release(): void } | undefined;
      const inspect = (tabId: number): void => {
        if (inspecting?.tabId === tabId) return;
        inspecting?.release();
        const was = gate?.isInspected(tabId);
        inspecting = gate ? { tabId, release: gate.inspect(tabId) } : undefined;
        if (gate && !was) options.wake?.(tabId);
      };
      const unlink = (): void => {
        if (link) panels.unlink(link);
        link = undefined;
        inspecting?.release();
        inspecting = undefined;
      };
      port.onDisconnect.addListener(unlink);
      port.onMessage.addListener((message) => {
        const parsed = PanelCommand.safeParse(message);
        if (!parsed.success) return;
        const command = parsed.data;
        const tabId = command.tabId;
        // DevTools open on the tab: recording starts now (synchronously: the relay's next batch is kept).
        if (command.kind === "inspect" || command.kind === "subscribe") inspect(tabId);
        if (command.kind === "inspect") return;
        if (command.kind === "recordSite") {
          const site = topSites.get(tabId);
          if (!gate || site === undefined) return;
          return void gate.setSite(site, command.on).then(() => {
            // The site's frames may be in any tab: every relay hears it, and the next ack tells each tap the truth.
            if (command.on) options.wake?.(undefined);
            return serial(tabId, async () => publish(tabId, await session(tabId), "reset"));
          });
        }
        // The rules are the browser's, not the tab's: they change in the rule book's own order.
        if (command.kind === "decoders")
          return void book.loaded.then(() => tellRules(tabId, { rules: [...book.rules()] }, false));
        if (command.kind === "addDecoder")
          return void book.add(command.rule).then((change) => tellRules(tabId, change, true));
        if (command.kind === "removeDecoder")
          return void book.remove(command.id).then((change) => tellRules(tabId, change, true));
        if (command.kind === "settings") return void settings.loaded.then(() => tellSettings(tabId, undefined, false));
        if (command.kind === "setSettings")
          return void settings.set(command.config).then((r) => tellSettings(tabId, r.error, true));
        void serial(tabId, async () => {
          const s = await session(tabId);
          switch (command.kind) {
            case "subscribe": {
              if (link) panels.unlink(link);
              const recording = gate?.recording(tabId, undefined);
              if (recording) s.setRecording(recording.since, recording.reason);
              const site = topSites.get(tabId);
              s.setSite(site, gate ? gate.hasSite(site) : false);
              link = panels.subscribe(port, tabId, s);
              showBadge(tabId, s);
              return;
            }
            case "clear":
              s.clear();
              budget.settle(tabId, 0, s);
              await storeOf(tabId).reset(s.meta);
              return publish(tabId, s, "reset");
            case "preserveLog":
              s.meta.preserveLog = command.on;
              await storeOf(tabId).append(s.meta, []);
              return publish(tabId, s, "reset");
            case "record":
              s.meta.paused = !command.on;
              await storeOf(tabId).append(s.meta, []);
              return publish(tabId, s, "reset");
            case "backendRecords": {
              const result = s.ingestBackend(command.feed, command.records);
              await storeOf(tabId).append(s.meta, result.stored);
              if (result.stored.length > 0) publish(tabId, s, result.delta);
              return;
            }
            case "records": {
              // Chunked like a snapshot's records: one runtime message may not exceed 64 MiB.
              const chunks = chunkRecords(s.records(), chunkChars);
              chunks.forEach((records, i) =>
                post(port, { ...envelope, kind: "records", tabId, records, more: i < chunks.length - 1 }),
              );
              return;
            }
          }
        });
      });
    },

    removeTab(tabId: number): Promise<unknown> {
      clearTimeout(releases.get(tabId));
      releases.delete(tabId);
      return serial(tabId, async () => {
        sessions.delete(tabId);
        badges.delete(tabId);
        topSites.delete(tabId);
        budget.forget(tabId);
        gate?.forgetTab(tabId);
        await storeOf(tabId).remove(tabId);
        privateTabs.delete(tabId);
      });
    },

    /** Browser start-up or install: stored tab ids belong to another session. */
    resetAll(): Promise<unknown> {
      for (const timer of releases.values()) clearTimeout(timer);
      releases.clear();
      sessions.clear();
      badges.clear();
      budget.clear();
      barrier = Promise.all([barrier, ...chains.values(), gate?.loaded])
        .catch(() => undefined)
        .then(() => Promise.all([disk.clearAll(), memory.clearAll()]))
        .catch(() => undefined);
      return barrier;
    },

    /** The session of a tab, for tests. */
    session,
    /** Cancels the hub's timers: a stopped worker runs nothing (tests that stop a worker stop its hub). */
    stop(): void {
      for (const timer of settles.values()) clearTimeout(timer);
      settles.clear();
      for (const timer of releases.values()) clearTimeout(timer);
      releases.clear();
      stopped = true;
    },
  };
}

/** A URL's origin, or undefined. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * What a relay's batch is, read without parsing anything it carries: its document, its last item's number, the
 * characters of its items and how many records they hold (each record of a tap envelope has one `"kind":"`, as
 * the envelope's head has; a message's own text is escaped inside it). Undefined when it is not even shaped like a batch.
 */
function batchHead(message: unknown): { doc: string; last: number; chars: number; records: number } | undefined {
  const m = message as { doc?: unknown; first?: unknown; records?: unknown } | null;
  if (
    m === null ||
    typeof m !== "object" ||
    typeof m.doc !== "string" ||
    !Number.isInteger(m.first) ||
    !Array.isArray(m.records)
  )
    return undefined;
  let chars = 0;
  let records = 0;
  for (const item of m.records as unknown[]) {
    if (typeof item !== "string") {
      chars += 1024;
      records++;
      continue;
    }
    chars += item.length;
    // The envelope's own head names its kind too.
    if (item.startsWith(TAP_ENVELOPE_PREFIX)) records--;
    for (let at = item.indexOf('"kind":"'); at !== -1; at = item.indexOf('"kind":"', at + 8)) records++;
  }
  return { doc: m.doc, last: (m.first as number) + m.records.length - 1, chars, records };
}
