import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import type { ExtensionBrowser } from "../extension/chromium.ts";
import type { Finding, Flow } from "../../src/engine/index.ts";
import { expectedRows, findingRow, type PanelView } from "../hosts/panel.ts";

/**
 * The panel of a tab, with a backend added as a user adds one: the toolbar's Backend… control, the feed URL the proxy
 * printed, Add backend; resolves once its feed is live. The panel stays open: it is what reads the feed.
 */
export async function addBackend(browser: ExtensionBrowser, tabId: number, feedUrl: string): Promise<Page> {
  const panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tabId=${tabId}`);
  await panel.getByRole("button", { name: /^Backend…/ }).click();
  const section = panel.getByRole("region", { name: "Agent backends" });
  await section.getByLabel("Feed URL").fill(feedUrl);
  await section.getByRole("button", { name: "Add backend" }).click();
  await section.locator('td[data-col="status"]', { hasText: "live" }).waitFor({ timeout: 15_000 });
  return panel;
}

/** The flows the panel lists: a page ask joined into a backend flow is told by that flow, not listed apart. */
export const listedFlows = (flows: readonly Flow[]): Flow[] => flows.filter((f) => f.joinedInto === undefined);

/**
 * In a panel showing `flows`: the timeline's lanes (their full names, from the labels' tooltips), and how many flows
 * the `source:backend` filter keeps (the Flows heading's "k of n").
 */
let shots = 0;

export async function lanesAndBackendFilter(
  panel: Page,
  flows: readonly Flow[],
): Promise<{ lanes: string[]; backendShown: number }> {
  // The timeline lays out at most every so often while flows stream in: wait for a lane per server and source.
  const count = new Set(flows.map((f) => `${f.source ?? ""} ${f.kind === "relay" ? "relay" : ""} ${f.server}`)).size;
  await panel
    .waitForFunction((n) => document.querySelectorAll(".tl-lane-label").length >= n, count, { timeout: 10_000 })
    .catch(() => undefined); // fewer lanes is what panelProblems reports
  const lanes = await panel.$$eval(".tl-lane-label", (labels) => labels.map((l) => l.getAttribute("title") ?? ""));
  // What a person sees of the session, for a look (test-artifacts/ is gitignored).
  await mkdir("test-artifacts", { recursive: true });
  await panel.screenshot({ path: `test-artifacts/agent-panel-${++shots}.png` });
  const filter = panel.getByLabel("Filter flows");
  await filter.fill("source:backend");
  const heading = panel.getByRole("heading", { name: new RegExp(`^Flows \\(\\d+ of ${flows.length}\\)$`) });
  await heading.waitFor({ timeout: 10_000 });
  const backendShown = Number(/\((\d+) of/.exec((await heading.textContent()) ?? "")?.[1]);
  await filter.fill("");
  return { lanes, backendShown };
}

/**
 * What the panel shows of a hosted agent's session that differs from the engine's flows and findings on the same
 * records, and from the relay each joined flow carries: its rows (outcome = what the server got), its findings, each
 * backend flow's agent → server lane (of the timeline's `lanes`), each joined flow's story telling the page's side (the app's shape and id
 * of the ask, the user's answer there). A page ask recorded before the backend's ask had its own relay flow when the
 * join came (`joinedInto`): the panel does not list it, the backend flow tells it whole.
 */
export function panelProblems(
  view: PanelView,
  lanes: readonly string[],
  all: readonly Flow[],
  findings: readonly Finding[],
): string[] {
  const problems: string[] = [];
  const flows = listedFlows(all);
  const rows = view.flows.map(({ id, method, target, status, outcome }) => ({ id, method, target, status, outcome }));
  if (JSON.stringify(rows) !== JSON.stringify(expectedRows(flows))) {
    problems.push(`rows ${JSON.stringify(rows)} are not the engine's ${JSON.stringify(expectedRows(flows))}`);
  }
  const sorted = (r: string[][]) => r.map((x) => JSON.stringify(x)).sort();
  if (JSON.stringify(sorted(view.findings)) !== JSON.stringify(sorted(findings.map(findingRow)))) {
    problems.push(`findings ${JSON.stringify(view.findings)} are not the engine's`);
  }
  for (const [i, flow] of flows.entries()) {
    const detail = view.details[i] ?? "";
    if (flow.source === "backend" && !lanes.some((lane) => lane.startsWith(`agent → ${flow.server}`))) {
      problems.push(`${flow.id}: no agent → ${flow.server} lane`);
    }
    const relay = flow.elicitations[0]?.relay;
    if (!relay) {
      if (detail.includes("relayed it to the page"))
        problems.push(`${flow.id}: the story tells a relay the engine did not join`);
      continue;
    }
    const told = [`The agent relayed it to the page (${relay.shape} ${relay.id})`];
    if (relay.action !== undefined) told.push(`In the page the user chose ${relay.action}`);
    for (const text of told) if (!detail.includes(text)) problems.push(`${flow.id}: the story does not say "${text}"`);
  }
  return problems;
}
