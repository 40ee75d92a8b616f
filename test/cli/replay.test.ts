import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { exportHar } from "../../src/capture/har/export.ts";
import { importCapture } from "../../src/capture/import.ts";
import { analyze, type Flow } from "../../src/engine/index.ts";
import { legacyScenarios, mergeCaptures, modernScenarios, scenarios, type Scenario } from "../peers/scenarios.ts";
import { built, cli, DEMO, ROOT } from "./run.ts";

// `mcp-elicit replay` against the real SDK clients of both eras (sdk 1.32.2 and client 2.4.0), driven by the same
// scenarios that recorded demo/demo-capture.jsonl: answering as the capture did, the replayed session records to
// the capture's flows and replay exits 0; answering otherwise, it exits 1 and names the divergence.
const BIN = join(ROOT, "bin/mcp-elicit.js");
let dir: string;
before(async () => {
  built();
  dir = await mkdtemp(join(tmpdir(), "mcp-replay-"));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Starts `mcp-elicit replay` on a capture; its first line is the URL to give the client. */
async function replay(capture: string) {
  const child = spawn(process.execPath, [BIN, "replay", capture, "--timeout", "60", "--linger", "200"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const reader = createInterface({ input: child.stdout });
  const first = new Promise<string>((resolve, reject) => {
    reader.once("line", resolve);
    child.once("exit", () => reject(new Error(`replay exited before printing its URL: ${stderr}`)));
  });
  reader.on("line", (line) => lines.push(line));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await first;
  return { url, lines, exit, stderr: () => stderr, kill: () => child.kill() };
}

/** What a flow is, leaving out what differs between two runs (ids of time, ports, session ids). */
const shape = (f: Flow) => ({
  kind: f.kind,
  revision: f.revision,
  method: f.method,
  target: f.target,
  status: f.status,
  rounds: f.rounds.length,
  elicitations: f.elicitations.map((e) => ({
    key: e.key,
    mode: e.mode,
    action: e.action,
    completed: e.completed,
    message: e.message,
  })),
});

async function runAgainst(url: string, list: Scenario[]) {
  const results = [];
  for (const scenario of list) results.push(await scenario.run(url));
  return results;
}

describe("mcp-elicit replay", () => {
  test("the demo capture replayed to both SDK clients, answering as captured: the same flows, exit 0", async () => {
    await replayedAsCaptured(DEMO);
  });

  test("the same from the demo capture saved as HAR", async () => {
    const har = join(dir, "demo.har");
    await writeFile(har, exportHar(importCapture(readFileSync(DEMO, "utf8"), DEMO).records));
    await replayedAsCaptured(har);
  });

  async function replayedAsCaptured(capture: string): Promise<void> {
    const r = await replay(capture);
    try {
      assert.match(r.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const results = await runAgainst(r.url, scenarios);
      const code = await r.exit;
      assert.equal(code, 0, r.lines.join("\n") + r.stderr());
      assert.match(r.lines.at(-1)!, /requests played; the client did what the capture's did$/);
      const original = analyze(importCapture(readFileSync(DEMO, "utf8"), DEMO).records);
      const replayed = analyze(mergeCaptures(results));
      assert.deepEqual(replayed.flows.map(shape), original.flows.map(shape));
      assert.deepEqual(
        replayed.findings.map((f) => [f.rule, f.severity, f.pointer]),
        original.findings.map((f) => [f.rule, f.severity, f.pointer]),
      );
      assert.ok(original.flows.length > 10);
    } finally {
      r.kill();
    }
  }

  test("a 2025-11-25 client that declines where the capture accepted: exit 1, the divergence named", async () => {
    const only = importCapture(readFileSync(DEMO, "utf8"), DEMO).records.filter((r) =>
      r.exchange?.startsWith("legacy-form-accept/"),
    );
    const capture = join(dir, "accept.jsonl");
    await writeFile(capture, only.map((x) => JSON.stringify(x)).join("\n") + "\n");
    const r = await replay(capture);
    try {
      // The decline scenario calls the same tool, and answers otherwise.
      await runAgainst(
        r.url,
        legacyScenarios.filter((s) => s.name === "legacy-form-decline"),
      );
      assert.equal(await r.exit, 1);
      const text = r.lines.join("\n");
      assert.match(
        text,
        /diverged at record 11 \(the answer to elicitation\/create \(id 0\) in tools\/call confirm_action\): action "decline" where the capture has "accept"/,
      );
      assert.match(r.lines.at(-1)!, /1 divergence$/);
    } finally {
      r.kill();
    }
  });

  test("a 2026-07-28 client that answers a round otherwise: exit 1, field and value named", async () => {
    const only = importCapture(readFileSync(DEMO, "utf8"), DEMO).records.filter((r) =>
      r.exchange?.startsWith("modern-two-rounds/"),
    );
    const capture = join(dir, "two-rounds.jsonl");
    await writeFile(capture, only.map((x) => JSON.stringify(x)).join("\n") + "\n");
    const r = await replay(capture);
    try {
      const client = new ModernClient(
        { name: "replay-test", version: "1.0.0" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      client.setRequestHandler("elicitation/create", (request) => {
        const params = request.params;
        const field = "requestedSchema" in params ? Object.keys(params.requestedSchema.properties)[0] : undefined;
        return field === "city" ? { action: "accept", content: { city: "Porto" } } : { action: "decline" };
      });
      await client.connect(new ModernTransport(new URL(r.url)));
      await client.callTool({ name: "plan_trip", arguments: {} });
      await client.close();
      assert.equal(await r.exit, 1);
      const text = r.lines.join("\n");
      assert.match(
        text,
        /\(tools\/call plan_trip\): inputResponses "city": field "city" is "Porto" where the capture has "Lisbon"/,
      );
      assert.match(
        text,
        /\(tools\/call plan_trip\): inputResponses "nights": action "decline" where the capture has "accept"/,
      );
    } finally {
      r.kill();
    }
  });

  test("no client within --timeout: exit 1, naming what the client never sent; bad usage: exit 2", () => {
    const idle = cli(["replay", DEMO, "--timeout", "1"]);
    assert.equal(idle.status, 1);
    assert.match(idle.stdout, /^http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    assert.match(idle.stdout, /diverged at record 0 \(the session\): the client never sent initialize/);
    assert.match(idle.stdout, /diverged at record \d+ \(the session\): the client never sent server\/discover/);
    assert.match(idle.stdout, /replay: 0 requests played, timed out after 1 s; 10 divergences\n$/);
    assert.equal(cli(["replay"]).status, 2);
    assert.equal(cli(["replay", DEMO, "--port", "70000"]).status, 2);
    const missing = cli(["replay", "no-such.jsonl"]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read no-such\.jsonl: no such file/);
  });
});
