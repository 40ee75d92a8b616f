import { CaptureRecord } from "../capture/record.ts";
import { addChanges, nothingChanged, type Changed } from "../engine/delta.ts";
import { createEngine, type EngineOptions, type Finding, type Flow, type Problem } from "../engine/index.ts";
import type { Severity } from "../engine/ruleKit/types.ts";
import { tapEnvelopeRecords, type ContentBatch } from "../shared/contentProtocol.ts";
import type { Decoder } from "../shared/decoders.ts";
import type { TabStats } from "../shared/panelProtocol.ts";
import { DEFAULT_LIMITS, recordBytes, recordsIn, type Limits } from "./budget.ts";
import { createHold, isWindowMessage } from "./hold.ts";
import { addCounts, createIntake, type Provenance } from "./intake.ts";
import type { TabMeta } from "./store.ts";

/** What one batch changed, merged (delta.ts), with its records in order. */
export interface SessionDelta extends Changed {
  /** The records stored: the panel's detail view and payload search need them. */
  records: CaptureRecord[];
}

export const emptyDelta = (): SessionDelta => ({ ...nothingChanged(), records: [] });

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
 * show. Built from the stored records on wake (a replay), then fed batch by batch: each record through the intake
 * (intake.ts: checked, then the envelope stage), window messages after their wait (hold.ts), then the budget
 * (budget.ts), numbered, stored and given to the engine.
 */
