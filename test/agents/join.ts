import { spawnSync } from "node:child_process";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";
import { expectedOutcomes, type Route } from "./expect.ts";
import type { Turn } from "./scenario.ts";
import type { RelayWitness } from "./witness.ts";

/**
 * The page's capture and the backend's, as one session: in time order, numbered again (each capture numbers its
 * own records). `pageWatched`: the page's side was watched live (a tab), so an ask never relayed is news even when
 * the page received nothing at all.
 */
export function analyzeJoined(page: readonly CaptureRecord[], backend: readonly CaptureRecord[], pageWatched: boolean) {
  const records = sessionRecords(page, backend);
  return { records, ...analyze(records, { pageWatched }) };
}

export const sessionRecords = (page: readonly CaptureRecord[], backend: readonly CaptureRecord[]): CaptureRecord[] =>
  [...page, ...backend].sort((a, b) => a.time - b.time).map((r, seq) => ({ ...r, seq }) as CaptureRecord);

/** A joined flow as the tests compare it with both wires' witnesses. */
export interface JoinedFlow {
  target: string;
  /** What the server was answered (the backend wire). */
  backend: string | null;
  /** The relayed ask's id in the page, and what the user answered there (absent when the page never got the ask). */
  page?: { id: string | undefined; action: string | undefined };
}

/** The tool calls the session shows (a relay flow joined into a backend flow is not shown apart). */
export function joinedFlows(flows: readonly Flow[]): JoinedFlow[] {
  return flows
    .filter((f) => f.method === "tools/call" && f.joinedInto === undefined)
    .map((f) => {
      const el = f.elicitations[0];
      const relay = el?.relay;
      return {
        target: f.target ?? "",
        backend: el?.action ?? null,
        ...(relay && { page: { id: relay.id, action: relay.action } }),
      };
    });
}

/**
 * What both wires say the joined flows must be: the server's own results (what it was answered) and Playwright's
 * view of the page (the asks relayed to it in order, the user's answer to each by id).
 */
export function expectedJoin(turns: readonly Turn[], said: readonly string[], seen: RelayWitness): JoinedFlow[] {
  const outcomes = expectedOutcomes(turns, said);
  let asked = 0;
  return turns.map((turn, i) => {
    const backend = outcomes[i]!.actions[0] ?? null;
    if (turn.shown === false) return { target: turn.tool, backend };
    const ask = seen.asks[asked++];
    const answer = seen.answers.find((a) => a.id === ask?.id);
    return { target: turn.tool, backend, page: { id: ask?.id, action: answer?.action } };
  });
}

/**
 * The relay findings (rule ids, sorted) each agent must raise, turn by turn: none for the faithful one; a yes/no ask
 * swallowed, an answer altered, a URL loaded before the user accepted it (the page's request for it: in a HAR, and
 * live, where the tap records the page's fetch of a relayed ask's URL).
 */
export function expectedRelayRules(route: Route, turns: readonly Turn[]): string[] {
  const rule = (t: Turn): string | undefined =>
    route === "swallow" && t.shown === false
      ? "relay-ask-not-shown"
      : route === "alter"
        ? "relay-answer-altered"
        : route === "open-url" && t.tool === "sign_in"
          ? "relay-url-opened-unasked"
          : undefined;
  return turns.flatMap((t) => rule(t) ?? []).sort();
}

export const relayRules = (findings: readonly Finding[]): string[] =>
  findings
    .filter((f) => f.rule.startsWith("relay-"))
    .map((f) => f.rule)
    .sort();

/**
 * Both relay latencies of each joined flow: the ask shown after (page ask − agent ask) and the answer forwarded after
 * (server answer − page answer), where both ends happened. The two clocks (the proxy's, the browser's) are one
 * machine's: a latency is a few ms to a few seconds, never far negative.
 */
export function latencyProblems(flows: readonly Flow[]): string[] {
  const problems: string[] = [];
  const sane = (ms: unknown) => typeof ms === "number" && ms > -50 && ms < 30_000;
  for (const flow of flows) {
    const relay = flow.elicitations[0]?.relay;
    if (flow.joinedInto !== undefined || !relay) continue;
    if (!sane(relay.askMs)) problems.push(`${flow.id}: ask shown after ${relay.askMs} ms`);
    const forwarded = relay.answeredAt !== undefined && flow.elicitations[0]!.answeredAt !== undefined;
    if (forwarded && !sane(relay.answerMs)) problems.push(`${flow.id}: answer forwarded after ${relay.answerMs} ms`);
  }
  return problems;
}

/**
 * The extension's records of a tab once its relay records number `expected` (the asks and answers Playwright saw
 * cross the page's wire) and `done` says the rest are in: the tap and the panel's feed hand records on in batches,
 * so the last ones may still be on their way.
 */
export async function settledRecords(
  records: () => Promise<CaptureRecord[]>,
  expected: number,
  done: (records: CaptureRecord[]) => boolean = () => true,
): Promise<CaptureRecord[]> {
  let got: CaptureRecord[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    got = await records();
    if (got.filter((r) => r.kind === "message" && r.envelope?.startsWith("relay:")).length >= expected && done(got))
      return got;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return got;
}

/**
 * `mcp-elicit lint --json <files…>` as a user runs it: its one report (a session, when a backend capture is among
 * them).
 */
export function lintJson(files: readonly string[]): { exit: number | null; report: LintReport } {
  const r = spawnSync(process.execPath, ["bin/mcp-elicit.js", "lint", "--json", ...files], { encoding: "utf8" });
  if (!r.stdout.trim()) throw new Error(`mcp-elicit lint printed nothing (exit ${r.status}):\n${r.stderr}`);
  const report = (JSON.parse(r.stdout) as { files: LintReport[] }).files;
  if (report.length !== 1) throw new Error(`mcp-elicit lint gave ${report.length} reports, not one session`);
  return { exit: r.status, report: report[0]! };
}

export interface LintReport {
  file: string;
  session?: string[];
  flows: {
    id: string;
    method: string;
    target: string | null;
    status: string;
    elicitations: { action: string | null }[];
  }[];
  findings: { rule: string; severity: string; flow: string | null; message: string }[];
  problems: unknown[];
}

/** The engine's flows and findings in the CLI report's terms, to compare the two. */
export function asLint(flows: readonly Flow[], findings: readonly Finding[]) {
  return {
    flows: flows
      .filter((f) => f.joinedInto === undefined)
      .map((f) => ({
        id: f.id,
        method: f.method,
        target: f.target,
        status: f.status,
        actions: f.elicitations.map((e) => e.action),
      })),
    findings: findings.map((f) => `${f.severity} ${f.rule} ${f.flow ?? ""} ${f.message}`).sort(),
  };
}

export const lintView = (report: LintReport) => ({
  flows: report.flows.map((f) => ({
    id: f.id,
    method: f.method,
    target: f.target,
    status: f.status,
    actions: f.elicitations.map((e) => e.action),
  })),
  findings: report.findings.map((f) => `${f.severity} ${f.rule} ${f.flow ?? ""} ${f.message}`).sort(),
});
