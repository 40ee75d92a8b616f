// See hook.mjs. Records every engine run of a test process (its records and options) for the differential check.
import { mkdirSync, writeFileSync } from "node:fs";
import type { CaptureRecord } from "../../src/capture/record.ts";
import * as real from "../../src/engine/index.ts";

export * from "../../src/engine/index.ts";

interface Run {
  options: Record<string, unknown>;
  records: CaptureRecord[];
}
const runs: Run[] = [];
const dir = process.env.DIFF_CAPTURE_DIR;
const plain = (options: real.EngineOptions = {}): Record<string, unknown> => ({
  ...options,
  ...(options.disable ? { disable: [...options.disable] } : {}),
});
if (dir) {
  process.on("exit", () => {
    mkdirSync(dir, { recursive: true });
    runs.forEach((run, i) => {
      if (run.records.length) writeFileSync(`${dir}/${process.pid}-${i}.json`, JSON.stringify(run));
    });
  });
}

export function createEngine(options: real.EngineOptions = {}): real.Engine {
  const engine = real.createEngine(options);
  const run: Run = { options: plain(options), records: [] };
  runs.push(run);
  return {
    ...engine,
    push: (record: CaptureRecord) => (run.records.push(structuredClone(record)), engine.push(record)),
  };
}

export function analyze(
  records: Iterable<CaptureRecord>,
  options: real.EngineOptions = {},
): ReturnType<typeof real.analyze> {
  const list = [...records];
  runs.push({ options: plain(options), records: list.map((r) => structuredClone(r)) });
  return real.analyze(list, options);
}
