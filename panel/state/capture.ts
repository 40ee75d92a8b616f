import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow, Problem } from "../../src/engine/index.ts";
import type { Changes } from "../io/changes.ts";
import { severityRank, type Severity } from "../../src/engine/ruleKit/types.ts";

/**
 * What the panel holds of a capture, as plain arrays and maps the store's signals stand in front of: flows in
 * first-seen order (newest last) with each one's position, records, findings and problems append-only, and the
 * indexes the views look things up by. Each flow has a rev, bumped on every change of the flow or its findings:
 * the search and the masked views cache by it.
 */
export function createCapture() {
  const flows: Flow[] = [];
  const indexOf = new Map<string, number>();
  const revs: number[] = [];
  const records: CaptureRecord[] = [];
  /** Records whose seq is not their index (imported files with gaps). */
  const recordBySeq = new Map<number, CaptureRecord>();
  const findings: Finding[] = [];
  const findingsOfFlow = new Map<string, Finding[]>();
  const findingById = new Map<string, Finding>();
  const worstOfFlow = new Map<string, Severity>();
  const problems: Problem[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  /** Message records per envelope that unwrapped them (`inspector-v2`, `mcp-b`, `decode:<rule id>`, …). */
  const envelopeCounts = new Map<string, number>();
  let maxTime = 0;
  /** Some flow went through a proxy, a host backend or an envelope (the flow list then shows a Via column). */
  let anyVia = false;

  const addRecord = (record: CaptureRecord): void => {
    if (record.time > maxTime) maxTime = record.time;
    const envelope = (record as { envelope?: unknown }).envelope;
    if (record.kind === "message" && typeof envelope === "string")
      envelopeCounts.set(envelope, (envelopeCounts.get(envelope) ?? 0) + 1);
    if (record.seq === records.length && recordBySeq.size === 0) records.push(record);
    else {
      records.push(record);
      recordBySeq.set(record.seq, record);
    }
  };
  const record = (seq: number): CaptureRecord | undefined => {
    const at = records[seq];
    return at?.seq === seq ? at : recordBySeq.get(seq);
  };
  /**
   * The last rev given: revs are unique across flows, so a cache by position (the search's) misses when a flow
   * leaves and the ones behind it move up.
   */
  let lastRev = 0;
  const drop = (at: number): void => {
    indexOf.delete(flows[at]!.id);
    flows.splice(at, 1);
    revs.splice(at, 1);
    for (let i = at; i < flows.length; i++) indexOf.set(flows[i]!.id, i);
  };
  /** The rev of the flow with this id (0 for one not held). */
  const revOf = (flowId: string): number => revs[indexOf.get(flowId) ?? -1] ?? 0;

  return {
    flows: flows as readonly Flow[],
    records: records as readonly CaptureRecord[],
    findings: findings as readonly Finding[],
    problems: problems as readonly Problem[],
    /** Revs by position in `flows`. */
    revs: revs as readonly number[],
    counts: counts as Readonly<Record<Severity, number>>,
    envelopeCounts: envelopeCounts as ReadonlyMap<string, number>,
    lastTime: (): number => maxTime,
    anyVia: (): boolean => anyVia,
    has: (flowId: string): boolean => indexOf.has(flowId),
    flow: (id: string): Flow | undefined => flows[indexOf.get(id) ?? -1],
    /** The flow's position in `flows`. */
    indexOf: (flowId: string): number | undefined => indexOf.get(flowId),
    revOf,
    record,
    addRecord,
    findingsOf: (flowId: string): readonly Finding[] | undefined => findingsOfFlow.get(flowId),
    finding: (id: string): Finding | undefined => findingById.get(id),
    worstOf: (flowId: string): Severity | undefined => worstOfFlow.get(flowId),

    ingest(changes: Changes): void {
      if (changes.records) for (const r of changes.records) addRecord(r);
      for (const flow of changes.flows) {
        const at = indexOf.get(flow.id);
        // A page's relayed ask joined with the agent backend's elicitation is told by the backend's flow: not a row.
        if (flow.joinedInto !== undefined) {
          if (at !== undefined) drop(at);
          continue;
        }
        if (flow.via !== undefined || flow.envelope !== undefined) anyVia = true;
        if (at === undefined) {
          indexOf.set(flow.id, flows.length);
          flows.push(flow);
          revs.push(++lastRev);
        } else {
          flows[at] = flow;
          revs[at] = ++lastRev;
        }
      }
      for (const finding of changes.findings) {
        findings.push(finding);
        findingById.set(finding.id, finding);
        counts[finding.severity]++;
        if (finding.flow === null) continue;
        let list = findingsOfFlow.get(finding.flow);
        if (!list) findingsOfFlow.set(finding.flow, (list = []));
        list.push(finding);
        const worst = worstOfFlow.get(finding.flow);
        if (!worst || severityRank[finding.severity] > severityRank[worst])
          worstOfFlow.set(finding.flow, finding.severity);
        // A finding changes what `rule:` and `severity:` match.
        const at = indexOf.get(finding.flow);
        if (at !== undefined) revs[at] = ++lastRev;
      }
      for (const p of changes.problems) problems.push(p);
    },

    clear(): void {
      flows.length = 0;
      indexOf.clear();
      revs.length = 0;
      records.length = 0;
      recordBySeq.clear();
      findings.length = 0;
      findingsOfFlow.clear();
      findingById.clear();
      worstOfFlow.clear();
      problems.length = 0;
      counts.error = counts.warning = counts.info = 0;
      envelopeCounts.clear();
      maxTime = 0;
      anyVia = false;
    },
  };
}

export type Capture = ReturnType<typeof createCapture>;
