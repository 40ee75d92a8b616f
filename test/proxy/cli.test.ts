import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import type { PeerServer } from "../peers/legacyServer.ts";
import { scenarios, startServer } from "../peers/scenarios.ts";
import { readCaptureFile, summary } from "./helpers.ts";

/** `mcp-elicit proxy` as a user runs it: the lines it prints, loopback only, SIGINT/SIGTERM writing the capture. */
const CLI = ["--import", "tsx", "src/cli/bin.ts"];
let dir: string;
let server: PeerServer;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-proxy-cli-"));
  server = await startServer("legacy");
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Running {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Starts the CLI and waits for `count` lines on its standard output. */
async function start(args: string[], count: number): Promise<Running> {
  const child = spawn(process.execPath, [...CLI, "proxy", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.on("data", (chunk) => (err += String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    reader.on("line", (line) => {
      lines.push(line);
      if (lines.length === count) resolve();
    });
    void exit.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { child, lines, stderr: () => err, exit };
}

test("prints the agent URL then the feed URL on 127.0.0.1; SIGINT writes every record and exits 0", async () => {
  const out = join(dir, "backend.jsonl");
  const proxy = await start([server.url, "--out", out], 2);
  const [agentUrl, feedUrl] = proxy.lines;
  assert.match(agentUrl!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.match(feedUrl!, /^http:\/\/127\.0\.0\.1:\d+\/__mcp-elicit\/feed\?token=[\w-]{20,}$/);
  assert.equal(new URL(feedUrl!).port, new URL(agentUrl!).port);

  const scenario = scenarios.find((s) => s.name === "legacy-form-accept")!;
  const direct = await scenario.run(server.url);
  await scenario.run(agentUrl!);
  proxy.child.kill("SIGINT");
  assert.equal(await proxy.exit, 0);
  assert.match(proxy.stderr(), /SIGINT: stopped; \d+ records in /);

  const { records, problems } = await readCaptureFile(out);
  assert.deepEqual(problems, []);
  assert.deepEqual(summary(records), summary(direct.records));
  // What lint says of the file: the same flows.
  const lint = spawnSync(process.execPath, [...CLI, "lint", out, "--json"], { encoding: "utf8" });
  assert.equal(lint.status, 0, lint.stderr);
  const report = JSON.parse(lint.stdout) as {
    files: { flows: { kind: string; elicitations: { action: string }[] }[] }[];
  };
  assert.deepEqual(
    report.files[0]!.flows.map((f) => [f.kind, f.elicitations.map((e) => e.action)]),
    [["server-request", ["accept"]]],
  );
});

test("--upstream name=url: one name<TAB>url line each, the feed line last, on --port; SIGTERM stops it", async () => {
  const port = await freePort();
  const proxy = await start(
    ["--upstream", `one=${server.url}`, "--upstream", `two=${server.url}`, "--port", `${port}`],
    3,
  );
  assert.equal(proxy.lines[0], `one\thttp://127.0.0.1:${port}/one`);
  assert.equal(proxy.lines[1], `two\thttp://127.0.0.1:${port}/two`);
  assert.match(proxy.lines[2]!, /\/__mcp-elicit\/feed\?token=/);
  const res = await fetch(proxy.lines[1]!.split("\t")[1]!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(res.status, 400, "the upstream's own answer");
  proxy.child.kill("SIGTERM");
  assert.equal(await proxy.exit, 0);
});

test("loopback only: another address is refused and says why, unless --allow-remote (then a warning)", async () => {
  const refused = spawnSync(process.execPath, [...CLI, "proxy", server.url, "--host", "0.0.0.0"], { encoding: "utf8" });
  assert.equal(refused.status, 2);
  assert.equal(refused.stdout, "");
  assert.match(refused.stderr, /refusing to listen on 0\.0\.0\.0.*loopback.*--allow-remote/s);

  const allowed = await start([server.url, "--host", "0.0.0.0", "--allow-remote"], 2);
  allowed.child.kill("SIGINT");
  assert.equal(await allowed.exit, 0);
  assert.match(allowed.stderr(), /WARNING: listening on 0\.0\.0\.0, not loopback/);

  for (const bad of [
    ["--port", "70000"],
    ["--upstream", "x"],
    ["ftp://example.com/"],
    ["--upstream", "__mcp-elicit=http://a/"],
  ]) {
    const run = spawnSync(process.execPath, [...CLI, "proxy", ...bad], { encoding: "utf8" });
    assert.equal(run.status, 2, bad.join(" "));
  }
});
