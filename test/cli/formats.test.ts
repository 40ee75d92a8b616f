import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { analyze } from "../../src/engine/index.ts";
import { rules as catalogue } from "../../src/engine/rules/index.ts";
import { escapeData, escapeProperty } from "../../src/cli/formats/github.ts";
import { built, cli, DEMO } from "./run.ts";

// `lint --format sarif|junit|github` as CI reads them: SARIF against the SARIF 2.1.0 schema as Microsoft's SARIF
// SDK team ships it (@microsoft/jest-sarif), JUnit through fast-xml-parser, annotations by the workflow-command rules.
const require = createRequire(import.meta.url);
const schema = JSON.parse(
  readFileSync(
    join(require.resolve("@microsoft/jest-sarif/package.json"), "../lib/schemas/sarif-2.1.0-rtm.5.json"),
    "utf8",
  ),
);
// unicodeRegExp off: the schema's language pattern ("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$") is an ECMAScript
// pattern only without the u flag, as JSON Schema validators of its time compiled it.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validSarif = ajv.compile(schema);

const demoText = readFileSync(DEMO, "utf8");
const demo = analyze(importCapture(demoText, DEMO).records);
/** A response text hostile to every format: markup, quotes, workflow-command delimiters, controls, a lone surrogate. */
const HOSTILE = `</failure>]]><x a="1"> & %0A::error::,: \u0001\u001b[31m \ud800 end`;
let dir: string;

before(async () => {
  built();
  dir = await mkdtemp(join(tmpdir(), "mcp-formats-"));
});
after(() => rm(dir, { recursive: true, force: true }));

/** The demo with one error finding (a form answer that is an object) whose message quotes hostile text. */
async function failing(): Promise<string> {
  const text = demoText.replace(
    '\\"content\\":{\\"confirm\\":true}',
    `\\"content\\":{${JSON.stringify(JSON.stringify(HOSTILE)).slice(1, -1)}:{\\"a\\":1}}`,
  );
  assert.notEqual(text, demoText);
  const path = join(dir, "failing capture.jsonl");
  await writeFile(path, text);
  return path;
}

describe("--format sarif", () => {
  test("the demo capture's SARIF validates against the official 2.1.0 schema: every rule, every finding", () => {
    const run = cli(["lint", DEMO, "--format", "sarif"]);
    assert.equal(run.status, 0, run.stderr);
    const log = JSON.parse(run.stdout);
    assert.equal(validSarif(log), true, JSON.stringify(validSarif.errors?.slice(0, 5), null, 2));
    const [only] = log.runs;
    assert.deepEqual(
      only.tool.driver.rules.map((r: { id: string }) => r.id),
      catalogue.map((r) => r.id),
    );
    for (const rule of only.tool.driver.rules) {
      assert.match(rule.helpUri, /^https:\/\/modelcontextprotocol\.io\/specification\//);
      assert.ok(rule.shortDescription.text && rule.fullDescription.text && rule.name);
      assert.ok(["error", "warning", "note"].includes(rule.defaultConfiguration.level));
    }
    assert.equal(only.results.length, demo.findings.length);
    assert.ok(only.results.length > 0, "the demo capture has findings");
    const lines = demoText.split("\n");
    for (const [i, result] of only.results.entries()) {
      const finding = demo.findings[i]!;
      assert.equal(result.ruleId, finding.rule);
      assert.equal(only.tool.driver.rules[result.ruleIndex].id, finding.rule);
      assert.equal(result.properties.flow, finding.flow);
      assert.equal(result.properties.pointer, finding.pointer);
      const location = result.locations[0].physicalLocation;
      assert.equal(location.artifactLocation.uri, encodeURI(DEMO));
      // The region is the JSONL line holding the finding's record.
      const line = JSON.parse(lines[location.region.startLine - 1]!);
      assert.equal(line.seq, finding.record);
    }
  });

  test("an error finding with hostile text stays valid SARIF; a HAR input is located by entry", async () => {
    const path = await failing();
    const run = cli(["lint", path, "--format", "sarif"]);
    assert.equal(run.status, 1);
    const log = JSON.parse(run.stdout);
    assert.equal(validSarif(log), true, JSON.stringify(validSarif.errors?.slice(0, 5)));
    const errors = log.runs[0].results.filter((r: { level: string }) => r.level === "error");
    assert.equal(errors.length, 1);
    assert.equal(errors[0].locations[0].physicalLocation.artifactLocation.uri, encodeURI(path));

    const har = join(dir, "demo.har");
    await writeFile(har, exportHar(importCapture(demoText, DEMO).records));
    const fromHar = JSON.parse(cli(["lint", har, "--format", "sarif"]).stdout);
    assert.equal(validSarif(fromHar), true, JSON.stringify(validSarif.errors?.slice(0, 5)));
    assert.equal(fromHar.runs[0].results.length, demo.findings.length);
    assert.equal(fromHar.runs[0].invocations[0].executionSuccessful, true);
    for (const result of fromHar.runs[0].results) {
      assert.equal(result.locations[0].physicalLocation.region, undefined);
      assert.match(result.locations[0].logicalLocations[0].fullyQualifiedName, /^log\.entries\[\d+\]/);
    }
  });
});

describe("--format junit", () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase", "failure"].includes(name),
  });

  test("the demo capture's JUnit parses, with a testsuite per file and a testcase per flow", () => {
    const run = cli(["lint", DEMO, DEMO, "--format", "junit"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(XMLValidator.validate(run.stdout), true);
    const xml = parser.parse(run.stdout);
    assert.equal(xml.testsuites.testsuite.length, 2);
    for (const suite of xml.testsuites.testsuite) {
      assert.equal(suite.name, DEMO);
      const flows = suite.testcase.filter((c: { name: string }) => c.name !== "session");
      assert.equal(flows.length, demo.flows.length);
      for (const [i, flow] of demo.flows.entries()) {
        assert.equal(flows[i].name, `${flow.method}${flow.target ? " " + flow.target : ""} (${flow.id})`);
      }
      assert.equal(Number(suite.failures), 0);
      assert.ok(!suite.testcase.some((c: { failure?: unknown }) => c.failure));
    }
  });

  test("an error finding is a failure of its flow's testcase, hostile text intact; a warning goes to system-out", async () => {
    const path = await failing();
    const run = cli(["lint", path, "--format", "junit"]);
    assert.equal(run.status, 1);
    assert.equal(XMLValidator.validate(run.stdout), true);
    const suite = parser.parse(run.stdout).testsuites.testsuite[0];
    const failed = suite.testcase.filter((c: { failure?: unknown }) => c.failure);
    assert.equal(failed.length, 1);
    assert.equal(Number(suite.failures), 1);
    const failure = failed[0].failure[0];
    assert.equal(failure.type, "result-content-value-types");
    assert.match(failed[0].name, /^tools\/call confirm_action \(flow-\d+\)$/);
    // Markup in the captured key arrives as text; the lone surrogate and the controls became U+FFFD.
    assert.ok(failure.message.includes(`</failure>]]><x a="1"> & %0A::error::,:`), failure.message);
    assert.ok(!/[\u0001\u001b]/.test(run.stdout));
    // Findings below the threshold (the demo's info findings) are in their testcase's system-out, not failures.
    const out = suite.testcase.filter((c: { "system-out"?: string }) =>
      c["system-out"]?.includes("info url-https at "),
    );
    assert.ok(out.length > 0);
    assert.ok(out.every((c: { name: string; failure?: unknown }) => !c.failure || c.name === failed[0].name));

    // --fail-on info: the warnings become failures too.
    const strict = parser.parse(cli(["lint", DEMO, "--format", "junit", "--fail-on", "info"]).stdout).testsuites
      .testsuite[0];
    assert.equal(Number(strict.failures), demo.findings.length);
  });
});