export function createTabSession(
  meta: TabMeta,
  stored: readonly CaptureRecord[],
  limits: Limits = DEFAULT_LIMITS,
  rules: readonly Decoder[] = [],
  options: EngineOptions = {},
) {
  // The tab is inspected: its page's side is watched, so an ask an agent backend never relayed to it is known.
  let engineOptions: EngineOptions = { ...options, pageWatched: true };
  let engine = createEngine(engineOptions);
  let records: CaptureRecord[] = [];
  const severities: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const intake = createIntake(meta, rules, stored);
  const hold = createHold();
  /** What the panel is told of the tab's site (hub.ts). */
  const view: { site?: string; siteRecorded?: boolean } = {};

  const feed = (record: CaptureRecord, into?: SessionDelta): void => {
    records.push(record);
    const delta = engine.push(record);
    for (const finding of delta.findings) severities[finding.severity]++;
    if (!into) return;
    into.records.push(record);
    addChanges(into, delta);
  };
  for (const record of stored) feed(record);

  const clear = (): void => {
    engine = createEngine(engineOptions);
    records = [];
    severities.error = severities.warning = severities.info = 0;
    meta.nextSeq = 0;
    meta.dropped = 0;
    meta.rejected = 0;
    meta.tooLarge = 0;
    meta.bytes = 0;
    meta.skipped = 0;
    meta.envelopes = {};
    meta.backends = {};
    hold.clear();
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
  /** The frame of the batch being taken (a held window message keeps its own: hold.ts). */
  const take = (raw: unknown, from?: Provenance): void => intake.take(raw, keep, from);
  /** Runs `store` as one step: its records, and the envelope stage's counts, go to the panel and the store together. */
  const step = (store: () => void): { stored: CaptureRecord[]; delta: SessionDelta } => {
    fresh = [];
    delta = emptyDelta();
    const counted = intake.counts();
    store();
    if (!meta.paused) addCounts(meta, counted, intake.counts());
    return { stored: fresh, delta };
  };
  const storedUpTo = (doc: string, number: number): void => {
    if (number <= (meta.docs[doc] ?? -1)) return;
    delete meta.docs[doc]; // re-inserted last: the oldest documents are pruned first
    meta.docs[doc] = number;
    const docs = Object.keys(meta.docs);
    for (const old of docs.slice(0, Math.max(0, docs.length - MAX_DOCS))) delete meta.docs[old];
  };

  return {
    meta,
    ingest(batch: Omit<ContentBatch, "source" | "v" | "kind">, now = Date.now(), from?: Provenance): IngestResult {
      let navigated = false;
      if (batch.top && batch.doc !== meta.topDoc) {
        // DevTools' Network panel clears on navigation unless "Preserve log" is on; so does this.
        if (meta.topDoc !== undefined && !meta.preserveLog && (records.length > 0 || meta.dropped > 0 || hold.any())) {
          clear();
          navigated = true;
        }
        meta.topDoc = batch.doc;
      }
      meta.rejected += batch.rejected;
      const seen = Math.max(meta.docs[batch.doc] ?? -1, hold.lastOf(batch.doc) ?? -1);
      const result = step(() =>
        batch.records.forEach((item, i) => {
          const number = batch.first + i;
          if (number <= seen) return; // resent after a worker restart: stored already
          // A tap envelope, forwarded as JSON text: the relay leaves parsing and checking to the worker, off the page's thread.
          const envelope =
            typeof item === "string"
              ? tapEnvelopeRecords(item)
              : { records: [item], tooLarge: 0, dropped: 0, rejected: 0 };
          // Refused: as many records as it carried. Its counts of records lost before it count at once.
          if (!envelope) meta.rejected += recordsIn(item as string);
          else {
            meta.tooLarge = (meta.tooLarge ?? 0) + envelope.tooLarge;
            meta.dropped += envelope.dropped;
            meta.rejected += envelope.rejected;
          }
          const inside = envelope?.records;
          if (hold.lastOf(batch.doc) !== undefined || inside?.some(isWindowMessage)) {
            hold.add(batch.doc, number, now, inside ?? [], from, typeof item === "string" ? item.length : 0);
            return;
          }
          inside?.forEach((raw) => take(raw, from));
          storedUpTo(batch.doc, number);
        }),
      );
      const next = hold.firstOf(batch.doc);
      const last = batch.first + batch.records.length - 1;
      return { navigated, ...result, ackUpTo: next === undefined ? last : next - 1 };
    },
    /**
     * Records of an agent backend's MCP wire (`mcp-elicit proxy`'s feed, read by the panel's Backend… control):
     * checked, marked `source: "backend"` (only this path may), numbered in the tab's order, each feed seq once.
     */
    ingestBackend(feed: string, raws: readonly unknown[]): { stored: CaptureRecord[]; delta: SessionDelta } {
      return step(() => {
        for (const raw of raws) {
          const parsed = CaptureRecord.safeParse(raw);
          if (!parsed.success || parsed.data.kind === "page-request") {
            meta.rejected++;
            continue;
          }
          const record = parsed.data;
          const backends = (meta.backends ??= {});
          if (record.seq <= (backends[feed] ?? -1)) continue;
          backends[feed] = record.seq;
          record.source = "backend";
          // The proxy stamps nothing; a stamp would let the record pass the envelope stage unchecked.
          if (record.kind === "message") delete record.envelope;
          keep(record);
        }
      });
    },
    /** Relay judgements whose grace has passed by `now` (engine `settle`): what they changed, for the panel. */
    settle(now = Date.now()): SessionDelta {
      const out = emptyDelta();
      const changed = engine.settle(now);
      for (const finding of changed.findings) severities[finding.severity]++;
      for (const flow of changed.flows) out.flows.set(flow.id, flow);
      out.findings.push(...changed.findings);
      out.problems.push(...changed.problems);
      return out;
    },
    /** Whether the engine waits to judge something (the hub settles it later). */
    unsettled: (): boolean => engine.unsettled(),
    /** When waiting items may go (ms since the epoch), or undefined when none waits (hold.ts). */
    nextRelease: hold.nextRelease,
    /** Stores the waiting items that may go (hold.ts `take`), merged by time. Says what each document may ack. */
    release(
      now = Date.now(),
      all = false,
    ): { stored: CaptureRecord[]; delta: SessionDelta; acks: Map<string, number> } {
      const ready = hold.take(now, all);
      const result = step(() => ready.records.forEach(({ raw, from }) => take(raw, from)));
      for (const [doc, number] of ready.acks) storedUpTo(doc, number);
      return { ...result, acks: ready.acks };
    },
    clear,
    /** New engine settings (rule levels, the strict profile): the records held are analysed again with them. */
    reanalyse(next: EngineOptions): void {
      engineOptions = { ...next, pageWatched: true };
      engine = createEngine(engineOptions);
      severities.error = severities.warning = severities.info = 0;
      const held = records;
      records = [];
      for (const record of held) feed(record);
    },
    /** New decode rules, for what arrives from now on. */
    setRules(next: readonly Decoder[]): void {
      intake.setRules(next, records);
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
      ...(meta.recordingSince !== undefined && {
        recordingSince: meta.recordingSince,
        recordingReason: meta.recordingReason,
      }),
      ...(view.site !== undefined && { site: view.site, siteRecorded: view.siteRecorded }),
    }),
    severities: (): Readonly<Record<Severity, number>> => severities,
    /** Recording (recording.ts) started at `since` for `reason`: kept from the first time only. */
    setRecording(since: number, reason: "devtools" | "site"): void {
      if (meta.recordingSince === undefined || meta.recordingReason !== reason) {
        meta.recordingSince = since;
        meta.recordingReason = reason;
      }
    },
    recordingSince: (): number | undefined => meta.recordingSince,
    /** Characters of the window messages waiting (hold.ts), for the worker's budget. */
    heldChars: (): number => hold.chars(),
    setSite(site: string | undefined, recorded: boolean): void {
      view.site = site;
      view.siteRecorded = recorded;
    },
  };
}

export type TabSession = ReturnType<typeof createTabSession>;
