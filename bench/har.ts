// `npm run bench:har`, and the last part of `npm run bench`: `mcp-elicit lint` on large HARs, as a user runs it —
// one whole process per run — with its peak RSS beside the file's size and its CPU and wall time per MB. Two files:
// real-shaped traffic in time order (bench/harCorpus.ts), and the demo's real SDK sessions concatenated, each copy
// on its own endpoint path, so that the entries go back in time at every copy (bench/harConcat.ts). Target (issues
// 11 and 16): a 1 GiB HAR lints with peak RSS at most the file's size, whatever the order of its entries. Method
// (docs/benchmarks-har.md): RSS and CPU from the process's own getrusage; with a second CLI to compare
// (BENCH_HAR_CLI), the two run alternately after a warm-up and the median of the paired ratios is printed.
//
// BENCH_HAR_MB: the files' size in MiB (default 1024). BENCH_HAR_RUNS: runs per CLI (default 3). BENCH_HAR_CLI:
// another CLI bundle (for example main's dist/cli/mcp-elicit.js, copied aside) measured beside this one.
// BENCH_HAR_CASES: which files, `ordered,merged` (default both). BENCH_HAR_WARMUP=0: no warm-up run.
// Each file is written to the system's temporary directory and deleted after its runs.
import { spawnSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeConcatenatedHar } from "./harConcat.ts";
import { writeRealShapedHar } from "./harCorpus.ts";

const MB = 2 ** 20;
const size = Number(process.env.BENCH_HAR_MB ?? 1024);
const runs = Number(process.env.BENCH_HAR_RUNS ?? 3);
const warmUp = process.env.BENCH_HAR_WARMUP !== "0";
const cases = (process.env.BENCH_HAR_CASES ?? "ordered,merged").split(",");
const clis = [
  { name: "this build", path: resolve("dist/cli/mcp-elicit.js") },
  ...(process.env.BENCH_HAR_CLI ? [{ name: "BENCH_HAR_CLI", path: resolve(process.env.BENCH_HAR_CLI) }] : []),
];

/** Reports the process's own peak RSS and CPU when it exits (ru_maxrss: what /usr/bin/time -v calls "Maximum resident set size"). */
const REPORT = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nBENCH "+JSON.stringify({rss:u.maxRSS*1024,cpu:(u.userCPUTime+u.systemCPUTime)/1e6})+"\\n")})`;

interface Run {
  rss: number;
  cpu: number;
  wall: number;
  status: number | null;
  /** Import problems and findings the report holds. */
  problems: number;
  findings: number;
}

function lint(cli: string, file: string): Run {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--import", REPORT, cli, "lint", file, "--json"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, NO_COLOR: "1" },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const line = /BENCH (\{.*\})/.exec(run.stderr ?? "");
  if (!line) throw new Error(`${cli} printed no figures (status ${run.status}): ${(run.stderr ?? "").slice(0, 500)}`);
  const { rss, cpu } = JSON.parse(line[1]!) as { rss: number; cpu: number };
  const report = JSON.parse(run.stdout) as { files: { problems: unknown[]; findings: unknown[] }[] };
  return {
    rss,
    cpu,
    wall,
    status: run.status,
    problems: report.files[0]!.problems.length,
    findings: report.files[0]!.findings.length,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (x: number, digits = 1) => x.toFixed(digits);

/** The two files: what they are, and how each is written. */
const CASES = {
  ordered: { title: "real-shaped traffic, entries in time order (bench/harCorpus.ts)", write: writeRealShapedHar },
  merged: {
    title: "the demo's SDK sessions concatenated, out of time order (bench/harConcat.ts)",
    write: writeConcatenatedHar,
  },
} as const;

for (const name of cases) {
  const shape = CASES[name as keyof typeof CASES];
  if (!shape) throw new Error(`BENCH_HAR_CASES: ${name} is not one of ${Object.keys(CASES).join(", ")}`);
  const file = join(tmpdir(), `mcp-elicit-bench-${name}-${process.pid}.har`);
  try {
    const started = Date.now();
    const corpus = shape.write(file, size * MB);
    const bytes = statSync(file).size;
    const mb = bytes / MB;
    const counts = Object.entries(corpus)
      .filter(([k]) => k !== "bytes")
      .map(([k, v]) => `${v.toLocaleString("en")} ${k}`)
      .join(", ");
    console.log(
      `\nHAR bench, ${shape.title}: ${fmt(mb, 0)} MiB file (${bytes.toLocaleString("en")} bytes), ${counts} (written in ${fmt((Date.now() - started) / 1000, 0)} s)`,
    );
    // A warm-up run per CLI (the page cache then holds the file for all), then the runs, alternating.
    const results = clis.map(() => [] as Run[]);
    if (warmUp) clis.forEach((cli) => lint(cli.path, file));
    for (let i = 0; i < runs; i++) clis.forEach((cli, c) => results[c]!.push(lint(cli.path, file)));
    clis.forEach((cli, c) => {
      const rs = results[c]!;
      const rss = median(rs.map((r) => r.rss)) / MB;
      const cpu = median(rs.map((r) => r.cpu));
      const wall = median(rs.map((r) => r.wall));
      const said = [...new Set(rs.map((r) => `${r.problems} import problems, ${r.findings} findings`))].join(" / ");
      console.log(
        `\n  mcp-elicit lint, ${cli.name} (${cli.path}), ${runs} runs, exit ${[...new Set(rs.map((r) => r.status))].join("/")}, ${said}:`,
      );
      // The target is for a file of a gigabyte: below a few hundred MB, Node's own footprint is most of the peak.
      const target = mb >= 1024 ? `target ≤ 1×: ${rss <= mb ? "met" : "NOT met"}` : "target ≤ 1× for a 1 GiB file";
      const range = (xs: number[], digits = 0) =>
        `${fmt(
          xs.reduce((a, b) => Math.min(a, b)),
          digits,
        )}–${fmt(
          xs.reduce((a, b) => Math.max(a, b)),
          digits,
        )}`;
      console.log(
        `    peak RSS  median ${fmt(rss, 0).padStart(6)} MiB = ${fmt(rss / mb, 2)}× the file (${target}; range ${range(rs.map((r) => r.rss / MB))} MiB)`,
      );
      console.log(
        `    CPU       median ${fmt(cpu).padStart(6)} s   = ${fmt(mb / cpu)} MiB/s of CPU (range ${range(
          rs.map((r) => r.cpu),
          1,
        )} s)`,
      );
      console.log(`    wall      median ${fmt(wall).padStart(6)} s   = ${fmt(mb / wall)} MiB/s`);
    });
    if (clis.length === 2) {
      const ratios = results[0]!.map((r, i) => r.cpu / results[1]![i]!.cpu);
      console.log(
        `\n  CPU, this build / BENCH_HAR_CLI, median of ${runs} paired runs: ${fmt(median(ratios), 2)}× (${ratios.map((r) => fmt(r, 2)).join(", ")})`,
      );
    }
  } finally {
    rmSync(file, { force: true });
  }
}
