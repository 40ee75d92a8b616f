import * as z from "zod/mini";
import { validateDecodeRule, type DecodeRule } from "../capture/envelopes/index.ts";
import type { EngineOptions, Level } from "./index.ts";
import { ruleMeta } from "./rules/metas.ts";
import { severityRank, type Severity } from "./rules/types.ts";

/**
 * What a team sets once and every host applies: the CLI (`mcp-elicit.config.json`, flags on top), the worker
 * (kept in storage.local) and the panel's file import. The file is docs/cli.md's "Configuration file".
 */
export interface Settings {
  /** A level per rule id; rules not named keep the catalogue's severity. */
  levels: Record<string, Level>;
  /** SEP-2260 strict profile (`--strict-2260`). */
  strict2260: boolean;
  /** "Decode as MCP" rules: where MCP travels inside a host's own envelope. */
  decode: DecodeRule[];
  /** The least severity that fails a run (exit status 1); `never`: findings never fail it. */
  failOn: FailOn;
}

export const LEVELS = ["off", "info", "warning", "error"] as const satisfies readonly Level[];
export const FAIL_ON = ["info", "warning", "error", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];

export const CONFIG_FILE = "mcp-elicit.config.json";

export const defaultSettings = (): Settings => ({ levels: {}, strict2260: false, decode: [], failOn: "error" });

/** The engine's share of the settings (decode rules belong to the importers, the threshold to the host). */
export const engineOptions = (settings: Settings): EngineOptions => ({ levels: settings.levels, strict2260: settings.strict2260 });

/** Whether findings of this severity fail a run. */
export const fails = (settings: Pick<Settings, "failOn">, severity: Severity): boolean =>
  settings.failOn !== "never" && severityRank[severity] >= severityRank[settings.failOn];

const ConfigFile = z.strictObject({
  $schema: z.optional(z.string()),
  rules: z.optional(z.record(z.string(), z.enum(LEVELS))),
  strict2260: z.optional(z.boolean()),
  decode: z.optional(z.array(z.unknown())),
  failOn: z.optional(z.enum(FAIL_ON)),
});

const pointerOf = (path: readonly PropertyKey[]): string =>
  path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");

/** Line and column (1-based) of a character offset, for a JSON syntax error. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/**
 * A configuration file's text as settings, or the one sentence that says what is wrong and where: a line and
 * column for broken JSON, a JSON pointer for a value of the wrong shape or an unknown rule id.
 */
export function parseConfig(text: string): Settings | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    return { error: `not JSON${at ? ` at ${lineColumn(text, Number(at[1]))}` : ""}: ${message}` };
  }
  return readConfig(value);
}

/** A parsed configuration value as settings, or the error naming where (a JSON pointer). */
export function readConfig(value: unknown): Settings | { error: string } {
  const parsed = ConfigFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = pointerOf(issue.path) || "/";
    const known = "$schema, rules, strict2260, decode, failOn";
    const hint = issue.code === "unrecognized_keys" ? ` (a configuration has ${known})` : "";
    return { error: `at ${where}: ${issue.message}${hint}` };
  }
  const config = parsed.data;
  const settings = defaultSettings();
  for (const [id, level] of Object.entries(config.rules ?? {})) {
    if (!ruleMeta(id)) return { error: `at ${pointerOf(["rules", id])}: unknown rule id ${JSON.stringify(id)} (mcp-elicit rules lists them)` };
    settings.levels[id] = level;
  }
  const ids = new Set<string>();
  for (const [i, raw] of (config.decode ?? []).entries()) {
    const rule = validateDecodeRule(raw);
    if (typeof rule === "string") return { error: `at /decode/${i}: ${rule}` };
    if (ids.has(rule.id)) return { error: `at /decode/${i}/id: decode rule id ${JSON.stringify(rule.id)} is given twice` };
    ids.add(rule.id);
    settings.decode.push(rule);
  }
  settings.strict2260 = config.strict2260 ?? false;
  settings.failOn = config.failOn ?? "error";
  return settings;
}

export const isSettings = (x: Settings | { error: string }): x is Settings => !("error" in x);

/** Settings as a configuration file's value, with only what differs from the defaults (rules sorted by id). */
export function configValue(settings: Settings) {
  const rules = Object.fromEntries(Object.entries(settings.levels).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...(Object.keys(rules).length > 0 && { rules }),
    ...(settings.strict2260 && { strict2260: true }),
    ...(settings.decode.length > 0 && { decode: settings.decode }),
    ...(settings.failOn !== "error" && { failOn: settings.failOn }),
  };
}

/** Settings as a configuration file's text (the panel's export). */
export const configText = (settings: Settings): string => JSON.stringify(configValue(settings), null, 2) + "\n";
