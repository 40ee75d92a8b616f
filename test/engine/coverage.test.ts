import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { registry } from "../../src/engine/ruleKit/registry.ts";
import { moduleMetas } from "../../src/engine/ruleKit/metas.ts";
import { isRuleId, ruleMeta, rules, ruleTitle } from "../../src/engine/ruleKit/rules.ts";
import type { FindingInput, RuleId } from "../../src/engine/ruleKit/types.ts";
import { createEngine } from "../../src/engine/index.ts";
import { notChecked } from "../../src/engine/rules/unchecked.ts";
import { families } from "../../src/engine/rules/payload.ts";
import { readCatalogue, violatorOf } from "../../scripts/rulesCatalogue.mjs";
import { generated } from "../../scripts/rules-gen.ts";

const catalogue = readCatalogue(new URL("../../docs/catalogue.md", import.meta.url));
/** The test files of test/rules/, by name. */
const ruleTests = new Map(
  readdirSync("test/rules")
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => [f.slice(0, -".test.ts".length), readFileSync(`test/rules/${f}`, "utf8")]),
);

test("a rule id is one of the registry's: a misspelt one does not compile", () => {
  // @ts-expect-error "url-htps" is not a rule id
  const misspelt: RuleId = "url-htps";
  const report = (input: FindingInput): string => input.rule;
  // @ts-expect-error nor in a finding
  report({ rule: "form-secret-feld", pointer: "", message: "" });
  // @ts-expect-error nor in a list of rules to turn off
  createEngine({ disable: ["url-https", "notify-directon"] });
  assert.equal(isRuleId(misspelt), false);
  assert.equal(isRuleId("url-https"), true);
});

test("the registry holds every catalogue rule once, in exactly one module", () => {
  const ids = rules.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, "a rule id is in two modules");
  assert.deepEqual([...ids].sort(), [...catalogue.keys()].sort());
});

// metas.ts lists the modules' metas without their checks (the panel reads it; panel.js holds no check).
test("each module of the registry has the meta metas.ts lists for it: every rule, in its order, the same objects", () => {
  const listed = Object.values(moduleMetas);
  assert.equal(registry.length, listed.length);
  registry.forEach((module, i) => {
    assert.deepEqual(
      module.meta.map((r) => r.id),
      listed[i]!.map((r) => r.id),
      Object.keys(moduleMetas)[i],
    );
    module.meta.forEach((meta, j) => assert.equal(meta, listed[i]![j], meta.id));
  });
  assert.deepEqual(
    rules,
    registry.flatMap((m) => m.meta),
  );
  assert.equal(
    ruleMeta("url-https"),
    rules.find((r) => r.id === "url-https"),
  );
  assert.equal(ruleTitle("url-https"), ruleMeta("url-https")!.title);
  assert.equal(ruleTitle("no-such-rule"), "no-such-rule");
});

test("a module that listens to nothing holds only rules listed as not checked, and every such rule is in one", () => {
  const silent = registry.filter(
    (m) => Object.keys(m.create({ report: () => {}, on: () => true, strict2260: false })).length === 0,
  );
  assert.deepEqual(silent.flatMap((m) => m.meta.map((r) => r.id)).sort(), Object.keys(notChecked).sort());
});

// The rule tester (test/rules/ruleTester.ts) fails a module's file when a rule it checks has no invalid case.
test("every rule module, and each payload family, has its rule tester file: test/rules/<name>.test.ts", () => {
  const names = [
    ...Object.keys(moduleMetas).filter((n) => n !== "payload" && n !== "unchecked"),
    ...Object.keys(families),
  ];
  for (const name of names) {
    const text = ruleTests.get(name);
    assert.ok(text, `test/rules/${name}.test.ts is missing`);
    assert.match(
      text,
      new RegExp(`^ruleTester\\("${name}", meta, `, "m"),
      `test/rules/${name}.test.ts does not run the rule tester on its module's meta`,
    );
  }
});
test("every module's meta is the catalogue's (docs/catalogue.md): revisions, severity, violator, detection, title, section", () => {
  for (const module of registry) {
    for (const meta of module.meta) {
      const entry = catalogue.get(meta.id);
      assert.ok(entry, `${meta.id} is not in the catalogue`);
      const { id, revisions, severity, severityNote, detection, title, section } = meta;
      const violator = meta.violatorNote ?? meta.violator;
      assert.deepEqual({ id, revisions, severity, severityNote, violator, detection, title, section }, entry, meta.id);
      assert.equal(
        meta.violator,
        violatorOf(entry.violator),
        `${meta.id}: the violator the catalogue's cell names first`,
      );
      if (meta.violatorNote !== undefined)
        assert.notEqual(meta.violatorNote, meta.violator, `${meta.id}: a note the same as the violator`);
    }
  }
});

test("metas.ts, ruleIds.ts and docs/rules.md's rule table are the registry's (npm run rules writes them)", () => {
  for (const [path, text] of generated())
    assert.equal(readFileSync(path, "utf8"), text, `${path} is out of date: npm run rules`);
});
