import { batch, computed, signal } from "@preact/signals";
import { redactText } from "../../src/capture/redact.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow, Problem } from "../../src/engine/index.ts";
import { severityRank, type Severity } from "../../src/engine/rules/types.ts";
import type { DecodeRule } from "../../src/shared/decodeRules.ts";
import type { TabStats, WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import type { ImportCounts } from "../io/importFile.ts";
import { maskFlow, type MaskedFlow } from "../model/mask.ts";
import { matchFlow, parseFilter, type ParsedFilter as Filter } from "../model/filter.ts";

const NONE: readonly Finding[] = [];

/** What the views read of a flow: masked (the default) or, once the user revealed it, as captured. */
export interface FlowView extends MaskedFlow {
  masked: boolean;
}

/**
 * Whether every flow `next` matches also matches `previous`: the same tokens, and each earlier search word inside
 * a word of the new search (typing on: `lis` → `lisbon`). Tokens are not narrowed (`mode:ur` → `mode:url`).
 */
function narrows(previous: Filter, next: Filter): boolean {
  if (previous.tokens.length !== next.tokens.length) return false;
  for (let i = 0; i < next.tokens.length; i++) {
    const a = previous.tokens[i]!;
    const b = next.tokens[i]!;
    if (a.key !== b.key || a.value !== b.value || a.negate !== b.negate) return false;
  }
  return previous.text.every((word) => next.text.some((w) => w.includes(word)));
}

const noStats: TabStats = { records: 0, dropped: 0, rejected: 0, tooLarge: 0, bytes: 0, budget: 0, preserveLog: false, recording: true, skipped: 0 };

/**
 * Where the store's records come from: the inspected tab's worker, or a file imported into the panel (`cancelled`:
 * the user stopped the import, and what is shown is the part read until then).
 */
export type Source = { kind: "live" } | { kind: "file"; name: string; importing: boolean; cancelled?: true };

/** One batch of changes, from the worker (snapshot, delta) or from the import worker (a file's step). */
export interface Changes {
  flows: readonly Flow[];
  findings: readonly Finding[];
  problems: readonly Problem[];
  records?: readonly CaptureRecord[] | undefined;
}

export type SeverityFilter = Record<Severity, boolean>;
export const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/** A place in a message the detail view scrolls to and highlights: a finding's evidence. */
export interface Focus {
  record: number;
  pointer: string;
}

/**
 * The panel's state, fed by a transport (panel/transport.ts, an import, or a test): flows by id in first-seen
 * order (newest last), records, findings and problems append-only, one version signal bumped once per incoming
 * batch inside `batch()`. Views derive from it with `computed`; the UI never knows where the messages come from.
 * Selection is by id, so it survives every delta and a re-snapshot after a reconnect.
 */
export function createFlowStore() {
  /** Flows in first-seen order, and each one's position in it. */
  const flowList: Flow[] = [];
  const indexOf = new Map<string, number>();
  /** Per position: bumped on every change of the flow (or its findings); the match and text caches key on it. */
  const revs: number[] = [];
  const recordList: CaptureRecord[] = [];
  /** Records whose seq is not their index (imported files with gaps). */
  const recordBySeq = new Map<number, CaptureRecord>();
  const findingList: Finding[] = [];
  const findingsOfFlow = new Map<string, Finding[]>();
  const findingById = new Map<string, Finding>();
  const worstOfFlow = new Map<string, Severity>();
  const problemList: Problem[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  let maxTime = 0;
  /** Some flow went through a proxy, a host backend or an envelope (the flow list then shows a Via column). */
  let anyVia = false;

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
  /** Flows whose secret values the user chose to see; every other flow is shown masked. */
  const revealed = signal<ReadonlySet<string>>(new Set());
  /** The worker's "Decode as MCP" rules (global, not per tab); empty until it sends them, and with no tab. */
  const decodeRules = signal<readonly DecodeRule[]>([]);
  /** Why the worker refused the last rule change (an unknown id, the rule cap), until the next answer. */
  const decodeError = signal<string | null>(null);
  /** Message records per envelope that unwrapped them (`inspector-v2`, `mcp-b`, `decode:<rule id>`, …). */
  const envelopeCounts = new Map<string, number>();

  const reset = (): void => {
    flowList.length = 0;
    indexOf.clear();
    revs.length = 0;
    recordList.length = 0;
    recordBySeq.clear();
    findingList.length = 0;
    findingsOfFlow.clear();
    findingById.clear();
    worstOfFlow.clear();
    problemList.length = 0;
    counts.error = counts.warning = counts.info = 0;
    maxTime = 0;
    anyVia = false;
    textCache.clear();
    viewCache.clear();
    envelopeCounts.clear();
    matched.filter = null;
    matched.hits.length = 0;
    matched.revs.length = 0;
  };

  const addRecord = (record: CaptureRecord): void => {
    if (record.time > maxTime) maxTime = record.time;
    const envelope = (record as { envelope?: unknown }).envelope;
    if (record.kind === "message" && typeof envelope === "string") envelopeCounts.set(envelope, (envelopeCounts.get(envelope) ?? 0) + 1);
    if (record.seq === recordList.length && recordBySeq.size === 0) recordList.push(record);
    else {
      recordList.push(record);
      recordBySeq.set(record.seq, record);
    }
  };
  const record = (seq: number): CaptureRecord | undefined => {
    const at = recordList[seq];
    return at?.seq === seq ? at : recordBySeq.get(seq);
  };

  const ingest = (changes: Changes): void => {
    if (changes.records) for (const r of changes.records) addRecord(r);
    for (const flow of changes.flows) {
      if (flow.via !== undefined || flow.envelope !== undefined) anyVia = true;
      const at = indexOf.get(flow.id);
      if (at === undefined) {
        indexOf.set(flow.id, flowList.length);
        flowList.push(flow);
        revs.push(1);
      } else {
        flowList[at] = flow;
        revs[at]!++;
      }
    }
    for (const finding of changes.findings) {
      findingList.push(finding);
      findingById.set(finding.id, finding);
      counts[finding.severity]++;
      if (finding.flow === null) continue;
      let list = findingsOfFlow.get(finding.flow);
      if (!list) findingsOfFlow.set(finding.flow, (list = []));
      list.push(finding);
      const worst = worstOfFlow.get(finding.flow);
      if (!worst || severityRank[finding.severity] > severityRank[worst]) worstOfFlow.set(finding.flow, finding.severity);
      // A finding changes what `rule:` and `severity:` match.
      const at = indexOf.get(finding.flow);
      if (at !== undefined) revs[at]!++;
    }
    problemList.push(...changes.problems);
  };

  /** Drops a selection whose flow or finding is gone (clear, navigation, another file). */
  const keepSelection = (): void => {
    if (selectedFlowId.value !== null && !indexOf.has(selectedFlowId.value)) selectedFlowId.value = null;
    if (selectedFindingId.value !== null && !findingById.has(selectedFindingId.value)) selectedFindingId.value = null;
    if (focus.value !== null && !record(focus.value.record)) focus.value = null;
    if ([...revealed.value].some((id) => !indexOf.has(id))) revealed.value = new Set([...revealed.value].filter((id) => indexOf.has(id)));
  };

  // Payload text of a flow for free-text search (lower-cased, as matchFlow wants it), built on first use and
  // rebuilt only when the flow changed.
  const textCache = new Map<string, { rev: number; text: string }>();
  const flowText = (flow: Flow): string => {
    const rev = revs[indexOf.get(flow.id) ?? -1] ?? 0;
    const hit = textCache.get(flow.id);
    if (hit && hit.rev === rev) return hit.text;
    let text = "";
    for (const seq of flow.records) {
      const r = record(seq);
      if (r?.kind === "message") text += (text ? "\n" : "") + r.text;
    }
    text = text.toLowerCase();
    textCache.set(flow.id, { rev, text });
    return text;
  };

  // The masked view of a flow, made when a view first asks and again only when the flow changed.
  const viewCache = new Map<string, { rev: number; flow: Flow; view: MaskedFlow }>();
  const identity = (v: unknown): unknown => v;
  const viewOf = (flow: Flow): FlowView => {
    if (revealed.value.has(flow.id)) return { flow, record, value: identity, text: (m) => m, masked: false };
    const rev = revs[indexOf.get(flow.id) ?? -1] ?? 0;
    let hit = viewCache.get(flow.id);
    if (!hit || hit.rev !== rev || hit.flow !== flow) viewCache.set(flow.id, (hit = { rev, flow, view: maskFlow(flow, record) }));
    return { ...hit.view, masked: true };
  };

  // matchFlow's answer per position, with the flow's rev it was computed at: a delta re-checks only the flows it
  // changed, and a keystroke that only narrows a search (`lis` → `lisb`) re-checks only the flows that matched.
  const matched = { filter: null as Filter | null, hits: [] as boolean[], revs: [] as number[] };
  const filter = computed(() => parseFilter(filterInput.value));
  const isFiltering = computed(() => filter.value.tokens.length > 0 || filter.value.text.length > 0);

  const flows = computed(() => {
    void version.value;
    return flowList.slice();
  });
  const visibleFlows = computed(() => {
    const all = flows.value;
    const f = filter.value;
    if (f.tokens.length === 0 && f.text.length === 0) return all;
    const same = matched.filter === f;
    const narrower = !same && matched.filter !== null && narrows(matched.filter, f);
    const out: Flow[] = [];
    for (let i = 0; i < all.length; i++) {
      const flow = all[i]!;
      const fresh = matched.revs[i] === revs[i];
      let hit: boolean;
      if (fresh && (same || (narrower && !matched.hits[i]))) hit = matched.hits[i]!;
      else {
        hit = matchFlow(f, { flow, findings: findingsOfFlow.get(flow.id) ?? NONE, text: f.text.length === 0 ? "" : flowText(flow) });
        matched.hits[i] = hit;
        matched.revs[i] = revs[i]!;
      }
      if (hit) out.push(flow);
    }
    matched.filter = f;
    return out;
  });
  /** Whether a flow is in the filtered view (read `visibleFlows` first to depend on it). */
  const isVisible = (flowId: string): boolean => {
    if (!isFiltering.value) return true;
    const at = indexOf.get(flowId);
    return at !== undefined && matched.hits[at] === true;
  };
  const findings = computed(() => {
    void version.value;
    return findingList.slice();
  });
  /** The findings the Findings view lists: of the flows the filter keeps (all when none), at the severities shown. */
  const visibleFindings = computed(() => {
    const all = findings.value;
    const shown = severityFilter.value;
    void visibleFlows.value;
    const filtering = isFiltering.value;
    return all.filter((f) => shown[f.severity] && (!filtering || (f.flow !== null && isVisible(f.flow))));
  });
  const problems = computed(() => {
    void version.value;
    return problemList.slice();
  });
  const severityCounts = computed(() => {
    void version.value;
    return { ...counts };
  });
  const worst = computed<Severity | null>(() => SEVERITIES.find((s) => severityCounts.value[s] > 0) ?? null);
  const selectedFlow = computed(() => {
    void version.value;
    const id = selectedFlowId.value;
    const at = id === null ? undefined : indexOf.get(id);
    return at === undefined ? null : flowList[at]!;
  });
  const hasVia = computed(() => {
    void version.value;
    return anyVia;
  });
  /** The latest record time (a file's "now"). */
  const lastTime = computed(() => {
    void version.value;
    return maxTime;
  });
  const recordCount = computed(() => {
    void version.value;
    return recordList.length;
  });

  const isLive = (): boolean => source.value.kind === "live";

  return {
    version,
    flows,
    visibleFlows,
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
    filter,
    isFiltering,
    severityFilter,

    flow: (id: string): Flow | undefined => flowList[indexOf.get(id) ?? -1],
    isVisible,
    /** isVisible by position in `flows` (read `visibleFlows` first to depend on it). */
    isVisibleAt: (index: number): boolean => !isFiltering.value || matched.hits[index] === true,
    record,
    /** Every record held, in order (export). */
    records: (): readonly CaptureRecord[] => recordList,
    findingsOf: (flowId: string): readonly Finding[] => findingsOfFlow.get(flowId) ?? [],
    revealed,
    /** The flow as its views show it: masked unless revealed (read `revealed` to depend on it). */
    view: viewOf,
    /** A finding's message as shown: masked with its flow, credentials masked in session-level ones. */
    findingText(finding: Finding): string {
      const flow = finding.flow === null ? undefined : flowList[indexOf.get(finding.flow) ?? -1];
      if (!flow) return redactText(finding.message);
      return viewOf(flow).text(finding.message);
    },
    /** Shows a flow's secret values as captured, or masks them again. */
    toggleReveal(flowId: string): void {
      const next = new Set(revealed.value);
      if (!next.delete(flowId)) next.add(flowId);
      revealed.value = next;
    },
    finding: (id: string): Finding | undefined => findingById.get(id),
    worstOf: (flowId: string): Severity | undefined => worstOfFlow.get(flowId),
    flowText,
    /**
     * Builds the free-text search cache ahead of the first search, a few flows at a time, until `more()` says
     * stop; true once every flow's text is in (a large import's first keystroke would otherwise pay for it).
     */
    warmText(more: () => boolean): boolean {
      for (let i = 0; i < flowList.length; i++) {
        const flow = flowList[i]!;
        if (textCache.get(flow.id)?.rev === revs[i]) continue;
        if (!more()) return false;
        flowText(flow);
      }
      return true;
    },

    decodeRules,
    decodeError,
    /**
     * How many messages a decode rule unwrapped: in the tab, as the worker's envelope stage counted them (over
     * worker restarts); in a file, among its records. Read `version` to follow.
     */
    matchedBy(ruleId: string): number {
      const key = `decode:${ruleId}`;
      const live = isLive() ? stats.value.envelopes : undefined;
      return live ? (live[key] ?? 0) : (envelopeCounts.get(key) ?? 0);
    },

    /**
     * Applies one message from the worker: a snapshot replaces everything, a delta adds to it. Ignored while a file
     * is shown, but for the decode rules (they are the worker's, not the tab's).
     */
    apply(message: WorkerToPanel): void {
      if (message.kind === "decodeRules") {
        batch(() => {
          decodeRules.value = message.rules;
          decodeError.value = message.error ?? null;
        });
        return;
      }
      if (!isLive()) return;
      if (message.kind !== "snapshot" && message.kind !== "delta" && message.kind !== "snapshotRecords") return;
      batch(() => {
        if (message.kind === "snapshotRecords") {
          for (const r of message.records) addRecord(r);
          loading.value = message.more;
        } else {
          if (message.kind === "snapshot") {
            reset();
            loading.value = message.more === true;
          }
          ingest(message);
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
        revealed.value = new Set();
        selectedFlowId.value = null;
        selectedFindingId.value = null;
        focus.value = null;
        version.value++;
      });
    },
    /** A part of the file's analysis; `done` once the last part is in; `counts`: how far the import is. */
    ingestFile(changes: Changes, done = false, counts?: ImportCounts): void {
      batch(() => {
        ingest(changes);
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
        revealed.value = new Set();
        keepSelection();
        version.value++;
      });
    },

    select(flowId: string | null): void {
      batch(() => {
        selectedFlowId.value = flowId;
        if (flowId === null || (selectedFindingId.value !== null && findingById.get(selectedFindingId.value)?.flow !== flowId)) selectedFindingId.value = null;
        if (flowId === null || (focus.value !== null && !flowList[indexOf.get(flowId) ?? -1]?.records.includes(focus.value.record))) focus.value = null;
      });
    },
    /** Selects a finding, its flow, and focuses its evidence. */
    selectFinding(id: string | null): void {
      const finding = id === null ? undefined : findingById.get(id);
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
