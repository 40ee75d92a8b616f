import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** `npm test` builds first; a test file run alone builds the extension itself when dist/ has none. */
export function ensureBuilt(): void {
  if (existsSync("dist/chrome/manifest.json") && existsSync("dist/firefox/manifest.json")) return;
  const r = spawnSync(process.execPath, ["build.mjs"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("node build.mjs failed");
}
