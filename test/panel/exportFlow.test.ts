import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importCapture } from "../../src/capture/import.ts";
import { jsonlParts } from "../../src/capture/jsonl.ts";
import { redactRecords } from "../../src/capture/redact.ts";
import { analyze, type Flow } from "../../src/engine/index.ts";
import { flowRecords } from "../../panel/io/exportFlow.ts";

// "Export flow as JSONL": each demo flow, exported (redacted, as by default) and linted, is that one flow again.
const records = importCapture(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo.jsonl").records;
const demo = analyze(records);

const outcome = (f: Flow) => ({
  kind: f.kind,
  revision: f.revision,
  method: f.method,
  target: f.target,
  status: f.status,
  rounds: f.rounds.length,
  elicitations: f.elicitations.map((e) => ({ key: e.key, mode: e.mode, action: e.action, completed: e.completed })),
});

test("every demo flow exports as a capture that lints to that one flow, with the same outcome and findings", () => {
  assert.ok(demo.flows.length > 10);
  for (const flow of demo.flows) {
    const text = [...jsonlParts(redactRecords(flowRecords(records, flow)))].join("");
    const again = analyze(importCapture(text, `${flow.id}.jsonl`).records);
    assert.equal(
      again.flows.length,
      1,
      `${flow.id} ${flow.method} ${flow.target}: ${again.flows.map((f) => f.method).join(", ")}`,
    );
    assert.deepEqual(outcome(again.flows[0]!), outcome(flow), flow.id);
    const rules = (findings: typeof demo.findings) => findings.map((f) => [f.rule, f.severity, f.pointer]);
    assert.deepEqual(
      rules(again.findings.filter((f) => f.flow !== null)),
      rules(demo.findings.filter((f) => f.flow === flow.id)),
      flow.id,
    );
  }
});

test("an exported flow holds the session's opening and none of another flow's messages", () => {
  const legacy = demo.flows.find((f) => f.revision === "2025-11-25" && f.method === "tools/call")!;
  const exported = flowRecords(records, legacy);
  const texts = exported.flatMap((r) => (r.kind === "message" ? [r.text] : []));
  assert.ok(texts.some((t) => t.includes('"method":"initialize"')));
  assert.ok(texts.some((t) => t.includes('"method":"notifications/initialized"')));
  const others = new Set(demo.flows.filter((f) => f !== legacy).flatMap((f) => f.records));
  assert.ok(exported.every((r) => !others.has(r.seq)));
  const modern = demo.flows.find((f) => f.revision === "2026-07-28")!;
  assert.ok(
    flowRecords(records, modern).some((r) => r.kind === "message" && r.text.includes('"method":"server/discover"')),
  );
});

test("the CLI lints an exported flow to one flow", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mcp-flow-"));
  try {
    const flow = demo.flows.find((f) => f.elicitations.length > 1) ?? demo.flows[0]!;
    const path = join(dir, "flow.jsonl");
    await writeFile(path, [...jsonlParts(redactRecords(flowRecords(records, flow)))].join(""));
    const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "lint", path, "--json"], {
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      report.files[0].flows.map((f: { method: string; target: string }) => [f.method, f.target]),
      [[flow.method, flow.target]],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
