import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { importHar } from "../../src/capture/har/import.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { ensureBuilt } from "../extension/built.ts";
import { launchWithExtension, type ExtensionBrowser } from "../extension/chromium.ts";
import { readPanel } from "../hosts/panel.ts";
import { startLegacyServer, type PeerServer } from "../peers/legacyServer.ts";
import { startModernServer } from "../peers/modernServer.ts";
import { backendOutcomes, expectedOutcomes, type Route } from "./expect.ts";
import { pageHar } from "./har.ts";
import {
  analyzeJoined,
  asLint,
  expectedJoin,
  expectedRelayRules,
  joinedFlows,
  latencyProblems,
  lintJson,
  lintView,
  relayRules,
  settledRecords,
} from "./join.ts";
import { addBackend, lanesAndBackendFilter, listedFlows, panelProblems } from "./panel.ts";
import { startProxyCli, type RunningProxy } from "./proxy.ts";
import { play, withPlainChromium, type Turn } from "./scenario.ts";
import { witness, type RelayWitness } from "./witness.ts";

/** A hosted-agent stack under test: how to start its agents, faithful and faulty, and reach their pages. */
export interface Stack<R extends Route> {
  name: string;
  /** What the user does with each agent: `faithful` is also the baseline's (no proxy, no extension). */
  routes: Record<R, Turn[]> & { faithful: Turn[] };
  /**
   * Starts the agents: `direct` reaches the servers itself (the baseline), every route through its own proxy
   * (`proxied[route]`: server name → the proxy's URL for it). Returns the page URL of each agent.
   */
  start(direct: Record<string, string>, proxied: Record<R, Record<string, string>>): Promise<Agents<R>>;
  /** Waits until the agent's page is ready for the user (e.g. its socket is open). */
  ready?(page: Page): Promise<void>;
}

export interface Agents<R extends Route> {
  page(route: R | "direct"): string;
  /** What the agent of a route handed the MCP client for each ask, where the stack can tell (the AI SDK app). */
  forwarded?(route: R | "direct"): unknown[];
  close(): Promise<void>;
}

interface Run {
  url: string;
  said: string[];
  seen: RelayWitness;
  tabId?: number;
}

const answered = (turns: readonly Turn[]) => turns.filter((t) => t.shown !== false && t.answer !== "ignore");
const actionOf = (turn: Turn): string =>
  typeof turn.answer === "string" ? (turn.answer === "open" ? "accept" : turn.answer) : "accept";
/** The legacy server numbers its URL-mode consents across sessions: two runs' asks differ by that count only. */
const consents = (asks: unknown) => JSON.stringify(asks).replace(/consent-\d+/g, "consent-#");

/**
 * The end-to-end suite of one stack against real SDK servers of both eras (test/peers), driven in Chromium through the
 * agent's own page. The baseline runs the faithful agent without proxy or extension; then every agent runs in its own
 * tab of Chromium with the extension, reaching the servers through its own `mcp-elicit proxy` (so each tab's backend
 * is its own), Chromium recording a HAR. The witnesses: the servers' own results (what they were answered) and
 * Playwright's view of the page's wire (the relayed asks and the user's answers).
 */
