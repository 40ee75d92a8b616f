import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { importCapture } from "../../src/capture/import.ts";
import { analyze } from "../../src/engine/index.ts";
import { parseConfig } from "../../src/engine/configFile.ts";
import { configText, defaultSettings, engineOptions, fails, readEngineSettings } from "../../src/engine/settings.ts";

// Per-rule levels (the configuration file's "rules"): off is a disabled rule, a severity grades every finding.
const records = importCapture(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo.jsonl").records;
const plain = analyze(records);

test("a level grades every finding of its rule and no other; off is the same as disable", () => {
  const levels = { "url-https": "off", "adv-message-quality": "error" } as const;
  const graded = analyze(records, { levels });
  const expected = plain.findings
    .filter((f) => f.rule !== "url-https")
    .map((f) => [f.rule, f.rule === "adv-message-quality" ? "error" : f.severity, f.pointer]);
  assert.deepEqual(
    graded.findings.map((f) => [f.rule, f.severity, f.pointer]),
    expected,
  );
  assert.ok(expected.some(([rule]) => rule === "adv-message-quality"));
  const disabled = analyze(records, { disable: ["url-https"] });
  assert.deepEqual(
    graded.findings.map((f) => f.rule),
    disabled.findings.map((f) => f.rule),
  );
  assert.deepEqual(graded.flows, plain.flows);
});

test("a level wins over the strict profile's severity", () => {
  const strict = analyze(records, { strict2260: true });
  assert.ok(strict.findings.some((f) => f.rule === "del-r12-standalone-stream" && f.severity === "error"));
  const lowered = analyze(records, { strict2260: true, levels: { "del-r12-standalone-stream": "warning" } });
  assert.ok(
    lowered.findings.filter((f) => f.rule === "del-r12-standalone-stream").every((f) => f.severity === "warning"),
  );
});

test("settings round-trip through the file text; the threshold decides what fails", () => {
  const settings = defaultSettings();
  settings.levels["url-https"] = "off";
  settings.strict2260 = true;
  settings.failOn = "warning";
  settings.decode.push({ id: "a", url: "https://h/*", pointer: "/m", direction: "both" });
  assert.deepEqual(parseConfig(configText(settings)), settings);
  assert.deepEqual(engineOptions(settings), { levels: { "url-https": "off" }, strict2260: true });
  assert.equal(fails(settings, "warning"), true);
  assert.equal(fails(settings, "info"), false);
  assert.equal(fails({ failOn: "never" }, "error"), false);
  assert.equal(configText(defaultSettings()), "{}\n");
});

test("the worker's check of engine settings (no zod) agrees with the file's and says where", () => {
  assert.deepEqual(
    readEngineSettings({ rules: { "url-https": "off" }, strict2260: true, failOn: "never" }),
    parseConfig('{"rules":{"url-https":"off"},"strict2260":true,"failOn":"never"}'),
  );
  assert.deepEqual(readEngineSettings({ rules: { "url-https": "loud" } }), {
    error: "at /rules/url-https: one of off, info, warning, error",
  });
  assert.deepEqual(readEngineSettings({ rules: { "no/rule": "off" } }), {
    error: 'at /rules/no~1rule: unknown rule id "no/rule"',
  });
  assert.deepEqual(readEngineSettings({ decode: [] }), {
    error: "at /decode: not an engine setting (rules, strict2260, failOn)",
  });
  assert.deepEqual(readEngineSettings({ strict2260: "yes" }), { error: "at /strict2260: true or false" });
  assert.deepEqual(readEngineSettings([]), { error: "at /: the settings are a JSON object" });
});
