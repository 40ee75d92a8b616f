import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import type { Page } from "playwright-core";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { ExtensionBrowser } from "./chromium.ts";

/** One file of `mcp-elicit lint --json`: what the Chromium tests compare the panel with. */
export type CliFile = {
  flows: {
    id: string;
    kind: string;
    revision: string | null;
    method: string;
    target: string | null;
    rounds: number;
    status: string;
    elicitations: { mode: string; action: string | null; completed: boolean }[];
  }[];
  findings: { rule: string; severity: string; flow: string | null; entry: number; message: string }[];
};

/** The CLI's report of `records`, exported as JSONL to `file`. */
export async function cliReport(records: CaptureRecord[], file: string): Promise<CliFile> {
  await writeFile(file, exportJsonl(records));
  const run = spawnSync(process.execPath, ["dist/cli/mcp-elicit.js", "lint", file, "--json"], { encoding: "utf8" });
  const report = JSON.parse(run.stdout) as { files: CliFile[] };
  return report.files[0]!;
}

/** The panel, opened as a page for the tab, must list exactly the CLI's flows and findings. `prepare` runs before it loads. */
export async function assertPanelShows(
  browser: ExtensionBrowser,
  tabId: number,
  expected: CliFile,
  prepare?: (panel: Page) => Promise<void>,
): Promise<void> {
  const panel = await browser.context.newPage();
  try {
    await prepare?.(panel);
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${tabId}`);
    await panel.getByRole("heading", { name: `Flows (${expected.flows.length})` }).waitFor({ timeout: 10_000 });
    await panel.getByRole("heading", { name: `Findings (${expected.findings.length})` }).waitFor({ timeout: 10_000 });
    const flowRows = panel.getByRole("table", { name: "Flows" }).getByRole("row", { name: /^flow / });
    assert.equal(await flowRows.count(), expected.flows.length);
    // The panel's columns by name (panel/views/FlowList.tsx, panel/views/FindingList.tsx write `data-col`).
    const cells = (selector: string, columns: string[]) =>
      panel.$$eval(
        selector,
        (rows, columns) =>
          rows.map((row) => columns.map((c) => row.querySelector(`td[data-col="${c}"]`)?.textContent ?? "")),
        columns,
      );
    assert.deepEqual(
      await cells("tr[data-flow]", ["id", "kind", "era", "method", "target", "status", "rounds"]),
      expected.flows.map((f) => [
        f.id,
        f.kind,
        f.revision ?? "unknown",
        f.method,
        f.target ?? "",
        f.status,
        String(f.rounds),
      ]),
    );
    if (expected.findings.length > 0)
      assert.equal(
        await panel
          .getByRole("table", { name: "Findings" })
          .getByRole("row", { name: /^finding / })
          .count(),
        expected.findings.length,
      );
    // The Findings view groups by rule (Expert Info), so rows come in another order than the engine's.
    const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(
      sorted(await cells("tr[data-finding]", ["severity", "rule", "message", "flow", "entry"])),
      sorted(expected.findings.map((f) => [f.severity, f.rule, f.message, f.flow ?? "", String(f.entry)])),
    );
  } finally {
    await panel.close();
  }
}
