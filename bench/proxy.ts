// `npm run bench:proxy`: what `mcp-elicit proxy` adds between an agent and a real MCP server (sdk 1.32.2 on
// 127.0.0.1), beside a plain pass-through proxy (node:http piping both ways: the floor of any HTTP proxy) and beside
// no proxy, all in one run (issue 19, item 7: the proxy adds at most 1.2× what the pass-through adds).
//
// Method (../shared/benchmarking.md): the server, the recording proxy and two pass-through proxies (A and B, the
// A/A pair that shows the noise floor) each run in a process of their own and stay up for the whole run; the
// client takes the four paths in turns, in short blocks (10 JSON POSTs, or 2 POSTs answered by a stream of 40 SSE
// events 1 ms apart), in a shuffled order per round, with a gap between blocks. Per round and path: the median
// POST round trip, and the median and p99 delay of an SSE event (server send → client read, on
// performance.timeOrigin + now clocks); a path's added cost is its figure minus the no-proxy one of the same round.
// The ratio is the median of the recording proxy's added cost over the median of the pass-throughs' mean, with a
// 95% bootstrap interval over rounds; the same for pass-through B over A is the A/A noise. CPU per MB: each proxy
// carries a 4 MiB SSE answer (256 events of 16 KiB) in turns; its process's CPU time over the bytes carried.
//
// BENCH_PROXY_ROUNDS (default 60), BENCH_PROXY_CPU_ROUNDS (default 8).
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { median, quantile, ratioOfAdded, shuffle } from "./proxy/stats.ts";

const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 60);
const CPU_ROUNDS = Number(process.env.BENCH_PROXY_CPU_ROUNDS ?? 8);
const JSON_BLOCK = 10;
const SSE_BLOCK = 2;
const GAP_MS = 60;
const MB = 2 ** 20;

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Child {
  process: ChildProcess;
  origin: string;
  cpu(): Promise<number>;
}

async function start(script: string, args: string[]): Promise<Child> {
  const child = fork(script, args, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("message", (m: { origin: string }) => resolve(m.origin));
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
  const cpu = () =>
    new Promise<number>((resolve) => {
      child.once("message", (m: { cpu: { user: number; system: number } }) =>
        resolve((m.cpu.user + m.cpu.system) / 1000),
      );
      child.send({ cpu: true });
    });
  return { process: child, origin, cpu };
}

type Arm = "direct" | "pass-A" | "pass-B" | "mcp-elicit";
const ARMS: Arm[] = ["direct", "pass-A", "pass-B", "mcp-elicit"];

interface Path {
  arm: Arm;
  origin: string;
  sessions: { json: string; sse: string };
  child?: Child;
}

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};
let ids = 0;
const call = (name: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: ++ids, method: "tools/call", params: { name, arguments: {} } });

async function open(origin: string, path: "json" | "sse"): Promise<string> {
  const init = {
    jsonrpc: "2.0",
    id: ++ids,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  };
  const res = await fetch(`${origin}/${path}`, { method: "POST", headers: HEADERS, body: JSON.stringify(init) });
  await res.text();
  const session = res.headers.get("mcp-session-id");
  if (!session) throw new Error(`no session from ${origin}/${path} (${res.status})`);
  const note = await fetch(`${origin}/${path}`, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": session },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await note.text();
  return session;
}

async function jsonPost(path: Path): Promise<number> {
  const started = now();
  const res = await fetch(`${path.origin}/json`, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": path.sessions.json },
    body: call("echo"),
  });
  await res.text();
  return now() - started;
}

/** One POST answered by SSE: the delay of each event from the server's send to this read, and the bytes read. */
async function ssePost(path: Path, tool: "stream" | "bulk"): Promise<{ delays: number[]; bytes: number }> {
  const res = await fetch(`${path.origin}/sse`, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": path.sessions.sse },
    body: call(tool),
  });
  const delays: number[] = [];
  let bytes = 0;
  let readAt = 0;
  const parser = createParser({
    onEvent(event) {
      const sentAt = (JSON.parse(event.data) as { params?: { data?: { sentAt?: number } } }).params?.data?.sentAt;
      if (sentAt !== undefined) delays.push(readAt - sentAt);
    },
  });
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    readAt = now();
    bytes += value.length;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return { delays, bytes };
}

