import type { Finding, Flow } from "../../engine/index.ts";
import { fails } from "../../engine/settings.ts";
import { placeOf, type FormatInput, type Linted } from "./types.ts";
import { xmlAttr, xmlText } from "./xml.ts";

// JUnit XML as CI dashboards read it (the Ant/Surefire shape): a testsuite per capture file, a testcase per flow,
// a failure per finding at or above the failing threshold, the other findings in the testcase's system-out.

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

/** How a flow is named in a report: method, target and flow id. */
const flowName = (flow: Flow): string => `${flow.method}${flow.target ? " " + flow.target : ""} (${flow.id})`;

function where(file: Linted, f: Finding): string {
  const place = placeOf(file, f.entry, f.record);
  const at =
    place.line !== undefined
      ? `line ${place.line}`
      : place.entry !== undefined
        ? `entry ${place.entry}`
        : `record ${f.record}`;
  return `${file.file} ${at}${f.pointer ? " " + f.pointer : ""}`;
}

function testcase(
  file: Linted,
  name: string,
  time: number,
  findings: readonly Finding[],
  input: FormatInput,
): string[] {
  const failing = findings.filter((f) => fails(input.settings, f.severity));
  const others = findings.filter((f) => !fails(input.settings, f.severity));
  const head = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(file.file)}" time="${seconds(time)}"`;
  if (findings.length === 0) return [head + "/>"];
  const out = [head + ">"];
  for (const f of failing) {
    out.push(
      `      <failure message="${xmlAttr(`${f.rule}: ${f.message}`)}" type="${xmlAttr(f.rule)}">` +
        xmlText(`${f.severity} ${f.rule} at ${where(file, f)}\n${f.message}\n${f.spec}`) +
        "</failure>",
    );
  }
  const listed = others.map((f) => `${f.severity} ${f.rule} at ${where(file, f)}: ${f.message}`).join("\n");
  if (others.length) out.push(`      <system-out>${xmlText(listed)}</system-out>`);
  out.push("    </testcase>");
  return out;
}

/** The run as JUnit XML. Findings outside any flow go in a testcase named "session"; unreadable input is an error. */
export function toJunit(input: FormatInput): string {
  const lines: string[] = [];
  let tests = 0,
    failures = 0,
    errors = 0;
  for (const file of input.files) {
    const byFlow = new Map<string | null, Finding[]>();
    for (const f of file.findings) byFlow.set(f.flow, [...(byFlow.get(f.flow) ?? []), f]);
    const cases = file.flows.flatMap((flow) =>
      testcase(file, flowName(flow), flow.serverMs + flow.userMs, byFlow.get(flow.id) ?? [], input),
    );
    const loose = byFlow.get(null) ?? [];
    if (loose.length) cases.push(...testcase(file, "session", 0, loose, input));
    if (file.problems.length) {
      const text = file.problems.map((p) => p.message).join("\n");
      cases.push(
        `    <testcase name="capture" classname="${xmlAttr(file.file)}" time="0.000">`,
        `      <error message="${xmlAttr(file.problems[0]!.message)}" type="problem">${xmlText(text)}</error>`,
        "    </testcase>",
      );
    }
    const t = file.flows.length + (loose.length ? 1 : 0) + (file.problems.length ? 1 : 0);
    const f = file.findings.filter((x) => fails(input.settings, x.severity)).length;
    const e = file.problems.length ? 1 : 0;
    tests += t;
    failures += f;
    errors += e;
    lines.push(
      `  <testsuite name="${xmlAttr(file.file)}" tests="${t}" failures="${f}" errors="${e}" skipped="0">`,
      ...cases,
      "  </testsuite>",
    );
  }
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="mcp-elicit lint" tests="${tests}" failures="${failures}" errors="${errors}">`,
    ...lines,
    "</testsuites>",
  ].join("\n");
}
