#!/usr/bin/env node
// The CLI is bundled by build.mjs (run by `npm install` through the prepare script).
import { existsSync } from "node:fs";
const entry = new URL("../dist/cli/mcp-elicit.js", import.meta.url);
if (!existsSync(entry)) {
  console.error("mcp-elicit: dist/cli/mcp-elicit.js is missing; run `npm run build` first.");
  process.exit(2);
}
await import(entry.href);
