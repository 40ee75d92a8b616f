import assert from "node:assert/strict";
import { test } from "node:test";
import { rules } from "../../src/engine/rules/index.ts";
import { ruleMeta, ruleMetas, ruleTitle } from "../../panel/model/ruleMeta.ts";

// panel/model/ruleMeta.ts lists the rule modules' metas without their checks (panel.js holds no engine).
test("the panel's rule metas are the registry's, every rule, in its order, the same objects", () => {
  assert.deepEqual(
    ruleMetas.map((m) => m.id),
    rules.map((m) => m.id),
    "a rule module added to src/engine/rules/index.ts goes into panel/model/ruleMeta.ts too",
  );
  rules.forEach((meta, i) => assert.equal(ruleMetas[i], meta, meta.id));
  assert.equal(ruleMeta("url-https")?.title, rules.find((r) => r.id === "url-https")!.title);
  assert.equal(ruleTitle("no-such-rule"), "no-such-rule");
});
