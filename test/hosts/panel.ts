import type { Page } from "playwright-core";
import assert from "node:assert/strict";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";
import type { ExtensionBrowser } from "../extension/chromium.ts";
import type { FlowWithVia } from "./wire.ts";

/** One flow row of the panel by column (`data-col`, panel/views/FlowList.tsx), the Server cell with its tooltip. */
export interface PanelFlowRow {
  id: string;
  server: string;
  serverTitle: string;
  method: string;
  target: string;
  status: string;
  /** The Via column (shown while any flow went through a proxy, a backend or an envelope) and its tooltip. */
  via: string | null;
  viaTitle: string;
  /** The Outcome column (issue 9 item 5: accept / decline / cancel / `error <code>` / waiting). */
  outcome: string | null;
}

export interface PanelView {
  flows: PanelFlowRow[];
  /** [severity, rule, message, flow, entry] (panel/views/FindingList.tsx). */
  findings: string[][];
  /** Everything the panel shows as text (for what must never be on screen). */
  text: string;
  /** Per flow, what its detail shows: the head, then every tab of "Flow detail" (Story, Messages, Form, …) in turn. */
  details: string[];
}

/** The panel's finding row for an engine finding. */
export const findingRow = (f: Finding): string[] => [f.severity, f.rule, f.message, f.flow ?? "", String(f.record)];

/** What the engine says each flow's Outcome cell shows: the elicitations' actions, in order. */
export function outcomeOf(flow: Flow): string {
  return flow.elicitations.map((e) => e.action ?? "waiting").join(", ");
}

/**
 * Opens `panel.html?tabId=N` as a page (chrome.devtools is absent there, the panel takes the tab from the query),
 * lets `prepare` act in it as a user would (add a backend, import a file), waits until its headings count `expect`,
 * and reads its tables.
 */
