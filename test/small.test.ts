import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { importHar } from "../src/capture/har/import.ts";
import { importJsonl } from "../src/capture/jsonl.ts";
import { readError } from "../src/cli/read.ts";
import { toText } from "../src/cli/report.ts";
import { har, harEntry, rpc, sse } from "./capture/harFixture.ts";

// The small things of issue 11, each through the built CLI where the CLI is the point.

let dir: string;
before(async () => {
  if (!existsSync("dist/cli/mcp-elicit.js"))
    assert.equal(spawnSync(process.execPath, ["build.mjs"], { stdio: "inherit" }).status, 0);
  dir = await mkdtemp(join(tmpdir(), "mcp-small-"));
});
after(() => rm(dir, { recursive: true, force: true }));

const lint = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/mcp-elicit.js", "lint", ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
const call = rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } });
const oneEntry = har([
  harEntry({
    started: "2026-01-01T00:00:00.000Z",
    body: call,
    mimeType: "text/event-stream",
    text: sse(`data: ${rpc({ jsonrpc: "2.0", id: 1, result: { content: [] } })}`),
  }),
]);

describe("the small things", () => {
  test("an empty .jsonl says it is empty and exits 2, like an empty .har", async () => {
    for (const [name, text] of [
      ["empty.jsonl", ""],
      ["blank.jsonl", "\n\n  \n"],
      ["empty.har", ""],
    ] as const) {
      const path = join(dir, name);
      await writeFile(path, text);
      const run = lint(path);
      assert.equal(run.status, 2, name);
      assert.match(run.stdout, /problem the file is empty: no capture records/, name);
    }
  });

  test("a UTF-16 HAR: the CLI reads it (BOM); an importer handed it as UTF-8 names the encoding", async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(oneEntry, "utf16le")]);
    const path = join(dir, "utf16.har");
    await writeFile(path, utf16);
    const run = lint(path, "--json");
    assert.equal(run.status, 0, run.stdout);
    assert.equal(JSON.parse(run.stdout).files[0].problems.length, 0);
    const misread = importHar(utf16.toString("utf8"), "utf16.har");
    assert.deepEqual(
      misread.problems.map((p) => p.message),
      ["the file is UTF-16LE encoded; capture files are UTF-8 (save or convert it as UTF-8)"],
    );
    const noBom = importJsonl(Buffer.from('{"v":1}\n', "utf16le").toString("utf8"), "x.jsonl");
    assert.match(noBom.problems[0]!.message, /UTF-16LE encoded/);
    const be = Buffer.from('{"v":1}\n', "utf16le").swap16();
    assert.match(importJsonl(be.toString("latin1"), "x.jsonl").problems[0]!.message, /UTF-16BE encoded/);
  });

  test("a string status and object headers are problems the CLI shows, each once with its entry", async () => {
    const entry = harEntry({
      started: "2026-01-01T00:00:00.000Z",
      body: call,
      status: "200" as unknown as number,
      mimeType: "application/json",
      text: "{}",
    });
    (entry.request as Record<string, unknown>).headers = { "mcp-protocol-version": "2025-11-25" };
    const path = join(dir, "odd.har");
    await writeFile(path, har([entry]));
    const run = lint(path);
    assert.equal(run.status, 2);
    assert.match(run.stdout, /problem entry 0: response\.status "200" is not an HTTP status/);
    assert.match(run.stdout, /problem entry 0: request\.headers is object/);
    assert.doesNotMatch(run.stdout, /entry 0: entry 0:/);
  });

  test("human output names a problem's place once", () => {
    const text = toText(
      [
        {
          file: "f.har",
          flows: [],
          findings: [],
          problems: [
            { file: "f.har", entry: 3, message: "entry 3: not an object; skipped" },
            { file: "f.har", entry: 4, message: "something" },
            { file: "f.jsonl", line: 2, message: "line 2: bad" },
          ],
        },
      ],
      false,
    );
    assert.match(text, /problem entry 3: not an object; skipped/);
    assert.match(text, /problem entry 4: something/);
    assert.match(text, /problem line 2: bad/);
    assert.doesNotMatch(text, /entry 3: entry 3|line 2: line 2/);
  });

  test("`mcp-elicit rules` with a file says rules takes none, not that rules is an unknown command", () => {
    const run = spawnSync(process.execPath, ["bin/mcp-elicit.js", "rules", "capture.har"], { encoding: "utf8" });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^mcp-elicit: rules takes no files/);
  });

  test("a file too large to read is called too large, with its size and the limit", () => {
    const error = Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), {
      code: "ERR_STRING_TOO_LONG",
    });
    assert.match(
      readError(error, 600 * 2 ** 20),
      /^too large to read \(600 MB\): this build reads a capture of at most 512 MB as one text$/,
    );
    assert.match(
      readError(
        Object.assign(new RangeError("File size (3000000000) is greater than 2 GiB"), {
          code: "ERR_FS_FILE_TOO_LARGE",
        }),
        3e9,
      ),
      /^too large to read \(2861 MB\)/,
    );
    assert.equal(readError(Object.assign(new Error("x"), { code: "ENOENT" })), "no such file");
  });
});
