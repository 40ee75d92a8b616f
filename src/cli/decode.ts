import { readFile } from "node:fs/promises";
import { validateDecoder, validateDecoders, type Decoder } from "../capture/envelopes/index.ts";

const SHAPE =
  'a rule is {"id":"d1","url":"https://host/api/*","pointer":"/message","direction":"c2s"|"s2c"|"both"} with optional "method" and "label"';

/**
 * The decode rules of `--decode <json>` (each one rule) and `--decode-file <file>` (each a JSON array of rules),
 * validated: the rules, or the one sentence a usage error prints (exit 2).
 */
export async function readDecodeRules(
  inline: readonly string[],
  files: readonly string[],
): Promise<Decoder[] | string> {
  const rules: Decoder[] = [];
  for (const [i, text] of inline.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return `--decode ${i + 1} is not JSON (${(e as Error).message}); ${SHAPE}`;
    }
    const rule = validateDecoder(value);
    if (typeof rule === "string") return `--decode ${i + 1}: ${rule}`;
    rules.push(rule);
  }
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (e) {
      return `cannot read --decode-file ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return `--decode-file ${file} is not JSON (${(e as Error).message})`;
    }
    const { rules: more, errors } = validateDecoders(value);
    if (errors.length) return `--decode-file ${file}: ${errors.join("; ")}; ${SHAPE}`;
    rules.push(...more);
  }
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) return `decode rule id ${JSON.stringify(rule.id)} is given twice`;
    seen.add(rule.id);
  }
  return rules;
}
