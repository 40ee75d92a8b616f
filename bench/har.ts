// `npm run bench:har`, and the last part of `npm run bench`: `mcp-elicit lint` on a large HAR of real-shaped traffic
// (bench/harCorpus.ts), as a user runs it — one whole process per run — with its peak RSS beside the file's size and
// its CPU and wall time per MB (issue 11, item 4: a 1 GiB HAR lints with peak RSS at most the file's size, no slower
// per MB than the whole-file import it replaced). Method (../shared/benchmarking.md, "Engine and CLI"): RSS and CPU
// from the process's own getrusage; with a second CLI to compare (BENCH_HAR_CLI), the two run alternately after a
// warm-up and the median of the paired ratios is printed.
//
// BENCH_HAR_MB: the file's size in MiB (default 1024). BENCH_HAR_RUNS: runs per CLI (default 3). BENCH_HAR_CLI:
// another CLI bundle (for example main's dist/cli/mcp-elicit.js, copied aside) measured beside this one.
// The file is written to the system's temporary directory and deleted at the end.
import { spawnSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeRealShapedHar } from "./harCorpus.ts";

const MB = 2 ** 20;
const size = Number(process.env.BENCH_HAR_MB ?? 1024);
const runs = Number(process.env.BENCH_HAR_RUNS ?? 3);
const clis = [{ name: "this build", path: resolve("dist/cli/mcp-elicit.js") }, ...(process.env.BENCH_HAR_CLI ? [{ name: "BENCH_HAR_CLI", path: resolve(process.env.BENCH_HAR_CLI) }] : [])];

/** Reports the process's own peak RSS and CPU when it exits (ru_maxrss: what /usr/bin/time -v calls "Maximum resident set size"). */
const REPORT = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nBENCH "+JSON.stringify({rss:u.maxRSS*1024,cpu:(u.userCPUTime+u.systemCPUTime)/1e6})+"\\n")})`;

interface Run {
  rss: number;
  cpu: number;
  wall: number;
  status: number | null;
}

function lint(cli: string, file: string): Run {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--import", REPORT, cli, "lint", file, "--json"], { encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: "1" } });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const line = /BENCH (\{.*\})/.exec(run.stderr ?? "");
  if (!line) throw new Error(`${cli} printed no figures (status ${run.status}): ${(run.stderr ?? "").slice(0, 500)}`);
  const { rss, cpu } = JSON.parse(line[1]!) as { rss: number; cpu: number };
  return { rss, cpu, wall, status: run.status };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (x: number, digits = 1) => x.toFixed(digits);

const file = join(tmpdir(), `mcp-elicit-bench-${process.pid}.har`);
try {
  const started = Date.now();
  const corpus = writeRealShapedHar(file, size * MB);
  const bytes = statSync(file).size;
  const mb = bytes / MB;
  console.log(`HAR bench: ${fmt(mb, 0)} MiB file (${bytes.toLocaleString("en")} bytes), ${corpus.entries.toLocaleString("en")} entries, ${corpus.messages.toLocaleString("en")} MCP messages, ${corpus.sessions.toLocaleString("en")} sessions (bench/harCorpus.ts, written in ${fmt((Date.now() - started) / 1000, 0)} s)`);
  // A warm-up run per CLI (the page cache then holds the file for all), then the runs, alternating.
  const results = clis.map(() => [] as Run[]);
  clis.forEach((cli) => lint(cli.path, file));
  for (let i = 0; i < runs; i++) clis.forEach((cli, c) => results[c]!.push(lint(cli.path, file)));
  clis.forEach((cli, c) => {
    const rs = results[c]!;
    const rss = median(rs.map((r) => r.rss)) / MB;
    const cpu = median(rs.map((r) => r.cpu));
    const wall = median(rs.map((r) => r.wall));
    console.log(`\n  mcp-elicit lint, ${cli.name} (${cli.path}), ${runs} runs, exit ${[...new Set(rs.map((r) => r.status))].join("/")}:`);
    // The target is for a file of a gigabyte: below a few hundred MB, Node's own footprint is most of the peak.
    const target = mb >= 1024 ? `target ≤ 1×: ${rss <= mb ? "met" : "NOT met"}` : "target ≤ 1× for a 1 GiB file";
    console.log(`    peak RSS  median ${fmt(rss, 0).padStart(6)} MiB = ${fmt(rss / mb, 2)}× the file (${target}; range ${fmt(Math.min(...rs.map((r) => r.rss)) / MB, 0)}–${fmt(Math.max(...rs.map((r) => r.rss)) / MB, 0)} MiB)`);
    console.log(`    CPU       median ${fmt(cpu).padStart(6)} s   = ${fmt(mb / cpu)} MiB/s of CPU (range ${fmt(Math.min(...rs.map((r) => r.cpu)))}–${fmt(Math.max(...rs.map((r) => r.cpu)))} s)`);
    console.log(`    wall      median ${fmt(wall).padStart(6)} s   = ${fmt(mb / wall)} MiB/s`);
  });
  if (clis.length === 2) {
    const ratios = results[0]!.map((r, i) => r.cpu / results[1]![i]!.cpu);
    console.log(`\n  CPU, this build / BENCH_HAR_CLI, median of ${runs} paired runs: ${fmt(median(ratios), 2)}× (${ratios.map((r) => fmt(r, 2)).join(", ")})`);
  }
} finally {
  rmSync(file, { force: true });
}
