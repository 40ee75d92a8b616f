import type { CaptureRecord } from "../capture/record.ts";
import { hasElicitation, type Revision } from "../protocol/revision.ts";
import { createCorrelator } from "./correlator/index.ts";
import type { Env } from "./env.ts";
import type { FactName, Facts } from "./facts.ts";
import type { Finding } from "./finding.ts";
import type { Flow } from "./flow.ts";
import { stateOf } from "./flowState.ts";
import type { Problem } from "../capture/problem.ts";
import { registry } from "./ruleKit/registry.ts";
import { ruleMeta, rules } from "./ruleKit/rules.ts";
import type { FindingInput, Listeners, RuleContext, RuleId, RuleMeta, Severity, Violator } from "./ruleKit/types.ts";

/** A rule's level as a team sets it: off, or the severity its findings take. */
export type Level = "off" | Severity;
const graded = (level: Level | undefined): Severity | undefined => (level === "off" ? undefined : level);

export type { Finding } from "./finding.ts";
export type { Flow, Elicitation, Round, FlowKind, FlowStatus } from "./flow.ts";
export type { Problem } from "../capture/problem.ts";

export interface EngineOptions {
  /** Rule ids to turn off: their checks never run. */
  disable?: Iterable<RuleId>;
  /** SEP-2260 strict profile: del-r12-related-request and del-r12-standalone-stream become errors. */
  strict2260?: boolean;
  /**
   * A level per rule id, as a team sets it (settings.ts): `off` turns the rule off like `disable`; a severity is
   * the severity of every finding of that rule, whatever the rule or the strict profile would have given.
   */
  levels?: Readonly<Partial<Record<RuleId, Level>>>;
  /**
   * The page's side is watched (the extension, live): an elicitation an agent backend answered without relaying it
   * to the page is reported once its grace has passed (`relay-ask-not-shown`). Files say so by holding page records.
   */
  pageWatched?: boolean;
}

/** What one `push` changed: flows created or updated, and findings and problems added. */
export interface EngineDelta {
  flows: Flow[];
  findings: Finding[];
  problems: Problem[];
}

export { ruleMeta };
export { RELAY_GRACE_MS } from "./correlator/relay.ts";

const SPEC = "https://modelcontextprotocol.io/specification";
/** The spec page of a rule, at the flow's revision where the rule's page exists in it. */
export function specLink(meta: RuleMeta, revision: Revision | null): string {
  const rev =
    meta.spec.revision ??
    (hasElicitation(revision) && revision !== null && /^\d{4}-\d{2}-\d{2}$/.test(revision) ? revision : "2026-07-28");
  return `${SPEC}/${rev}/${meta.spec.path}`;
}

/** What a finding takes from its rule (the catalogue's), worked out once per rule rather than once per finding. */
interface RuleFacts {
  meta: RuleMeta;
  severity: Severity;
  violator: Violator;
}
const factsById = new Map<RuleId, RuleFacts>(
  rules.map((r) => [r.id, { meta: r, severity: r.severity, violator: r.violator }]),
);

/** Whether an earlier finding of the same record says this already: the same rule, pointer and message. */
function repeats(ofRecord: readonly Finding[], input: FindingInput): boolean {
  for (const f of ofRecord) {
    if (f.rule === input.rule && f.pointer === input.pointer && f.message === input.message) return true;
  }
  return false;
}

/**
 * The analysis engine: capture records in, flows and graded findings out. Pure TypeScript: the extension's
 * worker, the panel's file import and the CLI all run it unchanged.
 */
