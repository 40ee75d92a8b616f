import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Issue 3 item 1: installable zips through `web-ext build` (offline), one per browser.
for (const browser of ["chrome", "firefox"] as const) {
  test(`web-ext build packs dist/${browser} into an installable zip with the manifest and every entry`, (t) => {
    const out = mkdtempSync(join(tmpdir(), "mcp-ext-pack-"));
    t.after(() => rmSync(out, { recursive: true, force: true }));
    execFileSync(
      process.execPath,
      [
        "node_modules/web-ext/bin/web-ext.js",
        "build",
        "-s",
        `dist/${browser}`,
        "-a",
        out,
        "-n",
        `${browser}.zip`,
        "-o",
      ],
      { stdio: "pipe" },
    );
    assert.deepEqual(readdirSync(out), [`${browser}.zip`]);
    const listing = execFileSync(
      "python3",
      [
        "-c",
        "import sys,zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
        join(out, `${browser}.zip`),
      ],
      { encoding: "utf8" },
    ).split("\n");
    for (const file of [
      "manifest.json",
      "page.js",
      "browser-polyfill.min.js",
      "content.js",
      "background.js",
      "devtools.html",
      "panel.html",
      "panel.js",
      "importer.js",
    ])
      assert.ok(listing.includes(file), `${file} missing from the ${browser} zip`);
  });
}
