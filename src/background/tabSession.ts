import { CaptureRecord } from "../capture/record.ts";
import { createUnwrapper, type Unwrapper } from "../capture/envelopes/index.ts";
import { createEngine, type Finding, type Flow, type Problem } from "../engine/index.ts";
import type { Severity } from "../engine/rules/types.ts";
import { tapEnvelopeRecords, type ContentBatch } from "../shared/contentProtocol.ts";
import type { DecodeRule } from "../shared/decodeRules.ts";
import type { TabStats } from "../shared/panelProtocol.ts";
import type { TabMeta } from "./store.ts";

export interface Limits {
  /** Records one tab keeps; later ones are dropped and counted. */
  maxRecords: number;
  /** Characters of message text one tab keeps. */
  maxBytes: number;
}
export const DEFAULT_LIMITS: Limits = { maxRecords: 20_000, maxBytes: 64 * 2 ** 20 };

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
    meta.bytes = 0;
    meta.skipped = 0;
    meta.envelopes = {};
  };

  return {
    meta,
    ingest(batch: Omit<ContentBatch, "source" | "v" | "kind">): IngestResult {
      let navigated = false;
      if (batch.top && batch.doc !== meta.topDoc) {
        // DevTools' Network panel clears on navigation unless "Preserve log" is on; so does this.
        if (meta.topDoc !== undefined && !meta.preserveLog && (records.length > 0 || meta.dropped > 0)) {
          clear();
          navigated = true;
        }
        meta.topDoc = batch.doc;
      }
      meta.rejected += batch.rejected;
      const seen = meta.docs[batch.doc] ?? -1;
      const delta = emptyDelta();
      const fresh: CaptureRecord[] = [];
      const keep = (record: CaptureRecord): void => {
        if (meta.paused) {
          // DevTools' Network panel keeps nothing while its record button is off; the count says what was missed.
          meta.skipped = (meta.skipped ?? 0) + 1;
          return;
        }
        if (records.length >= limits.maxRecords || meta.bytes >= limits.maxBytes) {
          meta.dropped++;
          return;
        }
        record.seq = meta.nextSeq++;
        if (record.kind === "message") meta.bytes += record.text.length;
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
        // Even while paused: a host's connect seen then names the server of what is recorded later.
        const { seq: _seq, v: _v, ...draft } = parsed.data;
        for (const out of unwrapper.push(draft)) {
          if (out === draft) keep(parsed.data);
          else {
            // What an adapter made from a checked record; checked again all the same, so nothing malformed is stored.
            const made = CaptureRecord.safeParse({ ...out, seq: 0, v: 1 });
            if (made.success) keep(made.data);
            else meta.rejected++;
          }
        }
      };
      const counted = unwrapper.counts();
      batch.records.forEach((item, i) => {
        if (batch.first + i <= seen) return; // resent after a worker restart: stored already
        if (typeof item !== "string") return take(item);
        // A tap envelope, forwarded as JSON text: the relay leaves parsing and checking to the worker, off the page's thread.
        const inside = tapEnvelopeRecords(item);
        if (inside) inside.forEach(take);
        else meta.rejected++;
      });
      if (!meta.paused) addCounts(meta, counted, unwrapper.counts());
      const last = batch.first + batch.records.length - 1;
      if (last > seen) {
        delete meta.docs[batch.doc]; // re-inserted last: the oldest documents are pruned first
        meta.docs[batch.doc] = last;
        const docs = Object.keys(meta.docs);
        for (const doc of docs.slice(0, Math.max(0, docs.length - MAX_DOCS))) delete meta.docs[doc];
      }
      return { navigated, stored: fresh, delta, ackUpTo: last };
    },
    clear,
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
