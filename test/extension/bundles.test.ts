import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { test } from "node:test";
import { ensureBuilt } from "./built.ts";

// build.mjs fails a release build whose panel.js is over 450,000 bytes; this says why it stays small: the engine
// and the importers are in importer.js (the panel's import worker) and background.js, never in panel.js.
for (const browser of ["chrome", "firefox"] as const) {
  test(`dist/${browser}: panel.js is under 450,000 bytes and holds no engine or importer; importer.js does`, () => {
    ensureBuilt();
    const dir = `dist/${browser}`;
    const panel = readFileSync(`${dir}/panel.js`, "utf8");
    const importer = readFileSync(`${dir}/importer.js`, "utf8");
    assert.ok(statSync(`${dir}/panel.js`).size < 450_000, `panel.js is ${statSync(`${dir}/panel.js`).size} bytes`);
    // minifySyntax keeps function names: these are the engine's, the correlator's and the importers' entries.
    for (const name of ["createEngine", "createCorrelator", "importHarStream", "importJsonl", "createUnwrapper"]) {
      assert.doesNotMatch(panel, new RegExp(`function ${name}\\b`), `${name} in panel.js`);
      assert.match(importer, new RegExp(`function ${name}\\b`), `${name} missing from importer.js`);
    }
    assert.match(panel, /new Worker\("importer\.js"\)|new Worker\(IMPORTER_SCRIPT\)/);
  });
}

// build.mjs fails a release build whose background.js is over 300,000 bytes. The worker runs the engine and the
// envelope stage on what the relays send; it imports no capture file, exports none, and quotes no zod message (it
// counts what fails to parse), so the importers, the exporters and zod's English messages stay out of it.
for (const browser of ["chrome", "firefox"] as const) {
  test(`dist/${browser}: background.js is under 300,000 bytes and holds the engine, no importer, exporter or zod messages`, () => {
    ensureBuilt();
    const path = `dist/${browser}/background.js`;
    const worker = readFileSync(path, "utf8");
    assert.ok(statSync(path).size < 300_000, `background.js is ${statSync(path).size} bytes`);
    for (const name of ["createEngine", "createCorrelator", "createUnwrapper", "createTabSession"])
      assert.match(worker, new RegExp(`function ${name}\\b`), `${name} missing from background.js`);
    for (const name of [
      "importHar",
      "importHarStream",
      "createHarImport",
      "importJsonl",
      "exportHar",
      "exportJsonl",
      "createHarScanner",
      "checkRecord",
    ]) {
      assert.doesNotMatch(worker, new RegExp(`\\b${name}\\b`), `${name} in background.js`);
    }
    assert.doesNotMatch(worker, /Invalid input: expected/, "zod's English messages in background.js");
  });
}
