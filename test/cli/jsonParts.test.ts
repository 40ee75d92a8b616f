import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { importJsonl } from "../../src/capture/jsonl.ts";
import { toJson, toJsonParts, type FileReport } from "../../src/cli/report.ts";
import { analyze } from "../../src/engine/index.ts";

// `lint --json` writes its report in parts (issue 16: a 1 GiB HAR's report is never one string beside the engine's
// state): the parts joined are the text JSON.stringify gives of the whole report.
test("the JSON report in parts is JSON.stringify of the report, byte for byte", () => {
  const { records, problems } = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl");
  const { flows, findings, problems: engine } = analyze(records);
  assert.ok(flows.length > 0 && findings.length > 0);
  const demo: FileReport = {
    file: 'demo "capture".jsonl',
    flows,
    findings,
    problems: [...problems, ...engine, { file: "x", entry: 3, message: "line\nbreak ✓" }],
  };
  const empty: FileReport = { file: "empty.har", flows: [], findings: [], problems: [] };
  const session: FileReport = { ...demo, file: "page.har + backend.jsonl", session: ["page.har", "backend.jsonl"] };
  for (const files of [[demo], [demo, empty], [empty], [session, empty], []]) {
    assert.equal([...toJsonParts(files)].join(""), JSON.stringify(toJson(files), null, 2));
  }
});
