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

/** Least time between two steps (ms), and how many times its own time to show one the panel is left before the next. */
const MIN_GAP = 250;
const GAP_FACTOR = 4;

/**
 * Hands importFile's steps to the panel one at a time: a step goes out when the panel has shown the one before
 * (`shown`), and the steps made meanwhile wait, merged into one. The panel is also left alone for a while after
 * each step (MIN_GAP, or GAP_FACTOR times what showing the last one took, whichever is
 * longer): showing a step costs the panel more as the capture grows, and a stream of small steps at its frame
 * rate would cost it more than the import. The first rows and the last step go out as soon as the panel has
 * shown the one before. Each step also lets the worker's event loop turn
 * (importFile waits for `step`), so the panel's `shown` is heard while the import runs.
 */
export function createStepGate(send: (step: ImportProgress) => void, options: { minGapMs?: number } = {}) {
  const minGap = options.minGapMs ?? MIN_GAP;
  let waiting = false;
  let pending: ImportProgress | null = null;
  let drained: (() => void) | null = null;
  /** The first rows are out and not yet shown: the import waits for them (below). */
  let firstRows: (() => void) | null = null;
  let rowsSent = false;
  let sentAt = 0;
  /** No step goes out before this (performance.now()), but the last. */
  let holdUntil = 0;
  const out = (step: ImportProgress): void => {
    if (step.changes.flows.length > 0) rowsSent = true;
    waiting = true;
    sentAt = performance.now();
    send(step);
  };
  /** The steps held, if they may go now. */
  const release = (): void => {
    if (
      waiting ||
      !pending ||
      (!pending.done && !(!rowsSent && pending.changes.flows.length > 0) && performance.now() < holdUntil)
    )
      return;
    const next = pending;
    pending = null;
    out(next);
    drained?.();
    drained = null;
  };
  return {
    async step(step: ImportProgress): Promise<void> {
      const firstRowsNow = !rowsSent && step.changes.flows.length > 0;
      const direct = !waiting && !pending && (step.done || firstRowsNow || performance.now() >= holdUntil);
      if (direct) out(step);
      else {
        pending = pending ? mergeSteps(pending, step) : step;
        release();
      }
      if (direct && firstRowsNow) {
        // The first rows: the import waits until the panel has painted them, so the CPU goes to that paint first
        // (as the import did when it ran on the panel's thread).
        return new Promise((resolve) => (firstRows = resolve));
      }
      await nextTask();
    },
    shown(): void {
      firstRows?.();
      firstRows = null;
      waiting = false;
      const now = performance.now();
      holdUntil = now + Math.max(minGap, GAP_FACTOR * (now - sentAt));
      release();
    },
    /** Resolves once every step went out (the last may still be unacknowledged). */
    flushed(): Promise<void> {
      if (!pending) return Promise.resolve();
      return new Promise((resolve) => (drained = resolve));
    },
  };
}
