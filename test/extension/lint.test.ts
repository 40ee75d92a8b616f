import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { ensureBuilt } from "./built.ts";

interface LintMessage {
  code: string;
  file?: string;
  message: string;
}

test("web-ext lint: dist/firefox has no errors and no warning but Preact's own innerHTML path", () => {
  ensureBuilt();
  const run = spawnSync(
    process.execPath,
    ["node_modules/web-ext/bin/web-ext.js", "lint", "-s", "dist/firefox", "--output", "json", "--no-config-discovery"],
    {
      encoding: "utf8",
      timeout: 240_000,
    },
  );
  const report = JSON.parse(run.stdout) as { errors: LintMessage[]; warnings: LintMessage[]; notices: LintMessage[] };
  assert.deepEqual(report.errors, []);
  // docs/extension.md: Preact's renderer sets innerHTML for `dangerouslySetInnerHTML`, which this extension never uses.
  const unexplained = report.warnings.filter(
    (w) => !(w.code === "UNSAFE_VAR_ASSIGNMENT" && w.file === "panel.js" && /innerHTML/.test(w.message)),
  );
  assert.deepEqual(unexplained, []);
  assert.ok(report.warnings.length <= 1);
});

test("the extension asks for storage only (decode rules; no install warning) and Firefox gets its own manifest", () => {
  ensureBuilt();
  const chrome = JSON.parse(readFileSync("dist/chrome/manifest.json", "utf8"));
  const firefox = JSON.parse(readFileSync("dist/firefox/manifest.json", "utf8"));
  for (const manifest of [chrome, firefox]) {
    assert.equal(manifest.manifest_version, 3);
    assert.deepEqual(manifest.permissions, ["storage"]);
    assert.equal(manifest.host_permissions, undefined);
  }
  assert.deepEqual(chrome.background, { service_worker: "background.js" });
  // webextension-polyfill, one unmodified copy (src/shared/polyfill.ts): before the worker, before the relay, never
  // in the page's MAIN world (Chrome's worker loads it with importScripts: its manifest names one file).
  assert.deepEqual(firefox.background, { scripts: ["browser-polyfill.min.js", "background.js"] });
  for (const manifest of [chrome, firefox]) {
    const worlds = manifest.content_scripts.map((c: { js: string[]; world?: string }) => [c.world ?? "ISOLATED", c.js]);
    assert.deepEqual(worlds, [
      ["ISOLATED", ["browser-polyfill.min.js", "content.js"]],
      ["MAIN", ["page.js"]],
    ]);
  }
  for (const browser of ["chrome", "firefox"]) {
    const polyfill = readFileSync(`dist/${browser}/browser-polyfill.min.js`);
    assert.ok(
      polyfill.equals(readFileSync("node_modules/webextension-polyfill/dist/browser-polyfill.min.js")),
      "the polyfill is copied unmodified",
    );
    for (const page of ["devtools", "panel"])
      assert.match(
        readFileSync(`dist/${browser}/${page}.html`, "utf8"),
        new RegExp(`<script src="browser-polyfill\\.min\\.js"></script>\\s*<script src="${page}\\.js">`),
      );
  }
  assert.match(firefox.browser_specific_settings.gecko.strict_min_version, /^14[2-9]|^1[5-9]\d/);
  assert.deepEqual(firefox.browser_specific_settings.gecko.data_collection_permissions, { required: ["none"] });
  // The panel never renders captured text as HTML.
  const views = readdirSync("panel/views").filter((f) => f.endsWith(".tsx"));
  assert.ok(views.includes("FlowList.tsx") && views.includes("FindingList.tsx"));
  for (const file of views)
    assert.doesNotMatch(readFileSync(`panel/views/${file}`, "utf8"), /dangerouslySetInnerHTML|innerHTML/, file);
});
