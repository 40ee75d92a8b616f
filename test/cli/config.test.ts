import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { built, cli, DEMO } from "./run.ts";

// mcp-elicit.config.json as a repository keeps it: found from the working directory upward, or named by --config.
let dir: string;
before(async () => {
  built();
  dir = await mkdtemp(join(tmpdir(), "mcp-config-"));
});
after(() => rm(dir, { recursive: true, force: true }));

type Report = { files: { findings: { rule: string; severity: string }[] }[]; summary: { errors: number } };
const rulesOf = (report: Report, severity?: string) =>
  report.files[0]!.findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);

/** One rule off, another raised to error: both rules have findings in the demo capture. */
const TEAM = { rules: { "url-https": "off", "adv-message-quality": "error" } };

describe("mcp-elicit.config.json", () => {
  test("turning one rule off and raising another to error changes the output and the exit status", async () => {
    const plain = cli(["lint", DEMO, "--json"], { cwd: dir });
    assert.equal(plain.status, 0, plain.stderr);
    const before = JSON.parse(plain.stdout) as Report;
    assert.ok(rulesOf(before).includes("url-https"));
    assert.ok(rulesOf(before, "info").includes("adv-message-quality"));

    const project = join(dir, "project");
    await mkdir(join(project, "captures", "deep"), { recursive: true });
    await writeFile(join(project, "mcp-elicit.config.json"), JSON.stringify(TEAM));
    // Found from a subdirectory, upward.
    const run = cli(["lint", DEMO, "--json"], { cwd: join(project, "captures", "deep") });
    assert.equal(run.status, 1, run.stderr);
    const after = JSON.parse(run.stdout) as Report;
    assert.ok(!rulesOf(after).includes("url-https"));
    const raised = rulesOf(before).filter((r) => r === "adv-message-quality").length;
    assert.deepEqual(rulesOf(after, "error"), Array(raised).fill("adv-message-quality"));
    assert.equal(after.summary.errors, raised);

    // The text output says so too, and flags go on top: --fail-on never passes, --config names another file.
    assert.match(cli(["lint", DEMO], { cwd: project }).stdout, /error +adv-message-quality/);
    assert.equal(cli(["lint", DEMO, "--fail-on", "never"], { cwd: project }).status, 0);
    const other = join(dir, "other.json");
    await writeFile(other, JSON.stringify({ failOn: "info" }));
    const named = cli(["lint", DEMO, "--json", "--config", other], { cwd: project });
    assert.equal(named.status, 1, "the demo's info findings fail with failOn info");
    assert.ok(rulesOf(JSON.parse(named.stdout)).includes("url-https"), "the named file replaces the found one");
  });

  test("strict2260 and decode rules in the file act as --strict-2260 and --decode", async () => {
    const file = join(dir, "strict.json");
    await writeFile(file, JSON.stringify({ strict2260: true }));
    const strict = JSON.parse(cli(["lint", DEMO, "--json", "--config", file]).stdout) as Report;
    const flag = JSON.parse(
      cli(["lint", DEMO, "--json", "--strict-2260", "--config", join(dir, "other.json")]).stdout,
    ) as Report;
    assert.deepEqual(strict.files[0]!.findings, flag.files[0]!.findings);
    assert.ok(rulesOf(strict, "error").includes("del-r12-standalone-stream"));

    const rule = { id: "x1", url: "https://host/api/*", pointer: "/message", direction: "both" };
    await writeFile(file, JSON.stringify({ decode: [rule] }));
    const twice = cli(["lint", DEMO, "--config", file, "--decode", JSON.stringify(rule)]);
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /decode rule id "x1" is given twice/);
  });

  test("a malformed file is a usage error naming the file and the place in it", async () => {
    const file = join(dir, "bad.json");
    const cases: [string, RegExp][] = [
      ['{\n  "rules": {\n    "url-https": "off",\n  }\n}', /bad\.json: not JSON at line 4, column 3/],
      ['{"rules": {"url-https": "loud"}}', /bad\.json: at \/rules\/url-https: .*"off"/],
      ['{"rules": {"no-such-rule": "off"}}', /at \/rules\/no-such-rule: unknown rule id "no-such-rule"/],
      ['{"strict": true}', /at \/: .*"strict" \(a configuration has/],
      ['{"decode": [{"id": "d", "url": "", "pointer": "/m", "direction": "c2s"}]}', /at \/decode\/0: "url" must be/],
      ['{"failOn": "sometimes"}', /at \/failOn: /],
      ["[]", /at \/: /],
    ];
    for (const [text, expected] of cases) {
      await writeFile(file, text);
      const run = cli(["lint", DEMO, "--config", file]);
      assert.equal(run.status, 2, text);
      assert.match(run.stderr, expected, text);
      assert.equal(run.stdout, "");
    }
    const missing = cli(["lint", DEMO, "--config", join(dir, "none.json")]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read the configuration .*none\.json: no such file/);
  });
});
