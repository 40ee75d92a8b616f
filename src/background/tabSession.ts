import { CaptureRecord } from "../capture/record.ts";
import { createUnwrapper, type Unwrapper } from "../capture/envelopes/index.ts";
import { createEngine, type Finding, type Flow, type Problem } from "../engine/index.ts";
import type { Severity } from "../engine/rules/types.ts";
import { tapEnvelopeRecords, type ContentBatch } from "../shared/contentProtocol.ts";
import type { DecodeRule } from "../shared/decodeRules.ts";
import type { TabStats } from "../shared/panelProtocol.ts";
import type { TabMeta } from "./store.ts";

export interface Limits {
  /** The tab's memory budget: bytes of records (`recordBytes`) one tab keeps; later ones are dropped and counted. */
  maxBytes: number;
  /** Largest record kept; a larger one is dropped and counted as too large. */
  maxRecordBytes: number;
}
/** 256 MB of records per tab (docs/extension.md "Budget"); one record at most 8 MB (the tap cuts texts at 1 MiB). */
export const DEFAULT_LIMITS: Limits = { maxBytes: 256 * 2 ** 20, maxRecordBytes: 8 * 2 ** 20 };

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

/** What one batch changed, merged: each changed flow once (latest state), findings, problems and records in order. */
export interface SessionDelta {
  flows: Map<string, Flow>;
  findings: Finding[];
  problems: Problem[];
  /** The records stored: the panel's detail view and payload search need them. */
  records: CaptureRecord[];
}

export const emptyDelta = (): SessionDelta => ({ flows: new Map(), findings: [], problems: [], records: [] });

export interface IngestResult {
  /** A new top document arrived with preserve-log off: everything before it was dropped. */
  navigated: boolean;
  stored: CaptureRecord[];
  delta: SessionDelta;
  /** The relay's numbers up to this one are stored (or were already). */
  ackUpTo: number;
}

const MAX_DOCS = 500;

/**
 * Items with window messages wait until none has come for HOLD_MS (more than the tap's FLUSH_MS of 250: the other
 * frames' batches of the same moments are in by then), but no item waits longer than MAX_HOLD_MS (a page that
 * never stops posting messages).
 */
export const HOLD_MS = 400;
export const MAX_HOLD_MS = 2000;

/** A relay item waiting (`release`): its document, its relay number, when it came, and its records unchecked. */
interface Held {
  doc: string;
  number: number;
  arrived: number;
  records: unknown[];
}

const isWindowMessage = (raw: unknown): boolean => raw !== null && typeof raw === "object" && (raw as { transport?: unknown }).transport === "postMessage";
const timeOf = (raw: unknown): number => {
  const time = raw !== null && typeof raw === "object" ? (raw as { time?: unknown }).time : undefined;
  return typeof time === "number" ? time : -Infinity;
};

/**
 * One tab: its records, the engine that has seen exactly those records, and the counts the panel and the badge
 * show. Built from the stored records on wake (a replay), then fed batch by batch.
 */
