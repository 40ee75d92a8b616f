import { parseConfig } from "../../src/engine/configFile.ts";
import {
  configText,
  configValue,
  engineOptions,
  isSettings,
  LEVELS,
  readEngineSettings,
} from "../../src/engine/settings.ts";
import type { EngineOptions, Level } from "../../src/engine/index.ts";
import type { Decoder, DecoderInput } from "../../src/shared/decoders.ts";
import { canonicalJson } from "../../src/util/json.ts";
import type { ConfigValue } from "../../src/shared/panelProtocol.ts";

export { LEVELS };
export type LevelChoice = Level | "default";

/** A rule's level in the settings: undefined when the rule keeps its catalogue severity. */
export const levelOf = (config: ConfigValue, rule: string): Level | undefined =>
  (config.rules as Record<string, Level> | undefined)?.[rule];

/** The settings with one rule's level changed (`default`: back to the catalogue's severity). */
export function withLevel(config: ConfigValue, rule: string, level: LevelChoice): ConfigValue {
  const rules: Record<string, Level> = { ...(config.rules as Record<string, Level> | undefined) };
  if (level === "default") delete rules[rule];
  else rules[rule] = level;
  const { rules: _old, ...rest } = config;
  return { ...rest, ...(Object.keys(rules).length > 0 && { rules }) };
}

/** What an import's engine runs with: the worker's settings, as the panel has them. */
export function engineOptionsOf(config: ConfigValue): EngineOptions {
  const read = readEngineSettings(config);
  return isSettings(read) ? engineOptions(read) : {};
}

/** The settings with the strict profile on or off. */
export function withStrict(config: ConfigValue, on: boolean): ConfigValue {
  const { strict2260: _old, ...rest } = config;
  return { ...rest, ...(on && { strict2260: true as const }) };
}

/** The worker's settings and decode rules as `mcp-elicit.config.json` text (the panel's export). */
export function settingsFile(config: ConfigValue, decode: readonly Decoder[]): string {
  const read = readEngineSettings(config);
  const settings = isSettings(read) ? read : { levels: {}, strict2260: false, decode: [], failOn: "error" as const };
  return configText({ ...settings, decode: decode.map((r) => ({ ...r })) });
}

/** The same decoder whatever its id and label: what it matches and where it looks. */
const sameRule = (a: DecoderInput, b: DecoderInput): boolean => {
  const where = (d: DecoderInput): string => {
    const { label: _label, id: _id, ...rest } = d as DecoderInput & { id?: string };
    return canonicalJson({ ...rest, method: rest.method ?? "" });
  };
  return where(a) === where(b);
};

/**
 * A configuration file's text as the panel applies it: the settings to send the worker, and the decode rules it
 * lacks (the worker gives them ids of its own). Or where the file is wrong.
 */
export function importSettings(
  text: string,
  have: readonly Decoder[],
): { config: ConfigValue; decode: DecoderInput[] } | { error: string } {
  const parsed = parseConfig(text);
  if (!isSettings(parsed)) return parsed;
  const decode = parsed.decode
    .map(({ id: _id, ...rule }): DecoderInput => rule)
    .filter((rule) => !have.some((h) => sameRule(h, rule)));
  return { config: configValue({ ...parsed, decode: [] }), decode };
}
