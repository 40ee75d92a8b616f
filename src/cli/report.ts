import { envelopeLabel } from "../capture/envelopes/index.ts";
import type { Finding, Flow, Problem } from "../engine/index.ts";
import { severityRank, type Severity } from "../engine/ruleKit/types.ts";

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
    for (const x of f.findings)
      summary[x.severity === "error" ? "errors" : x.severity === "warning" ? "warnings" : "info"]++;
    return {
      file: f.file,
      ...(f.session && { session: f.session }),
      flows: f.flows.map(flowJson),
      findings: f.findings.map(findingJson(f.session)),
      problems: f.problems.map(problemJson(f.session)),
    };
  });
  return { files: out, summary };
}

const flowJson = (flow: Flow) => ({
  id: flow.id,
  kind: flow.kind,
  revision: flow.revision,
  method: flow.method,
  target: flow.target,
  rounds: flow.rounds.length,
  status: flow.status,
  elicitations: flow.elicitations.map((e) => ({
    key: e.key,
    mode: e.mode,
    action: e.action,
    elicitationId: e.elicitationId ?? null,
    completed: e.completed,
  })),
});
const findingJson = (session: string[] | undefined) => (x: Finding) => ({
  rule: x.rule,
  severity: x.severity,
  violator: x.violator,
  flow: x.flow,
  ...(session && { file: fileOf(x) ?? null }),
  entry: x.entry,
  pointer: x.pointer,
  message: x.message,
});
const problemJson = (session: string[] | undefined) => (p: Problem) => ({
  ...(session && { file: p.file ?? null }),
  entry: p.entry ?? (session ? p.record : undefined) ?? null,
  line: p.line ?? null,
  message: p.message,
});

/**
 * `JSON.stringify(toJson(files), null, 2)` in parts, a flow, a finding or a problem at a time: the report of a
 * large capture is never one object tree and one string beside the engine's own state.
 */
export function* toJsonParts(files: FileReport[]): Generator<string> {
  const summary = { errors: 0, warnings: 0, info: 0 };
  const at = (json: string, depth: number): string => json.replace(/\n/g, `\n${"  ".repeat(depth)}`);
  function* list<T>(items: readonly T[], json: (item: T) => unknown, depth: number): Generator<string> {
    if (items.length === 0) return yield "[]";
    const pad = "  ".repeat(depth + 1);
    for (let i = 0; i < items.length; i++)
      yield `${i ? "," : "["}\n${pad}${at(JSON.stringify(json(items[i]!), null, 2), depth + 1)}`;
    yield `\n${"  ".repeat(depth)}]`;
  }
  yield files.length ? '{\n  "files": [' : '{\n  "files": [],';
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    for (const x of f.findings)
      summary[x.severity === "error" ? "errors" : x.severity === "warning" ? "warnings" : "info"]++;
    yield `${i ? "," : ""}\n    {\n      "file": ${JSON.stringify(f.file)},`;
    if (f.session) yield `\n      "session": ${at(JSON.stringify(f.session, null, 2), 3)},`;
    yield '\n      "flows": ';
    yield* list(f.flows, flowJson, 3);
    yield ',\n      "findings": ';
    yield* list(f.findings, findingJson(f.session), 3);
    yield ',\n      "problems": ';
    yield* list(f.problems, problemJson(f.session), 3);
    yield "\n    }";
  }
  if (files.length) yield "\n  ],";
  yield `\n  "summary": ${at(JSON.stringify(summary, null, 2), 1)}\n}`;
}

const codes = { red: 31, yellow: 33, blue: 34, green: 32, dim: 2, bold: 1, cyan: 36 } as const;
type Color = keyof typeof codes;

const ms = (n: number): string => (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);

/**
 * Captured text is untrusted, and a terminal obeys what it prints: ESC starts CSI and OSC sequences (OSC 0 renames
 * the window, OSC 52 writes the clipboard, CSI erases lines), BEL ends OSC, and C1 controls (U+0080–U+009F, CSI as
 * U+009B, OSC as U+009D) do the same in 8-bit terminals. Every C0 and C1 control, DEL, the bidi overrides and
 * isolates (Trojan Source), the line and paragraph separators and zero-width format characters become a space.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** The one sanitizer of the text output: every string from a capture (or naming one) goes through it. */
export function printable(v: unknown, max = Infinity): string {
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? "");
  const clean = s.replace(UNPRINTABLE, " ");
  return clean.length > max ? clean.slice(0, max - 1) + "…" : clean;
}
const one = (v: unknown, max = 70): string => printable(v, max);

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
  let errors = 0,
    warnings = 0,
    info = 0,
    flowCount = 0;
  for (const f of files) {
    lines.push(c("bold", printable(f.file)));
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
      `      ${sev(x.severity)} ${c("cyan", printable(x.rule))} ${c("dim", `${where(x)}${x.pointer ? " " + printable(x.pointer, 120) : ""}`)}\n` +
      `        ${one(x.message, 200)}`;
    for (const flow of f.flows) {
      flowCount++;
      const status =
        flow.status === "complete"
          ? c("green", flow.status)
          : flow.status === "pending"
            ? c("yellow", flow.status)
            : c("red", flow.status);
      lines.push(
        `  ${c("bold", printable(flow.id, 80))} ${printable(flow.kind)} ${one(flow.revision ?? "unknown revision", 30)} ${one(flow.method, 60)}${flow.target ? " " + one(flow.target, 50) : ""} — ${flow.rounds.length} round${flow.rounds.length === 1 ? "" : "s"}, ${status}, server ${ms(flow.serverMs)}, user ${ms(flow.userMs)}`,
      );
      lines.push(
        c(
          "dim",
          `    ${printable(flow.server, 200)}${flow.via ? ` via ${printable(flow.via, 200)}` : ""}${flow.envelope ? ` (${printable(envelopeLabel(flow.envelope))})` : ""}`,
        ),
      );
      for (const e of flow.elicitations) {
        const answer = e.action ?? (e.mode === "url" ? "no answer on the wire" : "unanswered");
        lines.push(
          `    • ${printable(e.mode)} ${c("bold", one(e.key, 40))} ${one(e.message, 60)} → ${printable(answer, 40)}${e.completed ? c("green", " ✓ completed") : ""}`,
        );
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
  lines.push(
    `${flowCount} flow${flowCount === 1 ? "" : "s"}: ${c(errors ? "red" : "green", `${errors} error${errors === 1 ? "" : "s"}`)}, ${c(warnings ? "yellow" : "green", `${warnings} warning${warnings === 1 ? "" : "s"}`)}, ${info} info`,
  );
  return lines.join("\n");
}

export const atLeast = (min: Severity) => (f: Finding) => severityRank[f.severity] >= severityRank[min];
