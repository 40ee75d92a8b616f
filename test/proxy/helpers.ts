import { readFile } from "node:fs/promises";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { createEngine } from "../../src/engine/index.ts";

/** What a run shows, with nothing that differs between two faithful captures of it (ids, times, seq). */
export function summary(records: readonly CaptureRecord[]) {
  const engine = createEngine({});
  for (const record of records) engine.push(record);
  return {
    flows: [...engine.flows()].map((f) => ({
      kind: f.kind,
      revision: f.revision,
      method: f.method,
      target: f.target,
      rounds: f.rounds.length,
      status: f.status,
      elicitations: f.elicitations.map((e) => ({ mode: e.mode, action: e.action, completed: e.completed })),
    })),
    findings: engine
      .findings()
      .map((x) => `${x.rule} ${x.severity}`)
      .sort(),
    problems: engine.problems().map((p) => p.message),
  };
}

/** A JSONL file the proxy wrote, read back by the importer `mcp-elicit lint` uses. */
export async function readCaptureFile(path: string): Promise<{ records: CaptureRecord[]; problems: string[] }> {
  const { records, problems } = importJsonl(await readFile(path, "utf8"), path);
  return { records, problems: problems.map((p) => p.message) };
}

/** An SDK call's result, or its error's class, code and message: what a client sees. */
export function outcome(value: unknown): unknown {
  if (value instanceof Error)
    return { error: value.constructor.name, code: (value as { code?: unknown }).code, message: value.message };
  return value;
}

export const waitFor = async (check: () => boolean, ms = 5000): Promise<void> => {
  for (const start = Date.now(); !check(); ) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
