import type { CaptureRecord } from "../../src/capture/record.ts";
import { createEngine, type EngineOptions, type Finding, type Flow, type Problem } from "../../src/engine/index.ts";
import type { Changes } from "../state/store.ts";

export type Feeder = ReturnType<typeof createFeeder>;

/**
 * The engine of one import and what it made since the last step: records go in (`push`), a step goes out
 * (`flush`) with the flows they changed, their findings and problems, and the records themselves.
 */
export function createFeeder(step: (changes: Changes, done: boolean, restart: boolean) => void | Promise<void>, options: EngineOptions = {}) {
  let engine = createEngine(options);
  let flows = new Set<Flow>();
  let findings: Finding[] = [];
  let problems: Problem[] = [];
  let records: CaptureRecord[] = [];
  let analysed = 0;
  let total: number | undefined;
  let shown = false;
  let restarting = false;
  const importProblems: Problem[] = [];
  /** Hands on what changed since the last step. */
  const flush = (done = false): void | Promise<void> => {
    if (flows.size > 0) shown = true;
    const changes: Changes = { flows: [...flows], findings, problems, records };
    const wasRestarting = restarting;
    restarting = false;
    flows = new Set();
    findings = [];
    problems = [];
    records = [];
    return step(changes, done, wasRestarting);
  };
  return {
    problems: importProblems,
    /** Records analysed so far. */
    records: (): number => analysed,
    /** Records in the file, once known. */
    total: (): number | undefined => total,
    known(records: number): void {
      total = records;
    },
    /** Whether a step with rows (flows) went out. */
    shown: (): boolean => shown,
    /** Flows changed since the last step (a step now would show rows). */
    pending: (): boolean => flows.size > 0,
    push(batch: readonly CaptureRecord[]): void {
      for (const record of batch) {
        records.push(record);
        analysed++;
        const delta = engine.push(record);
        for (const f of delta.flows) flows.add(f);
        if (delta.findings.length) findings.push(...delta.findings);
        if (delta.problems.length) problems.push(...delta.problems);
      }
    },
    flush,
    /** Starts again from nothing; the next step says so (`restart`). */
    restart(): void {
      engine = createEngine(options);
      flows = new Set();
      findings = [];
      problems = [];
      records = [];
      analysed = 0;
      total = undefined;
      shown = false;
      restarting = true;
      importProblems.length = 0;
    },
    async finish(): Promise<{ records: number; flows: number; findings: number }> {
      // The file is whole: what waited on time (relay judgements) is judged now.
      const delta = engine.settle(Infinity);
      for (const f of delta.flows) flows.add(f);
      findings.push(...delta.findings);
      problems.push(...delta.problems);
      problems.unshift(...importProblems);
      await flush(true);
      return { records: analysed, flows: engine.flows().length, findings: engine.findings().length };
    },
  };
}
