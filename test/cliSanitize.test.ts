import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

/**
 * The CLI prints nothing raw: a capture whose URLs, exchange ids, elicitation messages, property names (pointers)
 * and a broken line carry CSI, OSC and C1 sequences leaves no ESC, BEL or C1 control on standard output in text
 * mode, while `--json` keeps every string exact.
 */
let dir: string;
before(async () => {
  if (!existsSync("dist/cli/mcp-elicit.js"))
    assert.equal(spawnSync(process.execPath, ["build.mjs"], { stdio: "inherit" }).status, 0);
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-sanitize-"));
});
after(() => rm(dir, { recursive: true, force: true }));

// Written as JSON escapes inside the JSONL (one level) or inside a record's text (two levels).
const OSC_TITLE = "\\u001b]0;pwned\\u0007";
const OSC_CLIPBOARD = "\\u001b]52;c;aGVsbG8=\\u001b\\\\";
const CSI_ERASE = "\\u001b[2J\\u001b[1A\\u001b[K";
const C1 = "\\u009b31m\\u009d0;c1\\u009c\\u0085";
const ALL = `${OSC_TITLE}${OSC_CLIPBOARD}${CSI_ERASE}${C1}`;
const TWICE = ALL.replaceAll("\\", "\\\\");

function crafted(): string {
  const demo = readFileSync("demo/demo-capture.jsonl", "utf8");
  const lines = demo
    .replaceAll("127.0.0.1:45545/mcp", `127.0.0.1:45545/mcp?t=${ALL}`)
    .replaceAll("legacy-form-accept/", `legacy${ALL}/`)
    .replaceAll('\\"message\\":\\"', `\\"message\\":\\"${TWICE}`)
    .replaceAll('\\"properties\\":{\\"', `\\"properties\\":{\\"${TWICE}`)
    .replaceAll('\\"action\\":\\"accept\\"', `\\"action\\":\\"accept${TWICE}\\"`);
  return `${lines}{"v":1,"seq":9999,"kind":"${ALL}","text":"${ALL}\n`;
}

const run = (args: string[]) =>
  spawnSync(process.execPath, ["bin/mcp-elicit.js", "lint", ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("mcp-elicit lint: captured text never reaches the terminal raw", () => {
  test("text output: no ESC, BEL or C1 control from a crafted capture, and the flows are still reported", async () => {
    const path = join(dir, `capture${ALL.replace(/\\u[0-9a-f]{4}|\\/g, "")}.jsonl`);
    await writeFile(path, crafted());
    const out = run([path]);
    assert.ok(out.stdout.length > 200, out.stderr);
    assert.ok(out.stdout.includes("pwned"), "the sequences' printable parts are shown, defused");
    assert.ok(out.stdout.includes("flows:"), out.stdout);
    const bad = CONTROL.exec(out.stdout);
    assert.equal(
      bad,
      null,
      `a control character U+${bad?.[0].codePointAt(0)?.toString(16).padStart(4, "0")} at ${bad?.index}: ${JSON.stringify(out.stdout.slice(Math.max(0, (bad?.index ?? 0) - 40), (bad?.index ?? 0) + 20))}`,
    );
  });

  test("--json keeps the captured strings exact", async () => {
    const path = join(dir, "capture.jsonl");
    await writeFile(path, crafted());
    const stdout = run([path, "--json"]).stdout;
    const found: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === "string") {
        if (v.includes("\u001b]0;pwned\u0007\u001b]52;c;aGVsbG8=\u001b\\\u001b[2J")) found.push(v);
      } else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
    };
    walk(JSON.parse(stdout));
    assert.ok(found.length > 0, stdout.slice(0, 2000));
  });
});