export function createEngine(options: EngineOptions = {}) {
  const levels = options.levels ?? {};
  const disabled = new Set<string>([
    ...(options.disable ?? []),
    ...(Object.keys(levels) as RuleId[]).filter((id) => levels[id] === "off"),
  ]);
  const flows: Flow[] = [];
  const findings: Finding[] = [];
  const problems: Problem[] = [];
  /** The findings of each record, for dropping repeats (same rule, record, pointer and message). */
  const findingsOf = new Map<number, Finding[]>();
  /** HAR input: the entry of each record, by seq (a plain array: a record per seq, a few bytes each). */
  const entryOf: number[] = [];
  /** What the record in hand changed. */
  let delta: EngineDelta = { flows: [], findings: [], problems: [] };
  let pushes = 0;
  let flowCount = 0;
  let current: CaptureRecord | undefined;
  /** Flows findings of the record in hand name that are not in `flows` yet (the correlator lists a flow once done with the record). */
  let named: Flow[] | undefined;

  /** What a finding reports against when its rule does not say: the fact being dispatched. */
  let about: { flow: Flow | null; revision: Revision | null; record?: number } = { flow: null, revision: null };
  function report(input: FindingInput): void {
    if (disabled.size && disabled.has(input.rule)) return;
    const facts = factsById.get(input.rule);
    if (!facts) throw new Error(`unknown rule id ${input.rule}`);
    const flow = input.flow !== undefined ? input.flow : about.flow;
    const revision = input.revision !== undefined ? input.revision : about.revision;
    const record = input.record ?? about.record ?? current?.seq ?? 0;
    const ofRecord = findingsOf.get(record);
    if (ofRecord !== undefined && repeats(ofRecord, input)) return;
    const finding: Finding = {
      id: `F${findings.length + 1}`,
      rule: input.rule,
      severity: graded(levels[input.rule]) ?? input.severity ?? facts.severity,
      violator: input.violator ?? facts.violator,
      flow: flow?.id ?? null,
      record,
      entry: entryOf[record] ?? record,
      pointer: input.pointer,
      message: input.message,
      spec: specLink(facts.meta, revision ?? flow?.revision ?? null),
    };
    findings.push(finding);
    if (ofRecord === undefined) findingsOf.set(record, [finding]);
    else ofRecord.push(finding);
    if (flow && stateOf(flow).changedAt < 0) (named ??= []).push(flow);
    delta.findings.push(finding);
  }

  // The rule modules with a rule on, each created once; their listeners by fact, in registry order.
  const on = (id: RuleId): boolean => !disabled.has(id);
  const context: RuleContext = { report, on, strict2260: options.strict2260 === true };
  const listeners = new Map<FactName, ((fact: never) => void)[]>();
  for (const module of registry) {
    if (!module.meta.some((r) => on(r.id))) continue;
    const created: Listeners = module.create(context);
    for (const name of Object.keys(created) as FactName[]) {
      let list = listeners.get(name);
      if (!list) listeners.set(name, (list = []));
      list.push(created[name] as (fact: never) => void);
    }
  }

  const env: Env = {
    emit<F extends FactName>(name: F, fact: Facts[F]): void {
      const list = listeners.get(name) as ((fact: Facts[F]) => void)[] | undefined;
      if (list === undefined) return;
      const outer = about;
      about = fact;
      try {
        for (const listener of list) listener(fact);
      } finally {
        about = outer;
      }
    },
    flowChanged(flow) {
      // A flow goes into a delta once per push, and into `flows` the first time.
      const state = stateOf(flow);
      if (state.changedAt === pushes) return;
      if (state.changedAt < 0) flows.push(flow);
      state.changedAt = pushes;
      delta.flows.push(flow);
    },
    newFlowId() {
      flowCount++;
      return `flow-${flowCount}`;
    },
    problem(record, message) {
      const p: Problem = { record: record.seq, message };
      if (record.entry !== undefined) p.entry = record.entry;
      problems.push(p);
      delta.problems.push(p);
    },
  };
  const correlator = createCorrelator(env, { pageWatched: options.pageWatched === true });

  return {
    /** Feeds one record; returns what it changed. Never throws on bad input: it becomes a Problem. */
    push(record: CaptureRecord): EngineDelta {
      current = record;
      pushes++;
      try {
        // HAR input: findings name the HAR entry; elsewhere the record's own seq.
        if (record.entry !== undefined && Number.isSafeInteger(record.seq) && record.seq >= 0)
          entryOf[record.seq] = record.entry;
        correlator.push(record);
      } catch (e) {
        // The correlator stopped before listing the flows of this record; those its findings name stay in the report.
        for (const flow of named ?? []) env.flowChanged(flow);
        try {
          env.problem(
            record,
            `Internal error while analysing this record: ${e instanceof Error ? e.message : "unknown"}`,
          );
        } catch {
          // A record that cannot even be read for its seq: the problem is the engine's own, at no record.
          const p: Problem = { record: -1, message: "Internal error while analysing a record that could not be read" };
          problems.push(p);
        }
      }
      named = undefined;
      const out = delta;
      delta = { flows: [], findings: [], problems: [] };
      return out;
    },
    /**
     * Judgements that wait on time (an ask an agent answered that the page may still be about to show: see
     * RELAY_GRACE_MS) made at `now` (ms since the epoch; Infinity: the capture is whole). Returns what it changed.
     */
    settle(now: number): EngineDelta {
      try {
        correlator.settle(now);
      } catch (e) {
        problems.push({
          record: -1,
          message: `Internal error while settling: ${e instanceof Error ? e.message : "unknown"}`,
        });
      }
      const out = delta;
      delta = { flows: [], findings: [], problems: [] };
      return out;
    },
    /** Whether `settle` has something to judge later. */
    unsettled: (): boolean => correlator.unsettled(),
    flows: (): readonly Flow[] => flows,
    findings: (): readonly Finding[] => findings,
    problems: (): readonly Problem[] => problems,
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** Runs the engine over a whole capture. */
export function analyze(
  records: Iterable<CaptureRecord>,
  options: EngineOptions = {},
): { flows: Flow[]; findings: Finding[]; problems: Problem[] } {
  const engine = createEngine(options);
  for (const r of records) engine.push(r);
  engine.settle(Infinity);
  return { flows: [...engine.flows()], findings: [...engine.findings()], problems: [...engine.problems()] };
}
