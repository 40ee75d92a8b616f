import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { exportHar } from "../../src/capture/har/export.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { joinCaptures } from "../../src/capture/session.ts";
import { startProxy } from "../../src/cli/proxy/server.ts";
import { scenarios, startServer } from "../peers/scenarios.ts";

/** `mcp-elicit lint page.har backend.jsonl`: the page's HAR and the proxy's JSONL analysed as one session. */
const CLI = ["--import", "tsx", "src/cli/bin.ts", "lint"];
let dir: string;
let page: string;
let backend: string;
/** The seq, in backend.jsonl, of the answer made invalid below. */
let answerSeq: number;

interface Report {
  files: {
    file: string;
    session?: string[];
    flows: { kind: string; elicitations: { action: string }[] }[];
    findings: { rule: string; file?: string; entry: number }[];
    problems: { file?: string; entry: number | null; line: number | null; message: string }[];
  }[];
}
const lint = (args: string[]) => {
  const run = spawnSync(process.execPath, [...CLI, ...args, "--json"], { encoding: "utf8" });
  return { status: run.status, stderr: run.stderr, report: JSON.parse(run.stdout || "{}") as Report };
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-session-"));
  const server = await startServer("legacy");
  page = join(dir, "page.har");
  backend = join(dir, "backend.jsonl");
  const proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(server.url) }], out: backend });
  try {
    // The page's own client and the agent's (through the proxy) at the same time, so the two captures interleave.
    const run = (name: string, url: string) => scenarios.find((s) => s.name === name)!.run(url);
    const [pageRun] = await Promise.all([
      run("legacy-form-decline", server.url),
      run("legacy-form-accept", proxy.urls[0]!.url),
    ]);
    await writeFile(page, exportHar(pageRun.records));
  } finally {
    await proxy.close();
    await server.close();
  }
  // The agent forwards an answer of the wrong type: a finding that belongs to backend.jsonl.
  const lines = (await readFile(backend, "utf8")).split("\n");
  const i = lines.findIndex((l) => l.includes('\\"content\\":{\\"confirm\\":true}'));
  assert.ok(i >= 0);
  lines[i] = lines[i]!.replace(
    '\\"content\\":{\\"confirm\\":true}',
    '\\"content\\":{\\"confirm\\":{\\"really\\":true}}',
  );
  answerSeq = (JSON.parse(lines[i]!) as CaptureRecord).seq;
  await writeFile(backend, lines.join("\n"));
});
after(() => rm(dir, { recursive: true, force: true }));

test("a HAR and a backend JSONL are one session: one report, every flow of both, findings naming their file", () => {
  const alone = [lint([page]), lint([backend])];
  const joined = lint([page, backend]);
  assert.equal(joined.status, 1, joined.stderr);
  assert.equal(joined.report.files.length, 1);
  const [session] = joined.report.files;
  assert.deepEqual(session!.session, [page, backend]);
  assert.equal(session!.file, `${page} + ${backend}`);
  const actions = (r: Report) =>
    r.files
      .flatMap((f) => f.flows.map((flow) => `${flow.kind} ${flow.elicitations.map((e) => e.action).join()}`))
      .sort();
  assert.deepEqual(actions(joined.report), [...actions(alone[0]!.report), ...actions(alone[1]!.report)].sort());
  assert.deepEqual(actions(joined.report), ["server-request accept", "server-request decline"]);
  const wrong = session!.findings.filter((f) => f.file === backend);
  assert.ok(wrong.length > 0, "the altered answer is a finding of backend.jsonl");
  assert.ok(
    wrong.some((f) => f.entry === answerSeq),
    "at its seq in that file",
  );
  // Each finding is the one linting its own file finds, at the same place.
  const where = (r: Report, file?: string) =>
    r.files.flatMap((f) => f.findings.map((x) => `${file ?? x.file} ${x.rule} ${x.entry}`)).sort();
  assert.deepEqual(
    where(joined.report),
    [...where(alone[0]!.report, page), ...where(alone[1]!.report, backend)].sort(),
  );
});

test("problems name their file; --session joins captures that have no backend records", async () => {
  const broken = join(dir, "broken.jsonl");
  const backendLines = (await readFile(backend, "utf8")).trimEnd().split("\n");
  await writeFile(broken, [...backendLines, "not json"].join("\n"));
  const run = lint([page, broken]);
  assert.equal(run.status, 2);
  assert.deepEqual(
    run.report.files[0]!.problems.map((p) => [p.file, p.line]),
    [[broken, backendLines.length + 1]],
  );
  assert.match(run.report.files[0]!.problems[0]!.message, /not JSON/);

  // The agent's traffic as another page's HAR: no backend record, so side by side unless --session.
  const records = (await readFile(backend, "utf8"))
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as CaptureRecord);
  const other = join(dir, "other.har");
  await writeFile(other, exportHar(records.map(({ source: _, ...r }) => r as CaptureRecord)));
  const apart = lint([page, other]);
  assert.equal(apart.report.files.length, 2, "two page captures report side by side");
  assert.equal(apart.report.files[0]!.session, undefined);
  const one = lint([page, other, "--session"]);
  assert.equal(one.report.files.length, 1);
  assert.equal(one.report.files[0]!.flows.length, 2);
});

test("joinCaptures: by time, each capture's own order kept, ties to the first, clashing exchanges renamed", () => {
  const r = (seq: number, time: number, exchange: string): CaptureRecord => ({
    v: 1,
    seq,
    time,
    transport: "http",
    exchange,
    kind: "end",
  });
  const a = [r(0, 10, "x0"), r(1, 30, "x1"), r(2, 20, "x1")];
  const b = [r(5, 5, "x0"), r(6, 20, "b1"), r(7, 40, "b1")];
  const { records, origins } = joinCaptures([a, b]);
  assert.deepEqual(
    records.map((x) => x.seq),
    [0, 1, 2, 3, 4, 5],
  );
  assert.deepEqual(
    origins.map((o) => `${o.capture}:${o.seq}`),
    ["1:5", "0:0", "1:6", "0:1", "0:2", "1:7"],
  );
  assert.deepEqual(
    records.map((x) => x.exchange),
    ["1:x0", "x0", "1:b1", "x1", "x1", "1:b1"],
  );
});
