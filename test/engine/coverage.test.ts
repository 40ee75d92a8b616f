import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { catalogue } from "../../src/engine/rules/catalogue.ts";
import { notChecked } from "../../src/engine/rules/coverage.ts";

const sources = ["src/engine/correlator.ts", ...readdirSync("src/engine/rules").filter((f) => f.endsWith(".ts") && f !== "catalogue.ts" && f !== "coverage.ts").map((f) => `src/engine/rules/${f}`)]
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");
const tests = readdirSync("test", { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".test.ts") && !f.endsWith("coverage.test.ts"))
  .map((f) => readFileSync(`test/${f}`, "utf8"))
  .join("\n");

test("every catalogue rule is either reported by the engine or listed as not checkable, never both", () => {
  for (const { id } of catalogue) {
    const reported = sources.includes(`rule: "${id}"`);
    assert.ok(reported !== (id in notChecked), `${id}: reported=${reported}, listed as not checked=${id in notChecked}`);
  }
  for (const id of Object.keys(notChecked)) assert.ok(catalogue.some((r) => r.id === id), `${id} is not a catalogue id`);
});

test("every rule the engine reports has a test that names it", () => {
  const untested = catalogue.filter(({ id }) => !(id in notChecked) && !tests.includes(`"${id}"`)).map((r) => r.id);
  assert.deepEqual(untested, []);
});
