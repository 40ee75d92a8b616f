import * as z from "zod/mini";
import { validateDecoder } from "../capture/envelopes/decoders.ts";
import { isRuleId } from "./ruleKit/rules.ts";
import { defaultSettings, FAIL_ON, LEVELS, type Settings } from "./settings.ts";

// The configuration file (mcp-elicit.config.json, docs/cli.md) as the CLI and the panel's Import read it: checked
// with zod, and every error says where — a line and column for broken JSON, a JSON pointer for a wrong value.

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
    if (!isRuleId(id))
      return {
        error: `at ${pointerOf(["rules", id])}: unknown rule id ${JSON.stringify(id)} (mcp-elicit rules lists them)`,
      };
    settings.levels[id] = level;
  }
  const ids = new Set<string>();
  for (const [i, raw] of (config.decode ?? []).entries()) {
    const rule = validateDecoder(raw);
    if (typeof rule === "string") return { error: `at /decode/${i}: ${rule}` };
    if (ids.has(rule.id))
      return { error: `at /decode/${i}/id: decode rule id ${JSON.stringify(rule.id)} is given twice` };
    ids.add(rule.id);
    settings.decode.push(rule);
  }
  settings.strict2260 = config.strict2260 ?? false;
  settings.failOn = config.failOn ?? "error";
  return settings;
}