export async function readPanel(
  browser: ExtensionBrowser,
  tabId: number,
  expect: { flows: number; findings: number },
  prepare?: (panel: Page) => Promise<void>,
): Promise<PanelView> {
  const panel: Page = await browser.context.newPage();
  try {
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${tabId}`);
    await prepare?.(panel);
    try {
      await panel.getByRole("heading", { name: `Flows (${expect.flows})` }).waitFor({ timeout: 20_000 });
      await panel.getByRole("heading", { name: `Findings (${expect.findings})` }).waitFor({ timeout: 20_000 });
    } catch (error) {
      const shown = await panel.evaluate(() => document.body.innerText).catch(() => "(unreadable)");
      throw new Error(
        `the panel never showed ${expect.flows} flows and ${expect.findings} findings; it shows:\n${shown.slice(0, 3000)}`,
        { cause: error },
      );
    }
    // Each flow opened, each of its detail tabs shown: where the story, the messages and the form preview are.
    const details: string[] = [];
    const rows = panel.locator("tr[data-flow]");
    for (let i = 0; i < (await rows.count()); i++) {
      await rows.nth(i).click();
      const detail = panel.locator(".detail");
      await detail.waitFor({ timeout: 10_000 });
      let text = await detail.innerText();
      const tabs = detail.getByRole("tablist", { name: "Flow detail" }).getByRole("tab");
      for (let t = 0; t < (await tabs.count()); t++) {
        await tabs.nth(t).click();
        text += `\n${await detail.getByRole("tabpanel").innerText()}`;
      }
      details.push(text);
    }
    // No named functions inside: tsx's keepNames would reference its `__name` helper, which the page lacks.
    const view = await panel.evaluate(() => ({
      flows: [...document.querySelectorAll("tr[data-flow]")].map((row) => ({
        id: row.querySelector('td[data-col="id"]')?.textContent ?? "",
        server: row.querySelector('td[data-col="server"]')?.textContent ?? "",
        serverTitle: row.querySelector('td[data-col="server"]')?.getAttribute("title") ?? "",
        method: row.querySelector('td[data-col="method"]')?.textContent ?? "",
        target: row.querySelector('td[data-col="target"]')?.textContent ?? "",
        status: row.querySelector('td[data-col="status"]')?.textContent ?? "",
        via: row.querySelector('td[data-col="via"]')?.textContent ?? null,
        viaTitle: row.querySelector('td[data-col="via"]')?.getAttribute("title") ?? "",
        outcome: row.querySelector('td[data-col="outcome"]')?.textContent ?? null,
      })),
      findings: [...document.querySelectorAll("tr[data-finding]")].map((row) =>
        ["severity", "rule", "message", "flow", "entry"].map(
          (c) => row.querySelector(`td[data-col="${c}"]`)?.textContent ?? "",
        ),
      ),
      text: document.body.innerText,
    }));
    return { ...view, details };
  } finally {
    await panel.close();
  }
}

/** The panel rows the engine's flows should give (the Server cell names the upstream, with the proxy beside it). */
export function expectedRows(
  flows: readonly Flow[],
): Omit<PanelFlowRow, "server" | "serverTitle" | "via" | "viaTitle">[] {
  return flows.map((f) => ({
    id: f.id,
    method: f.method,
    target: f.target ?? "",
    status: f.status,
    outcome: outcomeOf(f),
  }));
}

/**
 * The Server cell must name the upstream, and the Via cell beside it the proxy or backend it went through (its
 * tooltip the full origin and path) or the envelope it came in.
 */
export function serverCellProblems(rows: readonly PanelFlowRow[], flows: readonly Flow[]): string[] {
  const problems: string[] = [];
  for (const [i, row] of rows.entries()) {
    const flow = flows[i] as FlowWithVia | undefined;
    if (!flow) continue;
    const shown = `${row.server} ${row.serverTitle}`;
    if (!shown.includes(flow.server))
      problems.push(`flow ${row.id}: the Server cell (${JSON.stringify(shown)}) does not name ${flow.server}`);
    if (flow.via && !row.viaTitle.includes(flow.via))
      problems.push(
        `flow ${row.id}: the Via cell (${JSON.stringify(`${row.via} ${row.viaTitle}`)}) does not name ${flow.via}`,
      );
    if ((flow.via || flow.envelope) && !row.via)
      problems.push(`flow ${row.id}: no Via cell, though the flow came via ${flow.via ?? flow.envelope}`);
  }
  return problems;
}

/**
 * The checks every host test makes of the panel: the extension's records give the host's two flows; the panel's rows
 * and findings are the engine's; its Server cells name each flow's upstream; the form's field names are shown while
 * the typed secret is on no screen (so masking is what hides it). Returns the view for a host's own checks.
 */
export async function assertPanelShowsCapture(
  browser: ExtensionBrowser,
  tabId: number,
  secret: string,
): Promise<PanelView> {
  const engine = analyze(await browser.records(tabId));
  assert.equal(engine.flows.length, 2, "the two calls are the panel's flows (an empty panel proves nothing)");
  const view = await readPanel(browser, tabId, { flows: engine.flows.length, findings: engine.findings.length });
  assert.deepEqual(
    view.flows.map(({ server: _s, serverTitle: _t, via: _v, viaTitle: _vt, ...row }) => row),
    expectedRows(engine.flows),
  );
  assert.deepEqual(serverCellProblems(view.flows, engine.flows), []);
  const sorted = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
  assert.deepEqual(sorted(view.findings), sorted(engine.findings.map(findingRow)));
  // Masked by default on screen: the list, and each flow's story, messages and form preview.
  assert.ok(
    view.details.some((text) => text.includes("api_key")),
    "the detail shows the form and the answer (their field names), so masking is what hides the key",
  );
  assert.ok(
    ![view.text, ...view.details].some((text) => text.includes(secret)),
    "the typed API key is masked in the panel by default",
  );
  return view;
}