interface RoundFigures {
  json: number;
  sseP50: number;
  sseP99: number;
  firstP50: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-proxy-"));
  const out = join(dir, "backend.jsonl");
  const upstream = await start("bench/proxy/upstream.ts", []);
  const children = {
    "pass-A": await start("bench/proxy/arm.ts", ["passthrough", upstream.origin]),
    "pass-B": await start("bench/proxy/arm.ts", ["passthrough", upstream.origin]),
    "mcp-elicit": await start("bench/proxy/arm.ts", ["mcp-elicit", upstream.origin, out]),
  };
  const paths: Path[] = [];
  for (const arm of ARMS) {
    const child = arm === "direct" ? undefined : children[arm];
    const origin = child?.origin ?? upstream.origin;
    paths.push({
      arm,
      origin,
      sessions: { json: await open(origin, "json"), sse: await open(origin, "sse") },
      ...(child && { child }),
    });
  }

  // Warm-up: every path, both kinds, twice.
  for (let i = 0; i < 2; i++) {
    for (const path of paths) {
      for (let j = 0; j < JSON_BLOCK; j++) await jsonPost(path);
      await ssePost(path, "stream");
    }
  }

  const rounds: Record<Arm, RoundFigures>[] = [];
  const pooled: Record<Arm, { later: number[]; first: number[] }> = Object.fromEntries(
    ARMS.map((a) => [a, { later: [], first: [] }]),
  ) as never;
  for (let r = 0; r < ROUNDS; r++) {
    const figures = {} as Record<Arm, RoundFigures>;
    const json = new Map<Arm, number[]>();
    const sse = new Map<Arm, { later: number[]; first: number[] }>();
    const blocks = shuffle(
      paths.flatMap((path) => [
        { path, kind: "json" as const },
        { path, kind: "sse" as const },
      ]),
    );
    for (const { path, kind } of blocks) {
      if (kind === "json") {
        const times: number[] = [];
        for (let j = 0; j < JSON_BLOCK; j++) times.push(await jsonPost(path));
        json.set(path.arm, times);
      } else {
        const got = { later: [] as number[], first: [] as number[] };
        for (let j = 0; j < SSE_BLOCK; j++) {
          const { delays } = await ssePost(path, "stream");
          got.first.push(delays[0]!);
          got.later.push(...delays.slice(1));
        }
        sse.set(path.arm, got);
        pooled[path.arm].later.push(...got.later);
        pooled[path.arm].first.push(...got.first);
      }
      await sleep(GAP_MS);
    }
    for (const arm of ARMS) {
      const s = sse.get(arm)!;
      figures[arm] = {
        json: median(json.get(arm)!),
        sseP50: median(s.later),
        sseP99: quantile(s.later, 0.99),
        firstP50: median(s.first),
      };
    }
    rounds.push(figures);
    process.stderr.write(`round ${r + 1}/${ROUNDS}\r`);
  }

  // CPU per MB of each proxy process, in turns.
  const cpu: Record<Exclude<Arm, "direct">, number[]> = { "pass-A": [], "pass-B": [], "mcp-elicit": [] };
  for (let r = 0; r < CPU_ROUNDS + 1; r++) {
    for (const path of shuffle(paths.filter((p) => p.child))) {
      const before = await path.child!.cpu();
      const { bytes } = await ssePost(path, "bulk");
      const after = await path.child!.cpu();
      if (r > 0) cpu[path.arm as keyof typeof cpu].push((after - before) / (bytes / MB));
      await sleep(GAP_MS);
    }
  }

  report(rounds, pooled, cpu, statSync(out).size);
  for (const child of [upstream, ...Object.values(children)]) child.process.disconnect();
  rmSync(dir, { recursive: true, force: true });
}

