import { chunkRecords } from "../shared/panelProtocol.ts";
import { envelope, post, type HubPort } from "./ports.ts";
import { addChanges } from "../engine/delta.ts";
import { emptyDelta, type SessionDelta, type TabSession } from "./tabSession.ts";

/** A panel subscribed to a tab, and the delta gathering for it. */
export interface PanelLink {
  port: HubPort;
  tabId: number;
  pending: SessionDelta;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The panels subscribed to each tab, and what they are sent: a snapshot on subscribe (and on a reset: clear,
 * navigation, preserve-log or record toggled), then deltas gathered for `flushMs`. Records go in chunks of at most
 * `chunkChars` of message text: one runtime message may not exceed 64 MiB, and a tab may hold that much text.
 */
export function createPanels(flushMs: number, chunkChars: number) {
  const panels = new Map<number, Set<PanelLink>>();

  const snapshot = (link: PanelLink, s: TabSession): void => {
    if (link.timer !== undefined) clearTimeout(link.timer);
    link.timer = undefined;
    link.pending = emptyDelta();
    const [first = [], ...rest] = chunkRecords(s.records(), chunkChars);
    const { tabId } = link;
    post(link.port, {
      ...envelope,
      kind: "snapshot",
      tabId,
      flows: [...s.flows()],
      findings: [...s.findings()],
      problems: [...s.problems()],
      stats: s.stats(),
      records: first,
      more: rest.length > 0,
    });
    rest.forEach((records, i) =>
      post(link.port, { ...envelope, kind: "snapshotRecords", tabId, records, more: i < rest.length - 1 }),
    );
  };

  const flush = (link: PanelLink, s: TabSession): void => {
    link.timer = undefined;
    const { flows, findings, problems, records } = link.pending;
    link.pending = emptyDelta();
    // Records in chunks, like a snapshot's: a burst may hold more text than one runtime message may carry.
    const [first = [], ...rest] = chunkRecords(records, chunkChars);
    const stats = s.stats();
    post(link.port, {
      ...envelope,
      kind: "delta",
      tabId: link.tabId,
      flows: [...flows.values()],
      findings,
      problems,
      stats,
      records: first,
    });
    for (const chunk of rest)
      post(link.port, {
        ...envelope,
        kind: "delta",
        tabId: link.tabId,
        flows: [],
        findings: [],
        problems: [],
        stats,
        records: chunk,
      });
  };

  return {
    /** Subscribes `port` to the tab: a snapshot now, deltas from then on. */
    subscribe(port: HubPort, tabId: number, s: TabSession): PanelLink {
      const link: PanelLink = { port, tabId, pending: emptyDelta(), timer: undefined };
      let set = panels.get(tabId);
      if (!set) panels.set(tabId, (set = new Set()));
      set.add(link);
      snapshot(link, s);
      return link;
    },
    unlink(link: PanelLink): void {
      if (link.timer !== undefined) clearTimeout(link.timer);
      panels.get(link.tabId)?.delete(link);
    },
    /** Tells the tab's panels what changed: a delta (gathered), or "reset" (a new snapshot). */
    publish(tabId: number, s: TabSession, delta: SessionDelta | "reset"): void {
      for (const link of panels.get(tabId) ?? []) {
        if (delta === "reset") {
          snapshot(link, s);
          continue;
        }
        addChanges(link.pending, { ...delta, flows: delta.flows.values() });
        link.pending.records.push(...delta.records);
        link.timer ??= setTimeout(() => flush(link, s), flushMs);
      }
    },
    /** Every subscribed panel. */
    all(): PanelLink[] {
      return [...panels.values()].flatMap((links) => [...links]);
    },
  };
}
