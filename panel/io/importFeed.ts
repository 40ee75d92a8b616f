import type { CaptureRecord } from "../../src/capture/record.ts";
import { addChanges, nothingChanged } from "../../src/engine/delta.ts";
import { createEngine, type EngineOptions, type Problem } from "../../src/engine/index.ts";
import type { Changes } from "./changes.ts";

export type Feeder = ReturnType<typeof createFeeder>;

/**
 * The engine of one import and what it made since the last step: records go in (`push`), a step goes out
 * (`flush`) with the flows they changed, their findings and problems, and the records themselves.
 */
export function createFeeder(
  step: (changes: Changes, done: boolean, restart: boolean) => void | Promise<void>,
  options: EngineOptions = {},
) {
  let engine = createEngine(options);
  let changed = nothingChanged();
  let records: CaptureRecord[] = [];
  let analysed = 0;
  let total: number | undefined;
  let shown = false;
  let restarting = false;
  const importProblems: Problem[] = [];
  /** Hands on what changed since the last step. */
  const flush = (done = false): void | Promise<void> => {
    if (changed.flows.size > 0) shown = true;
    const changes: Changes = {
      flows: [...changed.flows.values()],
      findings: changed.findings,
      problems: changed.problems,
      records,
    };
    const wasRestarting = restarting;
    restarting = false;
    changed = nothingChanged();
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
    pending: (): boolean => changed.flows.size > 0,
    push(batch: readonly CaptureRecord[]): void {
      for (const record of batch) {
        records.push(record);
        analysed++;
        addChanges(changed, engine.push(record));
      }
    },
    flush,
    /** Starts again from nothing; the next step says so (`restart`). */
    restart(): void {
      engine = createEngine(options);
      changed = nothingChanged();
      records = [];
      analysed = 0;
      total = undefined;
      shown = false;
      restarting = true;
      importProblems.length = 0;
    },
    async finish(): Promise<{ records: number; flows: number; findings: number }> {
      // The file is whole: what waited on time (relay judgements) is judged now.
      addChanges(changed, engine.settle(Infinity));
      // Not unshift(...): a file can have more problems than a call takes arguments.
      changed.problems = importProblems.concat(changed.problems);
      await flush(true);
      return { records: analysed, flows: engine.flows().length, findings: engine.findings().length };
    },
  };
}