describe("--format github", () => {
  test("escapes data and properties as the workflow-command toolkit does", () => {
    assert.equal(escapeData("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
    assert.equal(escapeProperty("50% a\r\nb:c,d"), "50%25 a%0D%0Ab%3Ac%2Cd");
  });

  test("one annotation line per finding with file, line and rule; hostile text cannot start a command", async () => {
    const path = await failing();
    const run = cli(["lint", path, "--format", "github"]);
    assert.equal(run.status, 1);
    const lines = run.stdout.trimEnd().split("\n");
    const annotations = lines.filter((l) => l.startsWith("::"));
    const expected = analyze(importCapture(readFileSync(path, "utf8"), path).records).findings;
    assert.equal(annotations.length, expected.length);
    const error = annotations.find((l) => l.startsWith("::error "))!;
    const pathProperty = escapeProperty(path);
    assert.match(
      error,
      new RegExp(
        `^::error file=${pathProperty.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},line=\\d+,title=result-content-value-types::`,
      ),
    );
    // The hostile key's "::error::" stays inside the message, and its "%0A" cannot become a new line.
    assert.ok(error.includes("%250A::error::,:"), error);
    assert.ok(!/[\u0001\u001b\r]/.test(run.stdout));
    const count = (s: string) => expected.filter((f) => f.severity === s).length;
    assert.equal(
      lines.at(-1),
      `mcp-elicit: ${count("error")} errors, ${count("warning")} warnings, ${count("info")} notices`,
    );
  });

  test("at most 10 annotations of a level, as GitHub shows; the last line counts the rest", () => {
    // Three copies of the demo capture hold more than 10 notices.
    const run = cli(["lint", DEMO, DEMO, DEMO, "--format", "github"]);
    const notices = run.stdout.split("\n").filter((l) => l.startsWith("::notice "));
    assert.equal(notices.length, 10);
    const total = demo.findings.filter((f) => f.severity === "info").length * 3;
    assert.ok(total > 10);
    assert.match(run.stdout, new RegExp(`not annotated \\(GitHub shows 10 of each\\): ${total - 10} notices`));
  });
});

test("--format rejects an unknown format and --json with another format", () => {
  assert.equal(cli(["lint", DEMO, "--format", "xml"]).status, 2);
  const both = cli(["lint", DEMO, "--json", "--format", "sarif"]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /--json means json/);
  assert.deepEqual(
    JSON.parse(cli(["lint", DEMO, "--format", "json"]).stdout),
    JSON.parse(cli(["lint", DEMO, "--json"]).stdout),
  );
});
