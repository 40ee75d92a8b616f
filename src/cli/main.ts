import { parseArgs } from "node:util";
import { readDecodeRules } from "./decode.ts";
import { isRuleId, rules as catalogue } from "../engine/ruleKit/rules.ts";
import { notChecked } from "../engine/rules/unchecked.ts";
import { engineOptions, FAIL_ON, fails, type FailOn } from "../engine/settings.ts";
import pkg from "../../package.json" with { type: "json" };
import type { Severity } from "../engine/ruleKit/types.ts";
import { loadSettings } from "./config.ts";
import { FORMATS, render, type Format } from "./formats/index.ts";
import { proxyCommand } from "./proxy/command.ts";
import { replayMain, REPLAY_USAGE } from "./replay/main.ts";
import { toJsonParts } from "./report.ts";
import { lintFiles } from "./session.ts";

const USAGE = `Usage: mcp-elicit lint [options] <capture.har|capture.jsonl|->…
       mcp-elicit rules [--json]
       ${REPLAY_USAGE}
       mcp-elicit proxy <upstream-url> [--port N] [--out capture.jsonl]   (mcp-elicit proxy --help)

lint: analyses MCP elicitation traffic in HAR or JSONL captures and checks it against the rule catalogue.
"-" reads a capture from standard input.
rules: lists the catalogue's rules (id, default severity, revisions, whether lint checks it, title).
replay: plays a captured server back to a client under test (docs/ci.md).

Options:
  --format <format>       text (default), json, sarif, junit or github (annotations); docs/cli.md
  --json                  the same as --format json: the stable JSON report (docs/cli.md)
  --config <file>         settings (rule levels, strict profile, decode rules, failOn); default: the nearest
                          mcp-elicit.config.json from the working directory upward. Flags apply on top.
  --fail-on <level>       exit 1 when a finding is this severe or more: error (default), warning, info, never
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

Exit status: 0 no finding at the failing threshold, 1 at least one, 2 an input or configuration that could not be read.`;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "replay") return replayMain(argv.slice(1));
  if (argv[0] === "proxy") return proxyCommand(argv.slice(1));
  const parse = () =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        format: { type: "string" },
        config: { type: "string" },
        "fail-on": { type: "string" },
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
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
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
  const disable = values.disable
    .flatMap((d) => d.split(","))
    .map((d) => d.trim())
    .filter(Boolean);
  const unknown = disable.filter((d) => !isRuleId(d));
  if (unknown.length) {
    console.error(`mcp-elicit: unknown rule id${unknown.length > 1 ? "s" : ""} for --disable: ${unknown.join(", ")}`);
    return 2;
  }

  const format = (values.format ?? (values.json ? "json" : "text")) as Format;
  if (!FORMATS.includes(format) || (values.json && format !== "json")) {
    console.error(
      `mcp-elicit: --format must be one of ${FORMATS.join(", ")}${values.json ? " (and --json means json)" : ""}, not "${values.format}"`,
    );
    return 2;
  }
  const failOn = values["fail-on"] as FailOn | undefined;
  if (failOn !== undefined && !FAIL_ON.includes(failOn)) {
    console.error(`mcp-elicit: --fail-on must be ${FAIL_ON.join(", ")}, not "${failOn}"`);
    return 2;
  }
  const loaded = await loadSettings(values.config);
  if (typeof loaded === "string") {
    console.error(`mcp-elicit: ${loaded}`);
    return 2;
  }
  const decoded = await readDecodeRules(values.decode, values["decode-file"]);
  if (typeof decoded === "string") {
    console.error(`mcp-elicit: ${decoded}\n\n${USAGE}`);
    return 2;
  }
  // Flags go on top of the file: --disable turns rules off, --strict-2260 and --fail-on win, --decode adds rules.
  const settings = loaded.settings;
  for (const id of disable) if (isRuleId(id)) settings.levels[id] = "off";
  if (values["strict-2260"]) settings.strict2260 = true;
  if (failOn !== undefined) settings.failOn = failOn;
  const rules = [...settings.decode, ...decoded];
  const ids = new Set<string>();
  const twice = rules.find((r) => ids.size === ids.add(r.id).size);
  if (twice) {
    console.error(`mcp-elicit: decode rule id ${JSON.stringify(twice.id)} is given twice (configuration and --decode)`);
    return 2;
  }
  settings.decode = rules;

  const { reports, unreadable } = await lintFiles(files, {
    engine: engineOptions(settings),
    rules,
    min,
    session: values.session,
  });

  const color = !values["no-color"] && format === "text" && process.stdout.isTTY === true && !process.env.NO_COLOR;
  // JSON in parts: the report of a large capture is never one string beside the engine's state.
  if (format === "json") await writeParts(toJsonParts(reports));
  else process.stdout.write(render(format, { files: reports, settings, version: pkg.version }, color) + "\n");
  if (unreadable) return 2;
  return reports.some((r) => r.findings.some((f) => fails(settings, f.severity))) ? 1 : 0;
}

/** The registry's rules as `mcp-elicit rules` prints them, module by module: every rule id, so `--disable` can be written without guessing. */
function rulesList(json: boolean): string {
  const rows = catalogue.map((r) => ({
    id: r.id,
    severity: r.severity,
    revisions: r.revisions,
    violator: r.violatorNote ?? r.violator,
    checked: !(r.id in notChecked),
    ...(r.id in notChecked && { why: notChecked[r.id] }),
    title: r.title,
  }));
  if (json) return JSON.stringify(rows, null, 2);
  const width = Math.max(...rows.map((r) => r.id.length));
  const lines = rows.map(
    (r) =>
      `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.checked ? "checked" : "not    "}  ${r.revisions}: ${r.title.replace(/`/g, "")}`,
  );
  const unchecked = rows.filter((r) => !r.checked).length;
  return [
    ...lines,
    "",
    `${rows.length} rules; lint checks ${rows.length - unchecked}, the other ${unchecked} are explained in docs/rules.md ("Not checked").`,
  ].join("\n");
}

/** Writes the parts to standard output a megabyte at a time, waiting for it to drain: never one string of all. */
async function writeParts(parts: Iterable<string>): Promise<void> {
  let out = "";
  const flush = async (): Promise<void> => {
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once("drain", resolve));
    out = "";
  };
  for (const part of parts) {
    out += part;
    if (out.length >= 1 << 20) await flush();
  }
  out += "\n";
  await flush();
}
