import type { EngineOptions, Level } from "./index.ts";
import { isRuleId } from "./ruleKit/rules.ts";
import { severityRank, type RuleId, type Severity } from "./ruleKit/types.ts";
import type { Decoder } from "../capture/envelopes/types.ts";

/**
 * What a team sets once and every host applies: the CLI (`mcp-elicit.config.json`, flags on top), the worker
 * (kept in storage.local) and the panel's file import. The file is docs/cli.md's "Configuration file".
 */
export interface Settings {
  /** A level per rule id; rules not named keep the catalogue's severity. */
  levels: Partial<Record<RuleId, Level>>;
  /** SEP-2260 strict profile (`--strict-2260`). */
  strict2260: boolean;
  /** "Decode as MCP" rules: where MCP travels inside a host's own envelope. */
  decode: Decoder[];
  /** The least severity that fails a run (exit status 1); `never`: findings never fail it. */
  failOn: FailOn;
}

export const LEVELS = ["off", "info", "warning", "error"] as const satisfies readonly Level[];
export const FAIL_ON = ["info", "warning", "error", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];

export const CONFIG_FILE = "mcp-elicit.config.json";

export const defaultSettings = (): Settings => ({ levels: {}, strict2260: false, decode: [], failOn: "error" });

/** What the engine takes of the settings. */
export const engineOptions = (settings: Settings): EngineOptions => ({
  levels: settings.levels,
  strict2260: settings.strict2260,
});

/** Whether findings of this severity fail a run. */
export const fails = (settings: Pick<Settings, "failOn">, severity: Severity): boolean =>
  settings.failOn !== "never" && severityRank[severity] >= severityRank[settings.failOn];

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const ENGINE_KEYS = new Set(["rules", "strict2260", "failOn"]);

/** A configuration value without decode rules, checked by hand: the worker's bundle has no room for configFile.ts. */
export function readEngineSettings(value: unknown): Settings | { error: string } {
  if (!isObj(value)) return { error: "at /: the settings are a JSON object" };
  const settings = defaultSettings();
  for (const [key, v] of Object.entries(value)) {
    if (!ENGINE_KEYS.has(key)) return { error: `at /${key}: not an engine setting (rules, strict2260, failOn)` };
    if (key === "strict2260" && typeof v !== "boolean") return { error: "at /strict2260: true or false" };
    if (key === "strict2260") settings.strict2260 = v === true;
    if (key === "failOn" && !FAIL_ON.includes(v as FailOn))
      return { error: `at /failOn: one of ${FAIL_ON.join(", ")}` };
    if (key === "failOn") settings.failOn = v as FailOn;
  }
  const rules = value.rules ?? {};
  if (!isObj(rules)) return { error: "at /rules: an object of rule id to level" };
  for (const [id, level] of Object.entries(rules)) {
    const at = `/rules/${id.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!isRuleId(id)) return { error: `at ${at}: unknown rule id ${JSON.stringify(id)}` };
    if (!LEVELS.includes(level as Level)) return { error: `at ${at}: one of ${LEVELS.join(", ")}` };
    settings.levels[id] = level as Level;
  }
  return settings;
}

export const isSettings = (x: Settings | { error: string }): x is Settings => !("error" in x);

/** Settings as a configuration value: what differs from the defaults. */
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
