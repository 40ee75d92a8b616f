import assert from "node:assert/strict";
import { importHar } from "../../src/capture/har.ts";
import { exportHar } from "../../src/capture/harExport.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import { CaptureRecord } from "../../src/capture/record.ts";
import { redactRecords } from "../../src/capture/redact.ts";
import { analyze } from "../../src/engine/index.ts";
import { SECRETS, type Input } from "./arbitraries.ts";

/**
 * The properties every input must keep (issue 11): nothing throws past an importer, the engine or an exporter;
 * no internal error; every imported record passes the capture schema; export → import → export is a fixed point
 * (the same records and the same flows); the default (redacted) exports never contain a planted secret; and
 * Object.prototype and Array.prototype are unchanged.
 */
const protoKeys = (o: object) => Reflect.ownKeys(o).map(String).sort().join(",");
const OBJECT_KEYS = protoKeys(Object.prototype);
const ARRAY_KEYS = protoKeys(Array.prototype);

const stage = <T>(name: string, fn: () => T): T => {
  try {
    return fn();
  } catch (error) {
    const e = error as Error;
    throw new Error(`${name} threw: ${e?.message ?? String(error)}${e?.stack ? `\n${e.stack.split("\n").slice(1, 4).join("\n")}` : ""}`);
  }
};

type Flows = ReturnType<typeof analyze>["flows"];
const shape = (flows: Flows) => flows.map((f) => `${f.kind} ${f.status} ${f.method} ${f.rounds.length} ${f.elicitations.length}`);
const unnamed = (records: readonly CaptureRecord[]) => records.map(({ entry: _e, exchange: _x, ...r }) => JSON.stringify(r));

export function checkInput(input: Input): void {
  try {
    check(input);
  } finally {
    assert.equal(protoKeys(Object.prototype), OBJECT_KEYS, "Object.prototype changed");
    assert.equal(protoKeys(Array.prototype), ARRAY_KEYS, "Array.prototype changed");
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype polluted");
  }
}

function check(input: Input): void {
  assert.ok(!input.text.startsWith("EXPORT-THREW"), `exportHar threw on a valid capture: ${input.text}`);
  const file = input.format === "har" ? "fuzz.har" : "fuzz.jsonl";
  const imported = stage("import", () => importCapture(input.text, file));
  for (const r of imported.records) assert.ok(CaptureRecord.safeParse(r).success, `an imported record fails the capture schema: ${JSON.stringify(r).slice(0, 300)}`);
  const result = stage("analyze", () => analyze(imported.records));
  const internal = result.problems.find((p) => p.message.startsWith("Internal error"));
  assert.equal(internal, undefined, internal?.message);
  for (const f of result.findings) if (f.flow !== null) assert.ok(result.flows.some((x) => x.id === f.flow), `finding ${f.rule} names ${f.flow}, which is not in the report`);

  // The default exports: redacted; no planted secret survives.
  const redacted = stage("redact", () => redactRecords(imported.records));
  const jsonl = stage("exportJsonl", () => exportJsonl(redacted));
  const har = stage("exportHar", () => exportHar(redacted));
  for (const secret of SECRETS) {
    assert.ok(!jsonl.includes(secret), `the redacted JSONL export contains ${secret}`);
    assert.ok(!har.includes(secret), `the redacted HAR export contains ${secret}`);
  }

  // An empty capture exports to an empty file, which an import calls empty: nothing to compare.
  if (imported.records.length === 0) return;
  // JSONL: a fixed point at once.
  const fromJsonl = stage("importJsonl (re-import)", () => importJsonl(exportJsonl(imported.records), "again.jsonl"));
  assert.deepEqual(fromJsonl.problems, [], "the JSONL export does not re-import cleanly");
  // Compared as JSON: what a file can say (-0 is written 0).
  assert.equal(JSON.stringify(fromJsonl.records), JSON.stringify(imported.records), "JSONL export → import changed the records");
  // HAR: from the first import on (times rounded to milliseconds; same-millisecond entries may be renumbered once).
  const first = stage("importHar (re-import)", () => importHar(exportHar(imported.records), "again.har"));
  assert.deepEqual(first.problems, [], "the HAR export does not re-import cleanly");
  assert.deepEqual(shape(stage("analyze (re-import)", () => analyze(first.records)).flows), shape(result.flows), "HAR export → import changed the flows");
  const secondText = exportHar(first.records);
  const second = importHar(secondText, "again.har");
  assert.deepEqual(second.problems, []);
  assert.deepEqual(unnamed(second.records), unnamed(first.records), "HAR export → import → export → import changed the records");
  const third = importHar(exportHar(second.records), "again.har");
  assert.equal(JSON.stringify(third.records), JSON.stringify(second.records), "HAR is not a fixed point after two round trips");
}
