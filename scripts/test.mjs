// `npm test`: gets the browsers the tests need, builds, type-checks, lints, then runs every test/**/*.test.ts
// in Node's test runner. A missing browser fails the run; it never skips.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const browsers = { chromium: "/usr/bin/chromium", "firefox-esr": "/usr/bin/firefox-esr" };
const missing = Object.entries(browsers).filter(([, path]) => !existsSync(path)).map(([pkg]) => pkg);
if (missing.length) {
  if (process.getuid?.() === 0) {
    console.log(`npm test: installing Debian's ${missing.join(" and ")} (apt-get)…`);
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } else {
    console.error(`npm test needs Debian's ${missing.join(" and ")}: run \`sudo apt-get install -y --no-install-recommends ${missing.join(" ")}\` (or run npm test as root), then npm test again.`);
    process.exit(1);
  }
}

run(process.execPath, ["build.mjs"]);
run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"]);
// Biome's linter (with noImportCycles: no import cycle in src, panel, test…), then knip (unused files, exports and
// dependencies), then the generated rule files (RuleId union, metas, docs/rules.md's table) against the registry.
run("node_modules/.bin/biome", ["lint"]);
run("node_modules/.bin/knip", ["--no-progress"]);
run(process.execPath, ["--import", "tsx", "scripts/rules-gen.ts", "--check"]);

const only = process.argv.slice(2);
const files = only.length
  ? only
  : readdirSync("test", { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => join("test", f))
      .sort();
run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files]);
