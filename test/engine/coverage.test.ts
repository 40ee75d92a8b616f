import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { notChecked, registry, rules } from "../../src/engine/rules/index.ts";
import { moduleMetas, ruleMeta, ruleTitle } from "../../src/engine/rules/metas.ts";
import { readCatalogue } from "../../scripts/rulesCatalogue.mjs";
import { rulesDoc } from "../../scripts/rules-doc.ts";

const catalogue = readCatalogue(new URL("../../docs/catalogue.md", import.meta.url));
const tests = readdirSync("test", { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".test.ts") && !f.endsWith("coverage.test.ts") && !f.split(/[\\/]/).includes("node_modules"))
  .map((f) => readFileSync(`test/${f}`, "utf8"))
  .join("\n");

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
    assert.deepEqual(module.meta.map((r) => r.id), listed[i]!.map((r) => r.id), Object.keys(moduleMetas)[i]);
    module.meta.forEach((meta, j) => assert.equal(meta, listed[i]![j], meta.id));
  });
  assert.deepEqual(rules, registry.flatMap((m) => m.meta));
  assert.equal(ruleMeta("url-https"), rules.find((r) => r.id === "url-https"));
  assert.equal(ruleTitle("url-https"), ruleMeta("url-https")!.title);
  assert.equal(ruleTitle("no-such-rule"), "no-such-rule");
});

test("a module that listens to nothing holds only rules listed as not checked, and every such rule is in one", () => {
  const silent = registry.filter((m) => Object.keys(m.create({ report: () => {}, on: () => true, strict2260: false })).length === 0);
  assert.deepEqual(silent.flatMap((m) => m.meta.map((r) => r.id)).sort(), Object.keys(notChecked).sort());
});

test("every rule the engine checks has a test that names it", () => {
  const untested = rules.filter(({ id }) => !(id in notChecked) && !tests.includes(`"${id}"`)).map((r) => r.id);
  assert.deepEqual(untested, []);
});

test("every module's meta is the catalogue's (docs/catalogue.md): revisions, severity, violator, detection, title, section", () => {
  for (const module of registry) {
    for (const meta of module.meta) {
      const entry = catalogue.get(meta.id);
      assert.ok(entry, `${meta.id} is not in the catalogue`);
      const { id, revisions, severity, severityNote, violator, detection, title, section } = meta;
      assert.deepEqual({ id, revisions, severity, severityNote, violator, detection, title, section }, entry, meta.id);
    }
  }
});

test("docs/rules.md's rule table is the registry's (node --import tsx scripts/rules-doc.ts writes it)", () => {
  const text = readFileSync("docs/rules.md", "utf8");
  assert.equal(rulesDoc(text), text);
});
