// Builds every entry with esbuild: the CLI and benchmarks now; the extension entries join as they land.
// `node build.mjs` builds once; `node build.mjs --watch` rebuilds on change.
import * as esbuild from "esbuild";

const watch = process.argv.includes("--watch");
const debug = process.env.MCP_ELICIT_DEBUG === "1";

/** @type {esbuild.BuildOptions[]} */
const targets = [
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

for (const options of targets) {
  const ctx = await esbuild.context({ logLevel: "warning", ...options });
  if (watch) await ctx.watch();
  else {
    await ctx.rebuild();
    await ctx.dispose();
  }
}
if (watch) console.log("watching…");
