// Differential check of the engine: runs the engine of a base commit (default: main) and of the work tree over
// the demo capture (through the CLI, byte for byte) and over every capture the given tests build (recorded by
// hook.mjs), and compares their JSON.
//   node scripts/diff/check.mjs record test/engine/*.test.ts …   (records captures into /tmp/engine-diff/captures)
//   node scripts/diff/check.mjs compare [base-ref]
import { execSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

/** DIFF_OUT: another directory, when two work trees run the check at once. */
const OUT = process.env.DIFF_OUT ?? "/tmp/engine-diff";
const CAPTURES = `${OUT}/captures`;
const [mode = "compare", ...rest] = process.argv.slice(2);

async function bundle(root, name) {
  const out = `${OUT}/${name}`;
  for (const [entry, file] of [
    ["src/engine/index.ts", "engine.mjs"],
    ["src/cli/bin.ts", "cli.mjs"],
  ]) {
    await esbuild.build({
      entryPoints: [`${root}/${entry}`],
      outfile: `${out}/${file}`,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "error",
      define: { __DEBUG__: "false" },
      absWorkingDir: process.cwd(),
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
  }
  return out;
}

if (mode === "record") {
  rmSync(CAPTURES, { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "--import", "./scripts/diff/hook.mjs", "--test", "--test-reporter=dot", ...rest],
    { stdio: "inherit", env: { ...process.env, DIFF_CAPTURE_DIR: CAPTURES } },
  );
  console.log(`recorded ${readdirSync(CAPTURES).length} engine runs (tests exit ${r.status})`);
  process.exit(0);
}

const base = rest[0] ?? "main";
const baseSrc = `${OUT}/base-src`;
rmSync(baseSrc, { recursive: true, force: true });
mkdirSync(baseSrc, { recursive: true });
execSync(`git archive ${base} src package.json | tar -x -C ${baseSrc}`);
execSync(`ln -s ${process.cwd()}/node_modules ${baseSrc}/node_modules`);
const [oldDir, newDir] = [await bundle(baseSrc, "old"), await bundle(process.cwd(), "new")];
const oldEngine = await import(pathToFileURL(`${oldDir}/engine.mjs`).href + `?${Date.now()}`);
const newEngine = await import(pathToFileURL(`${newDir}/engine.mjs`).href + `?${Date.now()}`);

let failures = 0;
const demoArgs = ["lint", "demo/demo-capture.jsonl"];
for (const extra of [["--json"], ["--no-color"], ["--json", "--strict-2260"]]) {
  const [a, b] = [oldDir, newDir].map((d) =>
    spawnSync(process.execPath, [`${d}/cli.mjs`, ...demoArgs, ...extra], { encoding: "utf8" }),
  );
  if (a.stdout !== b.stdout || a.status !== b.status) {
    failures++;
    writeFileSync(`${OUT}/demo-old.out`, a.stdout);
    writeFileSync(`${OUT}/demo-new.out`, b.stdout);
    console.log(`DIFFERENT: demo ${extra.join(" ")} (see ${OUT}/demo-{old,new}.out)`);
  }
}
const files = readdirSync(CAPTURES).sort();
const seen = new Set();
let runs = 0;
for (const f of files) {
  const text = readFileSync(`${CAPTURES}/${f}`, "utf8");
  if (seen.has(text)) continue;
  seen.add(text);
  runs++;
  const { options, records } = JSON.parse(text);
  const run = (engine) => {
    try {
      return JSON.stringify(engine.analyze(records, options));
    } catch (e) {
      return `threw ${e.message}`;
    }
  };
  const [a, b] = [run(oldEngine), run(newEngine)];
  if (a !== b) {
    failures++;
    if (failures <= 5) {
      writeFileSync(`${OUT}/diff-${failures}-old.json`, JSON.stringify(JSON.parse(a), null, 1));
      writeFileSync(`${OUT}/diff-${failures}-new.json`, JSON.stringify(JSON.parse(b), null, 1));
      writeFileSync(`${OUT}/diff-${failures}-capture.json`, text);
    }
    console.log(`DIFFERENT: ${f}`);
  }
}
console.log(
  `${runs} distinct captures + demo compared against ${base}: ${failures ? `${failures} different` : "all identical"}`,
);
process.exit(failures ? 1 : 0);
