import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { exportHar } from "../src/capture/har/export.ts";
import { importCapture } from "../src/capture/import.ts";
import { analyze } from "../src/engine/index.ts";
import { rules as catalogue } from "../src/engine/ruleKit/rules.ts";
import { notChecked } from "../src/engine/rules/unchecked.ts";

/**
 * `mcp-elicit lint` as CI runs it: the built bin (bin/mcp-elicit.js → dist/cli), real files, exit status, flags, the
 * documented JSON schema (docs/cli.md), human output, standard input and unreadable input.
 */
const DEMO = "demo/demo-capture.jsonl";
const demoText = readFileSync(DEMO, "utf8");
let dir: string;

before(async () => {
  if (!existsSync("dist/cli/mcp-elicit.js")) {
    const built = spawnSync(process.execPath, ["build.mjs"], { stdio: "inherit" });
    assert.equal(built.status, 0, "node build.mjs");
  }
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-"));
});
after(() => rm(dir, { recursive: true, force: true }));

const lint = (args: string[], input?: string) => {
  const run = spawnSync(process.execPath, ["bin/mcp-elicit.js", "lint", ...args], {
    encoding: "utf8",
    input,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};
const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};
/** The demo capture with one accepted form answer that is not a primitive: content values are strings, numbers, booleans or string arrays. */
const wrongType = demoText.replace(
  '\\"content\\":{\\"confirm\\":true}',
  '\\"content\\":{\\"confirm\\":{\\"really\\":true}}',
);

describe("mcp-elicit lint", () => {
  test("--json prints the documented schema with the engine's flows and findings; exit 0 without errors", () => {
    const run = lint([DEMO, "--json"]);
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(report), ["files", "summary"]);
    assert.deepEqual(Object.keys(report.summary), ["errors", "warnings", "info"]);
    const [only] = report.files;
    assert.equal(report.files.length, 1);
    assert.deepEqual(Object.keys(only), ["file", "flows", "findings", "problems"]);
    assert.equal(only.file, DEMO);

    const expected = analyze(importCapture(demoText, DEMO).records);
    assert.equal(only.flows.length, expected.flows.length);
    assert.ok(only.flows.length > 10, "the demo capture holds flows of both eras");
    for (const [i, flow] of only.flows.entries()) {
      assert.deepEqual(Object.keys(flow), [
        "id",
        "kind",
        "revision",
        "method",
        "target",
        "rounds",
        "status",
        "elicitations",
      ]);
      const e = expected.flows[i]!;
      assert.deepEqual(
        [flow.id, flow.kind, flow.revision, flow.method, flow.target, flow.rounds, flow.status],
        [e.id, e.kind, e.revision, e.method, e.target, e.rounds.length, e.status],
      );
      for (const el of flow.elicitations)
        assert.deepEqual(Object.keys(el), ["key", "mode", "action", "elicitationId", "completed"]);
    }
    assert.deepEqual(
      new Set(only.flows.map((f: { revision: string }) => f.revision)),
      new Set(["2025-11-25", "2026-07-28"]),
    );
    assert.equal(only.findings.length, expected.findings.length);
    for (const f of only.findings)
      assert.deepEqual(Object.keys(f), ["rule", "severity", "violator", "flow", "entry", "pointer", "message"]);
    const count = (s: string) => only.findings.filter((f: { severity: string }) => f.severity === s).length;
    assert.deepEqual(report.summary, { errors: count("error"), warnings: count("warning"), info: count("info") });
    assert.equal(report.summary.errors, 0);
  });

  test("an error-severity finding exits 1; --min-severity and --disable narrow what is reported", async () => {
    assert.notEqual(wrongType, demoText, "the mutation applies");
    const path = await file("wrong-type.jsonl", wrongType);
    const run = lint([path, "--json"]);
    assert.equal(run.status, 1);
    const report = JSON.parse(run.stdout);
    const errors = report.files[0].findings.filter((f: { severity: string }) => f.severity === "error");
    assert.deepEqual(
      errors.map((f: { rule: string }) => f.rule),
      ["result-content-value-types"],
    );
    assert.equal(errors[0].violator, "client");
    assert.match(errors[0].pointer, /^\/result\/content\/confirm$/);

    const onlyErrors = JSON.parse(lint([path, "--json", "--min-severity", "error"]).stdout);
    assert.ok(onlyErrors.files[0].findings.every((f: { severity: string }) => f.severity === "error"));
    assert.deepEqual(onlyErrors.summary, { errors: 1, warnings: 0, info: 0 });

    const disabled = lint([path, "--json", "--disable", "result-content-value-types,url-https"]);
    assert.equal(disabled.status, 0, "the only error rule is disabled");
    const rules = new Set(JSON.parse(disabled.stdout).files[0].findings.map((f: { rule: string }) => f.rule));
    assert.ok(!rules.has("result-content-value-types") && !rules.has("url-https"));
    assert.ok(
      report.files[0].findings.some((f: { rule: string }) => f.rule === "url-https"),
      "url-https was there before",
    );
  });

  test("human output: each file, its flows and findings, and a summary line; no colour when NO_COLOR is set", async () => {
    const path = await file("wrong-type.jsonl", wrongType);
    const run = lint([path]);
    assert.equal(run.status, 1);
    assert.ok(run.stdout.startsWith(path + "\n"));
    assert.match(run.stdout, /flow-1 server-request 2025-11-25 tools\/call confirm_action — 1 round, complete/);
    assert.match(run.stdout, /error {3}result-content-value-types entry \d+ \/result\/content\/confirm/);
    assert.match(run.stdout, /\n\d+ flows: 1 error, 0 warnings, \d+ info\n$/);
    assert.doesNotMatch(run.stdout, /\x1b\[/);
  });

  test("a HAR and a JSONL file of the same traffic give the same flows; several files report side by side", async () => {
    const har = await file("demo.har", exportHar(importCapture(demoText, DEMO).records));
    const run = lint([DEMO, har, "--json"]);
    assert.equal(run.status, 0, run.stderr);
    const [a, b] = JSON.parse(run.stdout).files;
    assert.equal(b.file, har);
    assert.deepEqual(b.flows, a.flows);
    assert.deepEqual(
      b.findings.map((f: { rule: string; pointer: string }) => [f.rule, f.pointer]),
      a.findings.map((f: { rule: string; pointer: string }) => [f.rule, f.pointer]),
    );
  });

  test('"-" reads the capture from standard input, JSONL or HAR', () => {
    const run = lint(["-", "--json"], wrongType);
    assert.equal(run.status, 1, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.files[0].file, "-");
    assert.equal(report.summary.errors, 1);
    const har = lint(["-", "--json"], exportHar(importCapture(wrongType, DEMO).records));
    assert.equal(har.status, 1, har.stderr);
    assert.deepEqual(JSON.parse(har.stdout).files[0].flows, report.files[0].flows);
  });

  test("unreadable input exits 2 with a clear message; what can be salvaged is still reported", async () => {
    const missing = lint([join(dir, "nope.har")]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read .*nope\.har: no such file/);

    const neither = await file("notes.txt", "hello, this is not a capture\n");
    const bad = lint([neither, "--json"]);
    assert.equal(bad.status, 2);
    assert.ok(JSON.parse(bad.stdout).files[0].problems.length > 0);

    const harText = exportHar(importCapture(demoText, DEMO).records);
    const truncated = await file("truncated.har", harText.slice(0, Math.floor(harText.length * 0.6)));
    const cut = lint([truncated, "--json"]);
    assert.equal(cut.status, 2);
    const salvaged = JSON.parse(cut.stdout).files[0];
    assert.ok(salvaged.problems.length > 0);
    assert.ok(salvaged.flows.length > 0, "flows of the entries before the cut");

    assert.equal(lint([DEMO, "--disable", "no-such-rule"]).status, 2);
    assert.equal(lint([DEMO, "--min-severity", "fatal"]).status, 2);
    const usage = spawnSync(process.execPath, ["bin/mcp-elicit.js"], { encoding: "utf8" });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /Usage: mcp-elicit lint/);
  });
});

