import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { AGENT_RULE, agentHar } from "./capture/envelopes/fixtures.ts";

/** `mcp-elicit lint --decode / --decode-file` through the built bin, as a person runs it on a host no adapter knows. */
let dir: string;
before(async () => {
  if (!existsSync("dist/cli/mcp-elicit.js"))
    assert.equal(spawnSync(process.execPath, ["build.mjs"], { stdio: "inherit" }).status, 0, "node build.mjs");
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-decode-"));
});
after(() => rm(dir, { recursive: true, force: true }));

const lint = (args: string[]) => {
  const run = spawnSync(process.execPath, ["bin/mcp-elicit.js", "lint", ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};
const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

describe("mcp-elicit lint --decode", () => {
  test("a rule given inline finds the flow inside the host's envelope; without it there is none", async () => {
    const har = await file("agent.har", agentHar());
    const without = JSON.parse(lint([har, "--json"]).stdout);
    assert.equal(without.files[0].flows.length, 0);
    const run = lint([har, "--json", "--decode", JSON.stringify(AGENT_RULE)]);
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      report.files[0].flows.map((f: { method: string; status: string; elicitations: { action: string }[] }) => [
        f.method,
        f.status,
        f.elicitations[0]?.action,
      ]),
      [["tools/call", "complete", "accept"]],
    );
    const text = lint([har, "--decode", JSON.stringify(AGENT_RULE)]).stdout;
    // One server for the rule's traffic: the host's origin and the rule (its pattern, less the origin, without a label).
    assert.match(text, /https:\/\/agent\.example \(\/agent\/turn\) via https:\/\/agent\.example \(decoder agent\)/);
  });

  test("--decode-file takes a JSON array of rules", async () => {
    const har = await file("agent2.har", agentHar());
    const rules = await file(
      "rules.json",
      JSON.stringify([
        { ...AGENT_RULE, label: "my agent" },
        { id: "other", url: "https://elsewhere.example/*", pointer: "", direction: "both" },
      ]),
    );
    const run = lint([har, "--json", "--decode-file", rules]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).files[0].flows.length, 1);
  });

  test("a bad rule is a usage error (exit 2) saying what is wrong", async () => {
    const har = await file("agent3.har", agentHar());
    const cases: [string[], RegExp][] = [
      [["--decode", "{not json"], /--decode 1 is not JSON .*a rule is \{"id":"d1"/],
      [["--decode", '{"id":"a","url":"x","path":"/p","direction":"c2s"}'], /--decode 1: unknown member "path"/],
      [
        ["--decode", '{"id":"a","url":"x","pointer":"p","direction":"c2s"}'],
        /--decode 1: "pointer" must be a JSON pointer/,
      ],
      [
        ["--decode", JSON.stringify(AGENT_RULE), "--decode", JSON.stringify(AGENT_RULE)],
        /decode rule id "agent" is given twice/,
      ],
      [["--decode-file", join(dir, "missing.json")], /cannot read --decode-file .*missing\.json: no such file/],
      [
        ["--decode-file", await file("object.json", JSON.stringify(AGENT_RULE))],
        /decode rules are a JSON array of rule objects/,
      ],
      [
        [
          "--decode-file",
          await file(
            "bad.json",
            JSON.stringify([AGENT_RULE, { id: "b", url: "x", pointer: "/m", direction: "sideways" }]),
          ),
        ],
        /rule 2: "direction" must be "c2s", "s2c" or "both"/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = lint([har, ...args]);
      assert.equal(run.status, 2, args.join(" "));
      assert.match(run.stderr, message);
      assert.equal(run.stdout, "", "nothing is analysed with a bad rule");
    }
  });

  test("a real MCP Inspector v2 HAR names the upstream server, the backend it went through and the envelope", () => {
    const run = lint(["test/capture/fixtures/inspector-v2-complete.har"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /http:\/\/127\.0\.0\.1:\d+\/mcp via http:\/\/127\.0\.0\.1:\d+\/api\/mcp \(MCP Inspector backend\)/,
    );
    assert.equal(
      lint(["test/capture/fixtures/inspector-v2-aborted.har"]).status,
      2,
      "a HAR without the server's messages is an input that could not be read whole",
    );
  });
});
