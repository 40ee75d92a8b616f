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
const missing = Object.entries(browsers)
  .filter(([, path]) => !existsSync(path))
  .map(([pkg]) => pkg);
if (missing.length) {
  if (process.getuid?.() === 0) {
    console.log(`npm test: installing Debian's ${missing.join(" and ")} (apt-get)…`);
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } else {
    console.error(
      `npm test needs Debian's ${missing.join(" and ")}: run \`sudo apt-get install -y --no-install-recommends ${missing.join(" ")}\` (or run npm test as root), then npm test again.`,
    );
    process.exit(1);
  }
}

// The hosted-agent tests' Cloudflare stack (wrangler needs Node >= 22.12) is a package of its own, with its own Node.
if (!existsSync("test/agents/cloudflare/node_modules/.bin/wrangler")) {
  console.log("npm test: installing the Cloudflare agent stack (npm ci --prefix test/agents/cloudflare)…");
  run("npm", ["ci", "--prefix", "test/agents/cloudflare", "--no-audit", "--no-fund"]);
}

run(process.execPath, ["build.mjs"]);
run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"]);
// Biome's linter (with noImportCycles: no import cycle in src, panel, test…) and its formatter's check (a file not
// as `npm run format` writes it fails), then knip (unused files, exports and dependencies), then the generated rule
// files (RuleId union, metas, docs/rules.md's table) against the registry.
run("node_modules/.bin/biome", ["lint"]);
run("node_modules/.bin/biome", ["format"]);
run("node_modules/.bin/knip", ["--no-progress"]);
run(process.execPath, ["--import", "tsx", "scripts/rules-gen.ts", "--check"]);

const only = process.argv.slice(2);
const files = only.length
  ? only
  : readdirSync("test", { recursive: true })
      .map(String)
      // test/agents/cloudflare has a node_modules of its own, whose packages ship their own tests.
      .filter((f) => f.endsWith(".test.ts") && !f.split(/[\\/]/).includes("node_modules"))
      .map((f) => join("test", f))
      .sort();
run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files]);
