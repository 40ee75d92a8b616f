import type { Finding } from "./finding.ts";
import type { Flow } from "./flow.ts";
import type { Problem } from "../capture/problem.ts";

/** What several engine pushes changed, merged: each changed flow once (its latest state), findings and problems in order. */
export interface Changed {
  flows: Map<string, Flow>;
  findings: Finding[];
  problems: Problem[];
}

export const nothingChanged = (): Changed => ({ flows: new Map(), findings: [], problems: [] });

/** Adds what one push (or one merged batch) changed to `into`. */
export function addChanges(
  into: Changed,
  delta: { flows: Iterable<Flow>; findings: readonly Finding[]; problems: readonly Problem[] },
): void {
  for (const flow of delta.flows) into.flows.set(flow.id, flow);
  if (delta.findings.length) into.findings.push(...delta.findings);
  if (delta.problems.length) into.problems.push(...delta.problems);
}