function report(
  rounds: Record<Arm, RoundFigures>[],
  pooled: Record<Arm, { later: number[]; first: number[] }>,
  cpu: Record<string, number[]>,
  captured: number,
): void {
  const added = (arm: Arm, key: keyof RoundFigures) => rounds.map((r) => r[arm][key] - r.direct[key]);
  const passMean = (key: keyof RoundFigures) =>
    rounds.map((r) => (r["pass-A"][key] + r["pass-B"][key]) / 2 - r.direct[key]);
  const us = (ms: number) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
  const interval = (x: { ratio: number; low: number; high: number }) =>
    `${x.ratio.toFixed(2)}× [${x.low.toFixed(2)}–${x.high.toFixed(2)}]`;
  const lines: string[] = [];
  lines.push(
    `mcp-elicit proxy bench: ${rounds.length} rounds; per round ${JSON_BLOCK} JSON POSTs and ${SSE_BLOCK} SSE answers of 40 events per path`,
  );
  lines.push("");
  lines.push("figure (median over rounds)        no proxy   pass-through A   pass-through B   mcp-elicit proxy");
  for (const [label, key] of [
    ["JSON POST round trip", "json"],
    ["SSE event delay p50 (later events)", "sseP50"],
    ["SSE event delay p99 (later events)", "sseP99"],
    ["SSE first event delay p50", "firstP50"],
  ] as const) {
    const m = (arm: Arm) => median(rounds.map((r) => r[arm][key]));
    lines.push(
      `${label.padEnd(34)} ${us(m("direct"))}   ${us(m("pass-A"))}        ${us(m("pass-B"))}        ${us(m("mcp-elicit"))}`,
    );
  }
  lines.push("");
  lines.push(
    "added over no proxy (median of per-round paired differences)   pass-through (A+B)/2   mcp-elicit   ratio [95% CI]        A/A: B over A",
  );
  for (const [label, key] of [
    ["JSON POST", "json"],
    ["SSE event p50", "sseP50"],
    ["SSE first event p50", "firstP50"],
  ] as const) {
    const ratio = ratioOfAdded(added("mcp-elicit", key), passMean(key));
    const aa = ratioOfAdded(added("pass-B", key), added("pass-A", key));
    lines.push(
      `${label.padEnd(62)} ${us(median(passMean(key)))}            ${us(median(added("mcp-elicit", key)))}   ${interval(ratio).padEnd(21)} ${interval(aa)}`,
    );
  }
  const p99 = (arm: Arm) => quantile(pooled[arm].later, 0.99);
  lines.push(
    `${"SSE event p99, pooled over all rounds".padEnd(62)} ${us((p99("pass-A") + p99("pass-B")) / 2 - p99("direct"))}            ${us(p99("mcp-elicit") - p99("direct"))}   ` +
      `${((p99("mcp-elicit") - p99("direct")) / ((p99("pass-A") + p99("pass-B")) / 2 - p99("direct"))).toFixed(2)}×  (not gated: host steal)`,
  );
  lines.push("");
  const c = (arm: string) => median(cpu[arm]!);
  lines.push(
    `CPU per MB carried (4 MiB SSE answers, ${cpu["pass-A"]!.length} each, median): pass-through A ${c("pass-A").toFixed(1)} ms, B ${c("pass-B").toFixed(1)} ms, mcp-elicit ${c("mcp-elicit").toFixed(1)} ms`,
  );
  const passCpu = cpu["pass-A"]!.map((a, i) => (a + cpu["pass-B"]![i]!) / 2);
  lines.push(
    `  mcp-elicit over pass-through: ${interval(ratioOfAdded(cpu["mcp-elicit"]!, passCpu))}; A/A (B over A): ${interval(ratioOfAdded(cpu["pass-B"]!, cpu["pass-A"]!))}`,
  );
  lines.push(`  (the recording proxy's capture file: ${(captured / MB).toFixed(1)} MiB)`);
  lines.push("");
  const gate = ratioOfAdded(added("mcp-elicit", "sseP50"), passMean("sseP50"));
  const gateJson = ratioOfAdded(added("mcp-elicit", "json"), passMean("json"));
  const verdict = (x: { low: number; high: number }) =>
    x.high <= 1.2 ? "passes" : x.low > 1.2 ? "fails" : "inconclusive";
  lines.push(
    `target (adds at most 1.2× what the pass-through adds): SSE event p50 ${verdict(gate)} (${interval(gate)}), JSON POST ${verdict(gateJson)} (${interval(gateJson)})`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
