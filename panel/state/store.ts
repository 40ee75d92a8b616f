import { batch, computed, signal } from "@preact/signals";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow, Problem } from "../../src/engine/index.ts";
import type { Severity } from "../../src/engine/ruleKit/types.ts";
import type { Decoder } from "../../src/shared/decoders.ts";
import type { ConfigValue, TabStats, WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import type { Changes, ImportCounts } from "../io/changes.ts";
import { createCapture } from "./capture.ts";
import { createReveal } from "./reveal.ts";
import { createSearch } from "./search.ts";

export type { FlowView } from "./reveal.ts";

const noStats: TabStats = {
  records: 0,
  dropped: 0,
  rejected: 0,
  tooLarge: 0,
  bytes: 0,
  budget: 0,
  preserveLog: false,
  recording: true,
  skipped: 0,
};

/**
 * Where the store's records come from: the inspected tab's worker, or a file imported into the panel (`cancelled`:
 * the user stopped the import, and what is shown is the part read until then).
 */
export type Source = { kind: "live" } | { kind: "file"; name: string; importing: boolean; cancelled?: true };

export type SeverityFilter = Record<Severity, boolean>;
export const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/** A place in a message the detail view scrolls to and highlights: a finding's evidence. */
export interface Focus {
  record: number;
  pointer: string;
}

/**
 * The panel's state, fed by a transport (panel/state/transport.ts, an import, or a test): the capture (capture.ts) behind
 * one version signal bumped once per incoming batch inside `batch()`. Views derive from it with `computed`; the UI
 * never knows where the messages come from. Selection is by id, so it survives every delta and a re-snapshot after a
 * reconnect. The filter bar's matching is search.ts, the masking of secret values reveal.ts.
 */
export function createFlowStore() {
  const capture = createCapture();

  const version = signal(0);
  const stats = signal<TabStats>(noStats);
  const connected = signal(false);
  const source = signal<Source>({ kind: "live" });
  /** The worker's snapshot records are still arriving in chunks. */
  const loading = signal(false);
  /** How far the file's import is (null when no file is shown). */
  const importCounts = signal<ImportCounts | null>(null);

  const selectedFlowId = signal<string | null>(null);
  const selectedFindingId = signal<string | null>(null);
  const focus = signal<Focus | null>(null);
  const filterInput = signal("");
  const severityFilter = signal<SeverityFilter>({ error: true, warning: true, info: true });
  /** The worker's "Decode as MCP" rules (global, not per tab); empty until it sends them, and with no tab. */
  const decoders = signal<readonly Decoder[]>([]);
  /** Why the worker refused the last rule change (an unknown id, the rule cap), until the next answer. */
  const decodeError = signal<string | null>(null);
  /** The worker's engine settings (rule levels, strict profile) as a configuration file's value. */
  const settings = signal<ConfigValue>({});
  /** Why the worker refused the last settings change, until the next answer. */
  const settingsError = signal<string | null>(null);

  /** A computed that follows `version`: what the capture holds, read again after each batch. */
  const held = <T>(read: () => T) =>
    computed(() => {
      void version.value;
      return read();
    });
  const flows = held((): Flow[] => capture.flows.slice());
  const findings = held((): Finding[] => capture.findings.slice());
  const problems = held((): Problem[] => capture.problems.slice());
  const severityCounts = held((): Record<Severity, number> => ({ ...capture.counts }));
  const selectedFlow = held((): Flow | null => {
    const id = selectedFlowId.value;
    return (id === null ? undefined : capture.flow(id)) ?? null;
  });
  const hasVia = held(capture.anyVia);
  /** The latest record time (a file's "now"). */
  const lastTime = held(capture.lastTime);
  const recordCount = held(() => capture.records.length);
  const worst = computed<Severity | null>(() => SEVERITIES.find((s) => severityCounts.value[s] > 0) ?? null);

  const reveal = createReveal(capture);
  const search = createSearch(capture, flows, filterInput, reveal);
  /** The findings the Findings view lists: of the flows the filter keeps (all when none), at the severities shown. */
  const visibleFindings = computed(() => {
    const all = findings.value;
    const shown = severityFilter.value;
    void search.visibleFlows.value;
    const filtering = search.isFiltering.value;
    return all.filter((f) => shown[f.severity] && (!filtering || (f.flow !== null && search.isVisible(f.flow))));
  });

  const reset = (): void => {
    capture.clear();
    search.clear();
    reveal.clear();
  };
  /** Drops a selection whose flow or finding is gone (clear, navigation, another file). */
  const keepSelection = (): void => {
    if (selectedFlowId.value !== null && !capture.has(selectedFlowId.value)) selectedFlowId.value = null;
    if (selectedFindingId.value !== null && !capture.finding(selectedFindingId.value)) selectedFindingId.value = null;
    if (focus.value !== null && !capture.record(focus.value.record)) focus.value = null;
    reveal.keepHeld();
  };
  const isLive = (): boolean => source.value.kind === "live";

  return {
    version,
    flows,
    visibleFlows: search.visibleFlows,
    findings,
    visibleFindings,
    problems,
    stats,
    connected,
    source,
    loading,
    importCounts,
    severityCounts,
    worst,
    recordCount,
    lastTime,
    hasVia,
    selectedFlowId,
    selectedFlow,
    selectedFindingId,
    focus,
    filterInput,
    filter: search.filter,
    isFiltering: search.isFiltering,
    severityFilter,

    flow: capture.flow,
    isVisible: search.isVisible,
    /** isVisible by position in `flows` (read `visibleFlows` first to depend on it). */
    isVisibleAt: search.isVisibleAt,
    record: capture.record,
    /** Every record held, in order (export). */
    records: (): readonly CaptureRecord[] => capture.records,
    findingsOf: (flowId: string): readonly Finding[] => capture.findingsOf(flowId) ?? [],
    revealed: reveal.revealed,
    view: reveal.view,
    findingText: reveal.findingText,
    toggleReveal: reveal.toggleReveal,
    finding: capture.finding,
    worstOf: capture.worstOf,
    flowText: search.flowText,
    warmText: search.warmText,

    decoders,
    decodeError,
    settings,
    settingsError,
    /**
     * How many messages a decode rule unwrapped: in the tab, as the worker's envelope stage counted them (over
     * worker restarts); in a file, among its records. Read `version` to follow.
     */
    matchedBy(ruleId: string): number {
      const key = `decode:${ruleId}`;
      const live = isLive() ? stats.value.envelopes : undefined;
      return live ? (live[key] ?? 0) : (capture.envelopeCounts.get(key) ?? 0);
    },

    /**
     * Applies one message from the worker: a snapshot replaces everything, a delta adds to it. Ignored while a file
     * is shown, but for the decode rules (they are the worker's, not the tab's).
     */
    apply(message: WorkerToPanel): void {
      if (message.kind === "settings") {
        batch(() => {
          settings.value = message.config;
          settingsError.value = message.error ?? null;
        });
        return;
      }
      if (message.kind === "decoders") {
        batch(() => {
          decoders.value = message.rules;
          decodeError.value = message.error ?? null;
        });
        return;
      }
      if (!isLive()) return;
      if (message.kind !== "snapshot" && message.kind !== "delta" && message.kind !== "snapshotRecords") return;
      batch(() => {
        if (message.kind === "snapshotRecords") {
          for (const r of message.records) capture.addRecord(r);
          loading.value = message.more;
        } else {
          if (message.kind === "snapshot") {
            reset();
            loading.value = message.more === true;
          }
          capture.ingest(message);
          stats.value = message.stats;
          if (message.kind === "snapshot") keepSelection();
        }
        version.value++;
      });
    },

    /** Starts showing a file (of `size` bytes) instead of the tab: the import feeds it with `ingestFile`. */
    openFile(name: string, size = 0): void {
      batch(() => {
        reset();
        source.value = { kind: "file", name, importing: true };
        importCounts.value = { records: 0, bytes: 0, size };
        reveal.maskAll();
        selectedFlowId.value = null;
        selectedFindingId.value = null;
        focus.value = null;
        version.value++;
      });
    },
    /** A part of the file's analysis; `done` once the last part is in; `counts`: how far the import is. */
    ingestFile(changes: Changes, done = false, counts?: ImportCounts): void {
      batch(() => {
        capture.ingest(changes);
        const s = source.value;
        if (done && s.kind === "file") source.value = { ...s, importing: false };
        if (counts) importCounts.value = counts;
        version.value++;
      });
    },
    /** The import stopped before its end: cancelled by the user, or failed. What it had shown stays. */
    stopImport(cancelled: boolean): void {
      const s = source.value;
      if (s.kind !== "file" || !s.importing) return;
      source.value = cancelled ? { ...s, importing: false, cancelled: true } : { ...s, importing: false };
    },
    /** Back to the tab: everything goes until the worker's fresh snapshot arrives. */
    openLive(): void {
      batch(() => {
        reset();
        source.value = { kind: "live" };
        importCounts.value = null;
        reveal.maskAll();
        keepSelection();
        version.value++;
      });
    },

    select(flowId: string | null): void {
      batch(() => {
        selectedFlowId.value = flowId;
        if (
          flowId === null ||
          (selectedFindingId.value !== null && capture.finding(selectedFindingId.value)?.flow !== flowId)
        )
          selectedFindingId.value = null;
        if (flowId === null || (focus.value !== null && !capture.flow(flowId)?.records.includes(focus.value.record)))
          focus.value = null;
      });
    },
    /** Selects a finding, its flow, and focuses its evidence. */
    selectFinding(id: string | null): void {
      const finding = id === null ? undefined : capture.finding(id);
      batch(() => {
        selectedFindingId.value = finding ? finding.id : null;
        if (!finding) return;
        if (finding.flow !== null) selectedFlowId.value = finding.flow;
        focus.value = { record: finding.record, pointer: finding.pointer };
      });
    },
    setFocus(next: Focus | null): void {
      focus.value = next;
    },
    setFilter(input: string): void {
      filterInput.value = input;
    },
    toggleSeverity(severity: Severity): void {
      severityFilter.value = { ...severityFilter.value, [severity]: !severityFilter.value[severity] };
    },
  };
}

export type FlowStore = ReturnType<typeof createFlowStore>;
