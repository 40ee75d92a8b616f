import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { exportHar } from "../../src/capture/har/export.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { demo } from "./corpus.ts";

/**
 * A HAR of some 24 MB in the panel of the built extension (Chromium): its import worker reads it through the
 * streaming importer (importHarStream over file.stream()), and its rows come while the file is still being read;
 * at the end the panel holds exactly what `mcp-elicit lint` reports on the file. Export JSONL and Export HAR then
 * give files that `mcp-elicit lint` reads back to the same flows and findings.
 */
let browser: ExtensionBrowser;
let scratch: string;

before(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), "mcp-import-har-"));
  browser = await launchWithExtension();
});
after(async () => {
  await browser?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The demo's real SDK traffic copied `copies` times, each copy its own client and exchanges, starting where the last ended. */
function copiesOfDemo(copies: number): CaptureRecord[] {
  const start = demo[0]!.time;
  const span = demo.at(-1)!.time - start + 50;
  const out: CaptureRecord[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const r of demo)
      out.push({
        ...r,
        seq: out.length,
        time: r.time + copy * span,
        client: `c${copy}`,
        ...(r.exchange ? { exchange: `${copy}/${r.exchange}` } : {}),
      } as CaptureRecord);
  }
  return out;
}

interface Lint {
  flows: { id: string; kind: string; status: string; method: string; target: string | null; rounds: number }[];
  findings: { rule: string; flow: string | null; pointer: string; message: string }[];
  problems: { message: string }[];
}
/** `mcp-elicit lint --json` on a file (the built CLI, as a user runs it), reduced to what the panel is compared on. */
function lint(file: string): { flows: string[]; findings: string[]; problems: string[] } {
  const run = spawnSync(process.execPath, [resolve("dist/cli/mcp-elicit.js"), "lint", file, "--json"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  assert.ok(run.status === 0 || run.status === 1, `mcp-elicit lint ${file}: exit ${run.status} ${run.stderr}`);
  const out = (JSON.parse(run.stdout) as { files: Lint[] }).files[0]!;
  return {
    flows: out.flows.map((f) => `${f.id} ${f.kind} ${f.status} ${f.method} ${f.target} ${f.rounds}`),
    findings: out.findings.map((f) => `${f.rule} ${f.flow} ${f.pointer} ${f.message}`),
    problems: out.problems.map((p) => p.message),
  };
}

/** What the panel's import worker sent, step by step (recorded in the page from the worker's own messages). */
interface Step {
  kind: string;
  records?: number;
  bytes?: number;
  size?: number;
  done?: boolean;
  flows?: string[];
  findings?: string[];
  problems?: string[];
}

describe("HAR import in the panel (Chromium)", { timeout: 240_000 }, () => {
  test("a 24 MB HAR streams through the import worker: rows before the file is read through, then exactly the CLI's flows, findings and problems; both exports lint to the same", async () => {
    const path = join(scratch, "demo-copies.har");
    await writeFile(path, exportHar(copiesOfDemo(130)));
    const { size } = await stat(path);
    assert.ok(size > 20 * 2 ** 20 && size < 28 * 2 ** 20, `${size} bytes`);
    const cli = lint(path);
    assert.ok(
      cli.flows.length > 2000 && cli.findings.length > 500,
      `${cli.flows.length} flows, ${cli.findings.length} findings`,
    );

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    // Every message of the panel's import worker, as the panel receives it (the worker itself is the extension's).
    await page.addInitScript(() => {
      const steps: unknown[] = [];
      (window as unknown as { steps: unknown[] }).steps = steps;
      const Native = window.Worker;
      window.Worker = class extends Native {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          this.addEventListener("message", (event: MessageEvent) => {
            const m = event.data as {
              kind: string;
              records: number;
              bytes: number;
              size: number;
              done: boolean;
              changes: {
                flows: {
                  id: string;
                  kind: string;
                  status: string;
                  method: string;
                  target: string | null;
                  rounds: unknown[];
                }[];
                findings: { rule: string; flow: string | null; pointer: string; message: string }[];
                problems: { message: string }[];
              };
            };
            if (m.kind !== "progress") return void steps.push({ kind: m.kind });
            steps.push({
              kind: m.kind,
              records: m.records,
              bytes: m.bytes,
              size: m.size,
              done: m.done,
              flows: m.changes.flows.map(
                (f) => `${f.id} ${f.kind} ${f.status} ${f.method} ${f.target} ${f.rounds.length}`,
              ),
              findings: m.changes.findings.map((f) => `${f.rule} ${f.flow} ${f.pointer} ${f.message}`),
              problems: m.changes.problems.map((p) => p.message),
            });
          });
        }
      };
    });
    await page.setViewportSize({ width: 1400, height: 700 });
    await page.goto(`chrome-extension://${browser.extensionId}/panel.html`);
    await page.getByLabel("Import HAR or JSONL file").setInputFiles(path);
    await page.waitForFunction(
      () => document.querySelector('[role="status"].source')?.textContent === "file",
      undefined,
      { timeout: 120_000 },
    );
    const steps = await page.evaluate(() => (window as unknown as { steps: Step[] }).steps);

    // Progressive: steps before the last, some with rows while the file was still being read.
    const progress = steps.filter((s) => s.kind === "progress");
    assert.equal(steps.at(-1)!.kind, "done");
    assert.deepEqual(
      progress.map((s) => s.done),
      [...progress.slice(1).map(() => false), true],
    );
    const early = progress.filter((s) => s.flows!.length > 0 && s.bytes! < s.size!);
    assert.ok(
      early.length > 0,
      `rows before the file was read through: ${progress.map((s) => `${s.flows!.length}@${s.bytes}`).join(" ")}`,
    );
    assert.ok(early[0]!.records! < progress.at(-1)!.records!, "the first rows came before the last records");
    assert.ok(
      progress.every(
        (s, i) => i === 0 || (s.bytes! >= progress[i - 1]!.bytes! && s.records! >= progress[i - 1]!.records!),
      ),
      "bytes read and records grow",
    );
    assert.equal(progress.at(-1)!.bytes, size);

    // The steps applied in order are the CLI's report: each flow's latest state, every finding and problem once.
    const flows = new Map<string, string>();
    for (const s of progress) for (const f of s.flows!) flows.set(f.split(" ")[0]!, f);
    assert.deepEqual([...flows.values()], cli.flows);
    assert.deepEqual(
      progress.flatMap((s) => s.findings!),
      cli.findings,
    );
    assert.deepEqual(
      progress.flatMap((s) => s.problems!),
      cli.problems,
    );
    // And the panel shows it.
    assert.equal(
      await page.locator('section[aria-label="flows section"] h2').textContent(),
      `Flows (${cli.flows.length})`,
    );
    assert.equal(
      await page.locator('section[aria-label="findings section"] h2').textContent(),
      `Findings (${cli.findings.length})`,
    );

    // Both exports (redacted, the default) finish and lint to the same flows and findings.
    for (const button of ["Export JSONL", "Export HAR"]) {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: button }).click(),
      ]);
      const saved = join(scratch, `export.${button.endsWith("HAR") ? "har" : "jsonl"}`);
      await download.saveAs(saved);
      const back = lint(saved);
      assert.deepEqual(back.flows, cli.flows, button);
      assert.deepEqual(back.findings, cli.findings, button);
      assert.deepEqual(back.problems, [], button);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