export function createTabSession(meta: TabMeta, stored: readonly CaptureRecord[], limits: Limits = DEFAULT_LIMITS, rules: readonly DecodeRule[] = []) {
  let engine = createEngine();
  let records: CaptureRecord[] = [];
  const severities: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  // The envelope stage runs before records are numbered: the engine and the store see what it yields.
  let unwrapper = primed(rules, stored);

  const feed = (record: CaptureRecord, into?: SessionDelta): void => {
    records.push(record);
    const delta = engine.push(record);
    for (const finding of delta.findings) severities[finding.severity]++;
    if (!into) return;
    into.records.push(record);
    for (const flow of delta.flows) into.flows.set(flow.id, flow);
    into.findings.push(...delta.findings);
    into.problems.push(...delta.problems);
  };
  for (const record of stored) feed(record);

  const clear = (): void => {
    engine = createEngine();
    records = [];
    severities.error = severities.warning = severities.info = 0;
    meta.nextSeq = 0;
    meta.dropped = 0;
    meta.rejected = 0;
    meta.tooLarge = 0;
    meta.bytes = 0;
    meta.skipped = 0;
    meta.envelopes = {};
  };

  // The batch being stored: what keep() adds to.
  let fresh: CaptureRecord[] = [];
  let delta = emptyDelta();
  const keep = (record: CaptureRecord): void => {
    if (meta.paused) {
      // DevTools' Network panel keeps nothing while its record button is off; the count says what was missed.
      meta.skipped = (meta.skipped ?? 0) + 1;
      return;
    }
    const bytes = recordBytes(record);
    if (bytes > limits.maxRecordBytes) {
      meta.tooLarge = (meta.tooLarge ?? 0) + 1;
      return;
    }
    if (meta.bytes + bytes > limits.maxBytes) {
      meta.dropped++;
      return;
    }
    record.seq = meta.nextSeq++;
    meta.bytes += bytes;
    fresh.push(record);
    feed(record, delta);
  };
  const take = (raw: unknown): void => {
    // The worker trusts no one: version skew after an update, a compromised renderer.
    const parsed = CaptureRecord.safeParse(raw !== null && typeof raw === "object" ? { ...raw, seq: 0, v: 1 } : raw);
    if (!parsed.success) {
      meta.rejected++;
      return;
    }
    const record = parsed.data;
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
  };
  /** Runs `store` as one step: its records, and the unwrapper's counts, go to the panel and the store together. */
  const step = (store: () => void): { stored: CaptureRecord[]; delta: SessionDelta } => {
    fresh = [];
    delta = emptyDelta();
    const counted = unwrapper.counts();
    store();
    if (!meta.paused) addCounts(meta, counted, unwrapper.counts());
    return { stored: fresh, delta };
  };
  const storedUpTo = (doc: string, number: number): void => {
    if (number <= (meta.docs[doc] ?? -1)) return;
    delete meta.docs[doc]; // re-inserted last: the oldest documents are pruned first
    meta.docs[doc] = number;
    const docs = Object.keys(meta.docs);
    for (const old of docs.slice(0, Math.max(0, docs.length - MAX_DOCS))) delete meta.docs[old];
  };

  /**
   * Items (tap envelopes) that carry window messages wait (HOLD_MS, MAX_HOLD_MS), then go in the order of their
   * records' times across documents: a message between a page and its iframe is recorded by the tap of the frame
   * that receives it, so the two halves of one conversation come through two relays, each batching for up to
   * FLUSH_MS (src/page/emit.ts), and their arrival order is not the order on the wire. Each document's own order
   * is kept; later items of a document with an item waiting wait behind it. Acks follow what is stored.
   */
  let held: Held[] = [];
  const waiting = new Map<string, number>();
  const firstHeld = (doc: string): number | undefined => held.find((h) => h.doc === doc)?.number;

  const clearAll = (): void => {
    clear();
    held = [];
    waiting.clear();
  };

  return {
    meta,
    ingest(batch: Omit<ContentBatch, "source" | "v" | "kind">, now = Date.now()): IngestResult {
      let navigated = false;
      if (batch.top && batch.doc !== meta.topDoc) {
        // DevTools' Network panel clears on navigation unless "Preserve log" is on; so does this.
        if (meta.topDoc !== undefined && !meta.preserveLog && (records.length > 0 || meta.dropped > 0 || held.length > 0)) {
          clearAll();
          navigated = true;
        }
        meta.topDoc = batch.doc;
      }
      meta.rejected += batch.rejected;
      const seen = Math.max(meta.docs[batch.doc] ?? -1, waiting.get(batch.doc) ?? -1);
      const result = step(() =>
        batch.records.forEach((item, i) => {
          const number = batch.first + i;
          if (number <= seen) return; // resent after a worker restart: stored already
          // A tap envelope, forwarded as JSON text: the relay leaves parsing and checking to the worker, off the page's thread.
          const envelope = typeof item === "string" ? tapEnvelopeRecords(item) : { records: [item], tooLarge: 0, dropped: 0, rejected: 0 };
          // Refused: as many records as it carried. Its counts of records lost before it count at once.
          if (!envelope) meta.rejected += recordsIn(item as string);
          else {
            meta.tooLarge = (meta.tooLarge ?? 0) + envelope.tooLarge;
            meta.dropped += envelope.dropped;
            meta.rejected += envelope.rejected;
          }
          const inside = envelope?.records;
          if (waiting.has(batch.doc) || inside?.some(isWindowMessage)) {
            held.push({ doc: batch.doc, number, arrived: now, records: inside ?? [] });
            waiting.set(batch.doc, number);
            return;
          }
          inside?.forEach(take);
          storedUpTo(batch.doc, number);
        }),
      );
      const next = firstHeld(batch.doc);
      const last = batch.first + batch.records.length - 1;
      return { navigated, ...result, ackUpTo: next === undefined ? last : next - 1 };
    },
    /** When waiting items may go (ms since the epoch), or undefined when none waits. */
    nextRelease: (): number | undefined => (held.length > 0 ? Math.min(held.at(-1)!.arrived + HOLD_MS, held[0]!.arrived + MAX_HOLD_MS) : undefined),
    /**
     * Stores the waiting items, merged by time: all of them once none has come for HOLD_MS (or with `all`), else
     * those that have waited HOLD_MS once the oldest has waited MAX_HOLD_MS. Says what each document may ack.
     */
    release(now = Date.now(), all = false): { stored: CaptureRecord[]; delta: SessionDelta; acks: Map<string, number> } {
      const quiet = held.length > 0 && held.at(-1)!.arrived + HOLD_MS <= now;
      const ready = held.filter((h) => all || quiet || (held[0]!.arrived + MAX_HOLD_MS <= now && h.arrived + HOLD_MS <= now));
      held = held.slice(ready.length);
      const acks = new Map<string, number>();
      const queues = new Map<string, unknown[]>();
      for (const item of ready) {
        const queue = queues.get(item.doc) ?? [];
        queue.push(...item.records);
        queues.set(item.doc, queue);
        acks.set(item.doc, item.number);
      }
      const result = step(() => {
        const heads = [...queues.values()].map((queue) => ({ queue, at: 0 }));
        for (;;) {
          let best: (typeof heads)[number] | undefined;
          for (const head of heads) if (head.at < head.queue.length && (!best || timeOf(head.queue[head.at]) < timeOf(best.queue[best.at]))) best = head;
          if (!best) break;
          take(best.queue[best.at++]);
        }
      });
      for (const [doc, number] of acks) {
        storedUpTo(doc, number);
        if (waiting.get(doc) === number) waiting.delete(doc);
      }
      return { ...result, acks };
    },
    clear: clearAll,
    /** New decode rules, for what arrives from now on. */
    setRules(next: readonly DecodeRule[]): void {
      unwrapper = primed(next, records);
    },
    records: (): readonly CaptureRecord[] => records,
    flows: (): readonly Flow[] => engine.flows(),
    findings: (): readonly Finding[] => engine.findings(),
    problems: (): readonly Problem[] => engine.problems(),
    stats: (): TabStats => ({
      records: records.length,
      dropped: meta.dropped,
      rejected: meta.rejected,
      tooLarge: meta.tooLarge ?? 0,
      bytes: meta.bytes,
      budget: limits.maxBytes,
      preserveLog: meta.preserveLog,
      recording: !meta.paused,
      skipped: meta.skipped ?? 0,
      envelopes: { ...meta.envelopes },
    }),
    severities: (): Readonly<Record<Severity, number>> => severities,
  };
}

export type TabSession = ReturnType<typeof createTabSession>;

/**
 * An unwrapper for `rules` that has seen the stored records an envelope stage made (they pass through unchanged):
 * what it keeps of a host's session (Inspector v2's connect → upstream) is in memory, and the worker may have
 * been stopped since those records came. Records without a stamp are not pushed again: they taught it nothing.
 */
function primed(rules: readonly DecodeRule[], stored: readonly CaptureRecord[]): Unwrapper {
  const unwrapper = createUnwrapper({ rules });
  for (const record of stored) {
    if (record.kind !== "message" || record.envelope === undefined) continue;
    const { seq: _seq, v: _v, ...draft } = record;
    unwrapper.push(draft);
  }
  return unwrapper;
}

/** Adds what the unwrapper counted since `before` to the tab's counts (they outlive the worker, in its meta). */
function addCounts(meta: TabMeta, before: Record<string, number>, after: Record<string, number>): void {
  for (const [key, n] of Object.entries(after)) {
    const added = n - (before[key] ?? 0);
    if (added > 0) (meta.envelopes ??= {})[key] = (meta.envelopes[key] ?? 0) + added;
  }
}
