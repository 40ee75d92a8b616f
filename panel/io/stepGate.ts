import type { Flow } from "../../src/engine/index.ts";
import type { ImportProgress } from "./importFile.ts";

/** One step that says what two did, in order: flows by id (their latest state), the rest appended. */
export function mergeSteps(a: ImportProgress, b: ImportProgress): ImportProgress {
  // A restart voids what came before it.
  if (b.restart) return b;
  const flows = new Map<string, Flow>();
  for (const flow of a.changes.flows) flows.set(flow.id, flow);
  for (const flow of b.changes.flows) flows.set(flow.id, flow);
  const merged: ImportProgress = {
    ...b,
    changes: {
      flows: [...flows.values()],
      findings: [...a.changes.findings, ...b.changes.findings],
      problems: [...a.changes.problems, ...b.changes.problems],
      records: [...(a.changes.records ?? []), ...(b.changes.records ?? [])],
    },
  };
  if (a.restart) merged.restart = true;
  return merged;
}

/** The next task (a message, not setTimeout: nested timeouts are clamped to 4 ms). */
const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * Hands importFile's steps to the panel one at a time: a step goes out when the panel has shown the one before
 * (`shown`), and the steps made meanwhile wait, merged into one. Each step also lets the worker's event loop turn
 * (importFile waits for `step`), so the panel's `shown` is heard while the import runs.
 */
export function createStepGate(send: (step: ImportProgress) => void) {
  let waiting = false;
  let pending: ImportProgress | null = null;
  let drained: (() => void) | null = null;
  /** The first rows are out and not yet shown: the import waits for them (below). */
  let firstRows: (() => void) | null = null;
  let rowsSent = false;
  const out = (step: ImportProgress): void => {
    waiting = true;
    send(step);
  };
  return {
    async step(step: ImportProgress): Promise<void> {
      const direct = !waiting;
      if (direct) out(step);
      else pending = pending ? mergeSteps(pending, step) : step;
      if (direct && !rowsSent && step.changes.flows.length > 0) {
        // The first rows: the import waits until the panel has painted them, so the CPU goes to that paint first
        // (as the import did when it ran on the panel's thread).
        rowsSent = true;
        return new Promise((resolve) => (firstRows = resolve));
      }
      await nextTask();
    },
    shown(): void {
      firstRows?.();
      firstRows = null;
      waiting = false;
      if (pending) {
        const next = pending;
        pending = null;
        out(next);
      }
      drained?.();
      drained = null;
    },
    /** Resolves once every step went out (the last may still be unacknowledged). */
    flushed(): Promise<void> {
      if (!pending) return Promise.resolve();
      return new Promise((resolve) => (drained = resolve));
    },
  };
}
