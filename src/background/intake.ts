import { CaptureRecord } from "../capture/record.ts";
import { createUnwrapper, type Unwrapper } from "../capture/envelopes/index.ts";
import type { Decoder } from "../shared/decoders.ts";
import type { TabMeta } from "./store.ts";

/**
 * A tab's intake: each record a relay sent, checked (the worker trusts no one: version skew after an update, a
 * compromised renderer), then through the envelope stage (src/capture/envelopes), which runs before records are
 * numbered: the engine and the store see what it yields. Refused records are counted in the tab's meta.
 */
/** The frame a relay runs in and its origin, from the port's sender. */
export interface Provenance {
  frame: number;
  origin: string;
}

export function createIntake(meta: TabMeta, rules: readonly Decoder[], stored: readonly CaptureRecord[]) {
  let unwrapper = primed(rules, stored);

  return {
    /** Checks one record as the relay sent it, and hands `keep` each record the envelope stage makes of it. */
    take(raw: unknown, keep: (record: CaptureRecord) => void, from?: Provenance): void {
      const parsed = CaptureRecord.safeParse(raw !== null && typeof raw === "object" ? { ...raw, seq: 0, v: 1 } : raw);
      if (!parsed.success) {
        meta.rejected++;
        return;
      }
      const record = parsed.data;
      // A page's record is never the agent backend's: only mcp-elicit proxy's feed says `source: "backend"`.
      delete record.source;
      delete record.frame;
      delete record.frameOrigin;
      if (from) {
        // Where the record came from is the browser's word: the frame its relay runs in and that frame's origin.
        // A subframe's HTTP, WebSocket and EventSource traffic is keyed in the engine by that frame (its scope's
        // client): an iframe's flows stay apart from the top page's even on one server; a window message names both
        // its ends already.
        record.frame = from.frame;
        record.frameOrigin = from.origin;
        if (record.transport !== "postMessage" && from.frame !== 0)
          record.client = `${from.origin}#frame-${from.frame}`;
      }
      if (record.kind === "message") {
        // Only the envelope stage says what a message came through: a page (or a stale tap) must not name the
        // server of what it sends, nor pass a record off as unwrapped already (which the stage would let through).
        if (record.stream === "envelope") {
          meta.rejected++;
          return;
        }
        delete record.envelope;
        delete record.server;
        delete record.via;
        delete record.upstreamTransport;
      }
      // Even while paused: a host's connect seen then names the server of what is recorded later.
      const { seq: _seq, v: _v, ...draft } = record;
      for (const out of unwrapper.push(draft)) {
        if (out === draft) keep(record);
        else {
          // What an adapter made from a checked record; checked again all the same, so nothing malformed is stored.
          const made = CaptureRecord.safeParse({ ...out, seq: 0, v: 1 });
          if (made.success) keep(made.data);
          else meta.rejected++;
        }
      }
    },
    /** What the envelope stage has counted (`Unwrapper.counts()`): compare two readings with `addCounts`. */
    counts: (): Record<string, number> => unwrapper.counts(),
    /** New decode rules, for what arrives from now on; `records`: the tab's records so far. */
    setRules(next: readonly Decoder[], records: readonly CaptureRecord[]): void {
      unwrapper = primed(next, records);
    },
  };
}

/**
 * An unwrapper for `rules` that has seen the stored records an envelope stage made (they pass through unchanged):
 * what it keeps of a host's session (Inspector v2's connect → upstream) is in memory, and the worker may have
 * been stopped since those records came. Records without a stamp are not pushed again: they taught it nothing.
 */
function primed(rules: readonly Decoder[], stored: readonly CaptureRecord[]): Unwrapper {
  const unwrapper = createUnwrapper({ rules });
  for (const record of stored) {
    if (record.kind !== "message" || record.envelope === undefined) continue;
    const { seq: _seq, v: _v, ...draft } = record;
    unwrapper.push(draft);
  }
  return unwrapper;
}

/** Adds what the envelope stage counted since `before` to the tab's counts (they outlive the worker, in its meta). */
export function addCounts(meta: TabMeta, before: Record<string, number>, after: Record<string, number>): void {
  for (const [key, n] of Object.entries(after)) {
    const added = n - (before[key] ?? 0);
    if (added > 0) (meta.envelopes ??= {})[key] = (meta.envelopes[key] ?? 0) + added;
  }
}
