// Builds every entry with esbuild: the CLI and benchmarks, and the extension for Chrome (dist/chrome) and Firefox
// (dist/firefox) with a manifest of its own each (manifest.json is the Chrome-canonical one).
// `node build.mjs` builds once; `node build.mjs --watch` rebuilds on change.
// MCP_ELICIT_DEBUG=1: debug logging and source maps. MCP_ELICIT_TEST=1: only the extension, with the test-only
// hooks (`__TEST__`), into dist/test/chrome and dist/test/firefox so the release build is left alone.
import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const watch = process.argv.includes("--watch");
const debug = process.env.MCP_ELICIT_DEBUG === "1";
const test = process.env.MCP_ELICIT_TEST === "1";

/** The Firefox add-on id; the Firefox test pins its moz-extension:// UUID with it. */
export const GECKO_ID = "mcp-elicitation-inspector@mcp-elicit.dev";

/** @type {esbuild.BuildOptions[]} */
const targets = test
  ? []
  : [
      {
        entryPoints: { "cli/mcp-elicit": "src/cli/bin.ts", "bench/engine": "bench/engine.ts" },
        outdir: "dist",
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        sourcemap: true,
        define: { __DEBUG__: String(debug) },
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      },
    ];
const extensionRoot = test ? "dist/test" : "dist";

/**
 * webextension-polyfill's own minified build, copied unmodified next to the bundles and loaded before each one that
 * imports the package: the import is aliased to the global it defines (src/shared/polyfill.ts).
 */
const POLYFILL = "browser-polyfill.min.js";

/**
 * Most bytes a bundle may have (unminified, release build); the build fails over it (README, "Bundle sizes").
 * background.js holds the engine, the envelope stage and the validators of what the relays and panels send; no
 * importer or exporter (those are the panel's and importer.js's). panel.js holds the UI only: the engine runs in
 * the extension's worker and, for imports, in importer.js.
 */
const BUDGETS = { "background.js": 300_000, "panel.js": 450_000 };

/** The bundles over their budget in one browser's folder. */
function overBudget(dir) {
  return Object.entries(BUDGETS).flatMap(([file, limit]) => {
    const bytes = statSync(`${dir}/${file}`).size;
    return bytes > limit ? [`${dir}/${file} is ${bytes} bytes, over its budget of ${limit} (build.mjs BUDGETS)`] : [];
  });
}

/** The per-browser manifest, written from manifest.json. */
function manifestFor(browser) {
  const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
  if (browser === "firefox") {
    // An event page, not a service worker: a manifest with both always warns (BACKGROUND_SERVICE_WORKER_IGNORED).
    // The polyfill first (src/shared/polyfill.ts): Chrome's service worker loads it with importScripts instead.
    manifest.background = { scripts: [POLYFILL, manifest.background.service_worker] };
    delete manifest.minimum_chrome_version;
    manifest.browser_specific_settings = {
      gecko: { id: GECKO_ID, strict_min_version: "142.0", data_collection_permissions: { required: ["none"] } },
    };
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Writes the manifest, the HTML and CSS of the panel and the icons next to the bundles, after each build. */
const statics = (browser) => ({
  name: "statics",
  setup(build) {
    build.onEnd(() => {
      const out = `${extensionRoot}/${browser}`;
      mkdirSync(`${out}/icons`, { recursive: true });
      writeFileSync(`${out}/manifest.json`, manifestFor(browser));
      for (const file of ["devtools.html", "panel.html", "panel.css"]) copyFileSync(`panel/${file}`, `${out}/${file}`);
      copyFileSync(`node_modules/webextension-polyfill/dist/${POLYFILL}`, `${out}/${POLYFILL}`);
      for (const size of [16, 32, 48, 128]) writeFileSync(`${out}/icons/icon-${size}.png`, icon(size));
      // Said on every rebuild while watching; `node build.mjs` fails on it below.
      if (watch && !debug) for (const problem of overBudget(out)) console.error(`✘ ${problem}`);
    });
  },
});

for (const browser of ["chrome", "firefox"]) {
  const common = {
    outdir: `${extensionRoot}/${browser}`,
    bundle: true,
    platform: "browser",
    format: "iife",
    target: browser === "chrome" ? "chrome111" : "firefox142",
    jsx: "automatic",
    jsxImportSource: "preact",
    sourcemap: debug ? "linked" : false,
    legalComments: "none",
    define: { __DEBUG__: String(debug), __BROWSER__: JSON.stringify(browser), __TEST__: String(test) },
    alias: { "webextension-polyfill": "./src/shared/polyfill.ts" },
  };
  // Injected into every frame of every page: small and quick to parse.
  targets.push({
    ...common,
    entryPoints: { page: "src/page/index.ts", content: "src/content/index.ts" },
    minify: !debug,
  });
  // Extension pages: kept readable.
  targets.push({
    ...common,
    // importer.js: the panel's import worker (panel/io/importer.ts), so the engine and the importers stay out of panel.js.
    entryPoints: { devtools: "panel/devtools.ts", panel: "panel/index.tsx", importer: "panel/io/importer.ts" },
    minifySyntax: true, // drops `if (__TEST__)` and `__DEBUG__` branches, keeps names and layout
    plugins: [statics(browser)],
  });
  // The worker, started on every browser start and after every idle stop: whitespace goes too (names stay, so its
  // stack traces still read), which keeps it within its budget with the hosted-agent join and the privacy gate.
  targets.push({
    ...common,
    entryPoints: { background: "src/background/index.ts" },
    minifySyntax: true,
    minifyWhitespace: true,
  });
}

/** A plain square icon (a ring on violet), made here so the repository holds no binary files. */
function icon(size) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c) / (size / 2);
      const ring = d > 0.42 && d < 0.66;
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw.set(ring ? [255, 255, 255, 255] : [94, 53, 177, 255], o);
    }
  }
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

for (const options of targets) {
  const ctx = await esbuild.context({ logLevel: "warning", ...options });
  if (watch) await ctx.watch();
  else {
    await ctx.rebuild();
    await ctx.dispose();
  }
}
if (watch) console.log("watching…");
else if (!debug) {
  const problems = ["chrome", "firefox"].flatMap((browser) => overBudget(`${extensionRoot}/${browser}`));
  for (const problem of problems) console.error(`✘ ${problem}`);
  if (problems.length) process.exit(1);
}
