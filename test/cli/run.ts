import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository's root: the CLI runs from other working directories in the configuration tests. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/mcp-elicit.js", import.meta.url));
export const DEMO = fileURLToPath(new URL("../../demo/demo-capture.jsonl", import.meta.url));

/** Builds the CLI once when dist/ lacks it (the tests run the built bin, as CI does). */
export function built(): void {
  if (existsSync(new URL("../../dist/cli/mcp-elicit.js", import.meta.url))) return;
  const run = spawnSync(process.execPath, ["build.mjs"], { cwd: ROOT, stdio: "inherit" });
  assert.equal(run.status, 0, "node build.mjs");
}

/** `mcp-elicit <args>` in `cwd` (the repository by default), without colour. */
export function cli(args: string[], options: { cwd?: string; input?: string } = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: "utf8",
    input: options.input,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