describe("mcp-elicit rules and --version", () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ["bin/mcp-elicit.js", ...args], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });

  test("rules --json lists every catalogue rule with its default severity and whether lint checks it", () => {
    const run = cli(["rules", "--json"]);
    assert.equal(run.status, 0, run.stderr);
    const rows = JSON.parse(run.stdout) as { id: string; severity: string; checked: boolean; why?: string }[];
    assert.deepEqual(
      rows.map((r) => [r.id, r.severity]),
      catalogue.map((r) => [r.id, r.severity]),
    );
    assert.deepEqual(
      rows
        .filter((r) => !r.checked)
        .map((r) => r.id)
        .sort(),
      Object.keys(notChecked).sort(),
    );
    assert.ok(rows.filter((r) => !r.checked).every((r) => typeof r.why === "string" && r.why.length > 0));
    assert.equal(rows.find((r) => r.id === "url-no-prefetch")?.checked, true);
  });

  test("rules prints one line per rule and a count; every id it prints is accepted by --disable", () => {
    const run = cli(["rules"]);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(
      lines.at(-1)!,
      new RegExp(`^${catalogue.length} rules; lint checks ${catalogue.length - Object.keys(notChecked).length}, `),
    );
    const ids = lines.slice(0, catalogue.length).map((l) => l.split(/\s+/)[0]!);
    assert.deepEqual(
      ids,
      catalogue.map((r) => r.id),
    );
    assert.equal(lint([DEMO, "--disable", ids.join(",")]).status, 0);
  });

  test("--version prints package.json's version", () => {
    const run = cli(["--version"]);
    assert.equal(run.status, 0);
    assert.equal(
      run.stdout.trim(),
      `mcp-elicit ${(JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version}`,
    );
  });
});