export function describeStack<R extends Route>(stack: Stack<R>): void {
  const routes = Object.keys(stack.routes) as R[];
  describe(`${stack.name}: both eras, through mcp-elicit proxy, in Chromium with the extension`, {
    timeout: 300_000,
  }, () => {
    let dir: string;
    let legacy: PeerServer;
    let modern: PeerServer;
    let agents: Agents<R>;
    let extension: ExtensionBrowser;
    const proxies = {} as Record<R, RunningProxy>;
    const runs = {} as Record<R | "direct", Run>;
    const backend = {} as Record<R, CaptureRecord[]>;
    const panels: Page[] = [];

    before(async () => {
      ensureBuilt();
      dir = await mkdtemp(join(tmpdir(), "mcp-agents-"));
      legacy = await startLegacyServer();
      modern = await startModernServer();
      const servers = { legacy: legacy.url, modern: modern.url };
      for (const route of routes) proxies[route] = await startProxyCli(servers, join(dir, `${route}.jsonl`));
      const proxied = Object.fromEntries(routes.map((route) => [route, proxies[route].urls])) as Record<
        R,
        Record<string, string>
      >;
      agents = await stack.start(servers, proxied);
      extension = await launchWithExtension({ recordHar: join(dir, "page.har") });
    });

    after(async () => {
      for (const panel of panels) await panel.close().catch(() => undefined);
      await extension?.close();
      for (const proxy of Object.values<RunningProxy>(proxies)) await proxy.stop().catch(() => undefined);
      await agents?.close();
      await legacy?.close();
      await modern?.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Opens the agent's page, lets `opened` act (add the backend in the panel), and plays the turns. */
    const run = async (page: Page, url: string, turns: readonly Turn[], opened?: () => Promise<void>): Promise<Run> => {
      const seeing = witness(page, new URL(url).origin);
      await page.goto(url);
      await stack.ready?.(page);
      if (opened) {
        await opened();
        await page.bringToFront(); // a background tab's animation frames are throttled, and the user is back in the app
      }
      const said = await play(page, turns);
      for (const [i, turn] of turns.entries())
        assert.match(said[i]!, turn.result, `turn ${i + 1} (${turn.server} ${turn.tool}): ${said[i]}`);
      return { url, said, seen: await seeing.settled() };
    };

    test("baseline, no proxy, no extension: what the user answers in the page reaches the servers of both eras", async () => {
      const turns = stack.routes.faithful;
      runs.direct = await withPlainChromium((page) => run(page, agents.page("direct"), turns));
      assert.deepEqual(
        runs.direct.seen.answers.map((a) => a.action),
        answered(turns).map(actionOf),
      );
      assert.equal(runs.direct.seen.asks.length, turns.length, "each ask was relayed to the page");
    });

    test("through the proxy, with the extension: each agent runs its turns in its own tab, its backend added in the panel", async () => {
      for (const route of routes) {
        const tab = await extension.openTab("about:blank"); // the tab stays open: the worker forgets a closed tab's records
        // As a user does: the app open, then its panel, the proxy's feed added with Backend…, then the app used.
        const opened = async () => void panels.push(await addBackend(extension, tab.tabId, proxies[route].feed));
        runs[route] = { ...(await run(tab.page, agents.page(route), stack.routes[route], opened)), tabId: tab.tabId };
        const turns = stack.routes[route];
        assert.equal(
          runs[route].seen.asks.length,
          turns.filter((t) => t.shown !== false).length,
          `${route}: asks the page got`,
        );
        assert.deepEqual(
          runs[route].seen.answers.map((a) => a.action),
          answered(turns).map(actionOf),
          `${route}: the user's answers`,
        );
      }
    });

    test("the faithful agent and its page behave the same with and without the proxy and the extension", () => {
      const faithful = runs["faithful" as R];
      assert.ok(faithful && runs.direct, "the runs of the tests before");
      assert.deepEqual(faithful.said, runs.direct.said);
      assert.deepEqual(faithful.seen.responses, runs.direct.seen.responses);
      assert.deepEqual(faithful.seen.errors, runs.direct.seen.errors);
      assert.equal(
        consents(faithful.seen.asks),
        consents(runs.direct.seen.asks),
        "the same asks relayed, in the same app shape",
      );
      assert.deepEqual(faithful.seen.answers, runs.direct.seen.answers);
      if (agents.forwarded)
        assert.deepEqual(agents.forwarded("faithful" as R), agents.forwarded("direct"), "what the agent forwarded");
    });

    test("the proxy recorded each agent's backend wire: one flow per turn, with what the server was answered", async () => {
      for (const route of routes) backend[route] = await proxies[route].stop();
      for (const route of routes) {
        const flows = analyze(backend[route]).flows;
        assert.deepEqual(backendOutcomes(flows), expectedOutcomes(stack.routes[route], runs[route].said), route);
        // Both clients probe with server/discover: a 2.x server's asks come as input_required rounds (2026-07-28),
        // a 1.x server's, after the fallback to initialize, as elicitation/create requests (2025-11-25).
        const era = (t: Turn) => (t.server === "modern" ? "mrtr 2026-07-28" : "server-request 2025-11-25");
        const calls = flows.filter((f) => f.method === "tools/call");
        assert.deepEqual(
          calls.map((f) => `${f.kind} ${f.revision}`),
          stack.routes[route].map(era),
          `${route}: each era's mechanism`,
        );
        const sent = (method: string) =>
          backend[route].some(
            (r) => r.kind === "message" && r.direction === "c2s" && r.text.includes(`"method":"${method}"`),
          );
        assert.ok(sent("server/discover"), `${route}: the client probed with server/discover`);
        assert.equal(
          sent("initialize"),
          stack.routes[route].some((t) => t.server === "legacy"),
          `${route}: initialize only for the 1.x server`,
        );
        assert.ok(
          backend[route].every((r) => r.source === "backend"),
          `${route}: every record is the backend's`,
        );
      }
    });

    test("the extension's capture of each tab and its proxy's, as one session: each elicitation is one flow across both wires, with the relay findings of the faulty agents only", async () => {
      for (const route of routes) {
        const { seen, tabId, said } = runs[route];
        const page = await settledRecords(() => extension.records(tabId!), seen.asks.length + seen.answers.length);
        const { flows, findings, problems } = analyzeJoined(page, backend[route], true);
        assert.deepEqual(problems, [], route);
        assert.deepEqual(joinedFlows(flows), expectedJoin(stack.routes[route], said, seen), route);
        assert.deepEqual(relayRules(findings), expectedRelayRules(route, stack.routes[route]), route);
        assert.deepEqual(latencyProblems(flows), [], route);
      }
    });

    test("live, the panel joins each tab's capture with its backend's feed: each elicitation one flow across both wires, the relay findings of the faulty agents only, lanes, source: filter", async () => {
      for (const route of routes) {
        const { seen, tabId, said } = runs[route];
        // The worker holds every message the proxy wrote, in its order (numbered into the tab's capture); the ends of
        // streams the proxy cut as it stopped are in its file only (the feed had closed).
        const texts = (rs: CaptureRecord[]) =>
          rs.flatMap((r) => (r.kind === "message" ? [`${r.direction} ${r.text}`] : []));
        const fed = (records: CaptureRecord[]) =>
          texts(records.filter((r) => r.source === "backend")).length >= texts(backend[route]).length;
        const records = await settledRecords(
          () => extension.records(tabId!),
          seen.asks.length + seen.answers.length,
          fed,
        );
        assert.deepEqual(
          texts(records.filter((r) => r.source === "backend")),
          texts(backend[route]),
          `${route}: the feed's records`,
        );
        // The live tab's page is watched, so an ask never relayed is news even when the page received nothing.
        const { flows, findings } = analyze(records, { pageWatched: true });
        assert.deepEqual(joinedFlows(flows), expectedJoin(stack.routes[route], said, seen), route);
        assert.deepEqual(relayRules(findings), expectedRelayRules(route, stack.routes[route]), route);
        assert.deepEqual(latencyProblems(flows), [], route);
        // A page ask recorded before its backend elicitation joined it afterwards: not a row of its own.
        const listed = listedFlows(flows);
        let shown = { lanes: [] as string[], backendShown: -1 };
        const view = await readPanel(
          extension,
          tabId!,
          { flows: listed.length, findings: findings.length },
          async (panel) => {
            await panel.getByRole("heading", { name: `Flows (${listed.length})` }).waitFor({ timeout: 20_000 });
            shown = await lanesAndBackendFilter(panel, listed);
          },
        );
        assert.deepEqual(panelProblems(view, shown.lanes, flows, findings), [], route);
        assert.equal(
          shown.backendShown,
          flows.filter((f) => f.source === "backend").length,
          `${route}: source:backend`,
        );
      }
    });

    test("the page's HAR (saved by Chromium) and the proxy's JSONL give the same flows and findings, in-process and through mcp-elicit lint", async () => {
      await extension.close(); // Chromium writes the HAR as it closes
      for (const route of routes) {
        const harPath = join(dir, `${route}.har`);
        await writeFile(harPath, await pageHar(join(dir, "page.har"), runs[route].url));
        const { records, problems } = importHar(await readFile(harPath, "utf8"), `${route}.har`);
        assert.deepEqual(problems, [], route);
        const { flows, findings } = analyzeJoined(records, backend[route], false);
        assert.deepEqual(
          joinedFlows(flows),
          expectedJoin(stack.routes[route], runs[route].said, runs[route].seen),
          route,
        );
        assert.deepEqual(relayRules(findings), expectedRelayRules(route, stack.routes[route]), route);
        // The CLI, given the page's HAR and the proxy's JSONL: one session, the same flows and findings.
        const lint = lintJson([harPath, join(dir, `${route}.jsonl`)]);
        assert.deepEqual(lint.report.problems, [], route);
        assert.deepEqual(lintView(lint.report), asLint(flows, findings), route);
      }
    });
  });
}
