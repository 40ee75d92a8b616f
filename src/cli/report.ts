import { envelopeLabel } from "../capture/envelopes/index.ts";
import type { Finding, Flow, Problem } from "../engine/index.ts";
import { severityRank, type Severity } from "../engine/rules/types.ts";

/** One analysed capture file, as the CLI reports it. */
export interface FileReport {
  file: string;
  flows: Flow[];
  findings: Finding[];
  /** Problems of the input itself: import errors and messages the engine could not read. */
  problems: Problem[];
  /** Set when several files were analysed as one session (`file` is then their names joined by " + "). */
  session?: string[];
}

/** In a session, each finding names its file (src/cli/session.ts). */
const fileOf = (x: Finding): string | undefined => (x as Finding & { file?: string }).file;

/** The stable `--json` schema (docs/cli.md). */
export function toJson(files: FileReport[]) {
  const summary = { errors: 0, warnings: 0, info: 0 };
  const out = files.map((f) => {
    for (const x of f.findings) summary[x.severity === "error" ? "errors" : x.severity === "warning" ? "warnings" : "info"]++;
    return {
      file: f.file,
      ...(f.session && { session: f.session }),
      flows: f.flows.map((flow) => ({
        id: flow.id,
        kind: flow.kind,
        revision: flow.revision,
        method: flow.method,
        target: flow.target,
        rounds: flow.rounds.length,
        status: flow.status,
        elicitations: flow.elicitations.map((e) => ({ key: e.key, mode: e.mode, action: e.action, elicitationId: e.elicitationId ?? null, completed: e.completed })),
      })),
      findings: f.findings.map((x) => ({
        rule: x.rule,
        severity: x.severity,
        violator: x.violator,
        flow: x.flow,
        ...(f.session && { file: fileOf(x) ?? null }),
        entry: x.entry,
        pointer: x.pointer,
        message: x.message,
      })),
      problems: f.problems.map((p) => ({
        ...(f.session && { file: p.file ?? null }),
        entry: p.entry ?? (f.session ? p.record : undefined) ?? null,
        line: p.line ?? null,
        message: p.message,
      })),
    };
  });
  return { files: out, summary };
}

const codes = { red: 31, yellow: 33, blue: 34, green: 32, dim: 2, bold: 1, cyan: 36 } as const;
type Color = keyof typeof codes;

const ms = (n: number): string => (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);
const one = (v: unknown, max = 70): string => {
  const s = typeof v === "string" ? v : JSON.stringify(v) ?? "";
  // Captured text is untrusted: strip control characters (terminal escapes) before printing.
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, " ");
  return clean.length > max ? clean.slice(0, max - 1) + "…" : clean;
};

/** A problem with its place in front, once: the importers' messages often begin with it already. */
function located(p: Problem): string {
  const where = p.entry !== undefined ? `entry ${p.entry}: ` : p.line !== undefined ? `line ${p.line}: ` : "";
  return where === "" || p.message.startsWith(where) ? p.message : where + p.message;
}

/** Human output: flows with their elicitations and findings, then a summary line. */
export function toText(files: FileReport[], color: boolean): string {
  const c = (name: Color, s: string) => (color ? `\x1b[${codes[name]}m${s}\x1b[0m` : s);
  const sev = (s: Severity) => c(s === "error" ? "red" : s === "warning" ? "yellow" : "blue", s.padEnd(7));
  const lines: string[] = [];
  let errors = 0, warnings = 0, info = 0, flowCount = 0;
  for (const f of files) {
    lines.push(c("bold", f.file));
    for (const p of f.problems) lines.push(`  ${c("red", "problem")} ${one(located(p), 200)}`);
    if (f.flows.length === 0) lines.push(c("dim", "  no elicitation flows"));
    const byFlow = new Map<string | null, Finding[]>();
    for (const x of f.findings) {
      if (x.severity === "error") errors++;
      else if (x.severity === "warning") warnings++;
      else info++;
      byFlow.set(x.flow, [...(byFlow.get(x.flow) ?? []), x]);
    }
    const where = (x: Finding) => `${f.session ? `${one(fileOf(x) ?? "", 60)} ` : ""}entry ${x.entry}`;
    const findingLine = (x: Finding) =>
      `      ${sev(x.severity)} ${c("cyan", x.rule)} ${c("dim", `${where(x)}${x.pointer ? " " + x.pointer : ""}`)}\n` +
      `        ${one(x.message, 200)}`;
    for (const flow of f.flows) {
      flowCount++;
      const status = flow.status === "complete" ? c("green", flow.status) : flow.status === "pending" ? c("yellow", flow.status) : c("red", flow.status);
      lines.push(`  ${c("bold", flow.id)} ${flow.kind} ${one(flow.revision ?? "unknown revision", 30)} ${one(flow.method, 60)}${flow.target ? " " + one(flow.target, 50) : ""} — ${flow.rounds.length} round${flow.rounds.length === 1 ? "" : "s"}, ${status}, server ${ms(flow.serverMs)}, user ${ms(flow.userMs)}`);
      lines.push(c("dim", `    ${flow.server}${flow.via ? ` via ${flow.via}` : ""}${flow.envelope ? ` (${envelopeLabel(flow.envelope)})` : ""}`));
      for (const e of flow.elicitations) {
        const answer = e.action ?? (e.mode === "url" ? "no answer on the wire" : "unanswered");
        lines.push(`    • ${e.mode} ${c("bold", one(e.key, 40))} ${one(e.message, 60)} → ${answer}${e.completed ? c("green", " ✓ completed") : ""}`);
      }
      for (const x of byFlow.get(flow.id) ?? []) lines.push(findingLine(x));
    }
    const loose = byFlow.get(null) ?? [];
    if (loose.length) {
      lines.push("  outside any flow:");
      for (const x of loose) lines.push(findingLine(x));
    }
    lines.push("");
  }
  lines.push(`${flowCount} flow${flowCount === 1 ? "" : "s"}: ${c(errors ? "red" : "green", `${errors} error${errors === 1 ? "" : "s"}`)}, ${c(warnings ? "yellow" : "green", `${warnings} warning${warnings === 1 ? "" : "s"}`)}, ${info} info`);
  return lines.join("\n");
}

export const atLeast = (min: Severity) => (f: Finding) => severityRank[f.severity] >= severityRank[min];
