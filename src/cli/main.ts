import { parseArgs } from "node:util";
import type { Decoder } from "../capture/envelopes/index.ts";
import { readDecodeRules } from "./decode.ts";
import { notChecked, rules as catalogue } from "../engine/rules/index.ts";
import pkg from "../../package.json" with { type: "json" };
import type { Severity } from "../engine/rules/types.ts";
import { proxyCommand } from "./proxy/command.ts";
import { toJson, toText } from "./report.ts";
import { lintFiles } from "./session.ts";

const USAGE = `Usage: mcp-elicit lint [options] <capture.har|capture.jsonl|->…
       mcp-elicit rules [--json]
       mcp-elicit proxy <upstream-url> [--port N] [--out capture.jsonl]   (mcp-elicit proxy --help)

lint: analyses MCP elicitation traffic in HAR or JSONL captures and checks it against the rule catalogue.
"-" reads a capture from standard input.
rules: lists the catalogue's rules (id, default severity, revisions, whether lint checks it, title).

Options:
  --json                  print the stable JSON report (docs/cli.md)
  --min-severity <level>  show findings of this severity and above: info (default), warning, error
  --disable <rule>        drop a rule (repeatable, or comma-separated)
  --strict-2260           SEP-2260 strict profile: unrelated and GET-stream elicitations are errors
  --session               analyse all the files as one session (automatic when one is an mcp-elicit proxy capture)
  --decode <rule>         "decode as MCP": a JSON rule {"id","url","pointer","direction"[,"method","label"]}
                          saying where MCP travels inside a host's own envelope (repeatable; docs/cli.md)
  --decode-file <file>    a JSON array of such rules (repeatable)
  --no-color              no colours (also when NO_COLOR is set or output is not a terminal)
  -h, --help              this help
  --version               the version

Exit status: 0 no error-severity finding, 1 at least one, 2 an input that could not be read.`;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "proxy") return proxyCommand(argv.slice(1));
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        "min-severity": { type: "string", default: "info" },
        disable: { type: "string", multiple: true, default: [] },
        "strict-2260": { type: "boolean", default: false },
        session: { type: "boolean", default: false },
        decode: { type: "string", multiple: true, default: [] },
        "decode-file": { type: "string", multiple: true, default: [] },
        "no-color": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    console.error(`mcp-elicit: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.version) {
    console.log(`mcp-elicit ${pkg.version}`);
    return 0;
  }
  const [command, ...files] = positionals;
  if (command === "rules") {
    if (files.length > 0) {
      console.error(`mcp-elicit: rules takes no files (lint reads them)\n\n${USAGE}`);
      return 2;
    }
    process.stdout.write(rulesList(values.json) + "\n");
    return 0;
  }
  if (command !== "lint" || files.length === 0) {
    console.error(command && command !== "lint" ? `mcp-elicit: unknown command "${command}"\n\n${USAGE}` : USAGE);
    return 2;
  }
  const min = values["min-severity"] as Severity;
  if (!["info", "warning", "error"].includes(min)) {
    console.error(`mcp-elicit: --min-severity must be info, warning or error, not "${min}"`);
    return 2;
  }
  const disable = values.disable.flatMap((d) => d.split(",")).map((d) => d.trim()).filter(Boolean);
  const known = new Set<string>(catalogue.map((r) => r.id));
  const unknown = disable.filter((d) => !known.has(d));
  if (unknown.length) {
    console.error(`mcp-elicit: unknown rule id${unknown.length > 1 ? "s" : ""} for --disable: ${unknown.join(", ")}`);
    return 2;
  }

  const decoded = await readDecodeRules(values.decode, values["decode-file"]);
  if (typeof decoded === "string") {
    console.error(`mcp-elicit: ${decoded}\n\n${USAGE}`);
    return 2;
  }
  const rules: Decoder[] = decoded;

  const { reports, unreadable } = await lintFiles(files, {
    engine: { disable, strict2260: values["strict-2260"] },
    rules,
    min,
    session: values.session,
  });

  const color = !values["no-color"] && !values.json && process.stdout.isTTY === true && !process.env.NO_COLOR;
  process.stdout.write((values.json ? JSON.stringify(toJson(reports), null, 2) : toText(reports, color)) + "\n");
  if (unreadable) return 2;
  return reports.some((r) => r.findings.some((f) => f.severity === "error")) ? 1 : 0;
}

/** The registry's rules as `mcp-elicit rules` prints them, module by module: every rule id, so `--disable` can be written without guessing. */
function rulesList(json: boolean): string {
  const rows = catalogue.map((r) => ({
    id: r.id,
    severity: r.severity,
    revisions: r.revisions,
    violator: r.violator,
    checked: !(r.id in notChecked),
    ...(r.id in notChecked && { why: notChecked[r.id] }),
    title: r.title,
  }));
  if (json) return JSON.stringify(rows, null, 2);
  const width = Math.max(...rows.map((r) => r.id.length));
  const lines = rows.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.checked ? "checked" : "not    "}  ${r.revisions}: ${r.title.replace(/`/g, "")}`);
  const unchecked = rows.filter((r) => !r.checked).length;
  return [...lines, "", `${rows.length} rules; lint checks ${rows.length - unchecked}, the other ${unchecked} are explained in docs/rules.md ("Not checked").`].join("\n");
}
