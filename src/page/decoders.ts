import { MAX_DECODE_RULES, MAX_RULE_URL } from "../shared/tags.ts";
import { compilePattern, matchesPattern, type UrlPattern } from "../util/urlPattern.ts";
import {
  append,
  ArrayIsArray,
  JSONParse,
  ReflectGetOwnPropertyDescriptor,
  StringPrototypeToUpperCase,
} from "./primordials.ts";

/** A decode rule as the tap needs it: where it applies. Its JSON pointer and direction are the worker's business. */
interface Compiled {
  /** The pattern cut at its `*`s (src/util/urlPattern.ts). */
  parts: UrlPattern;
  method: string | undefined;
}

export interface DecoderMatcher {
  /** Whether some rule is set: with none, no hook looks further. */
  any(): boolean;
  /**
   * Whether traffic to `url` with `method` is decoded ("Decode as MCP"). A pattern with `*` matches the whole URL,
   * each `*` standing for any run of characters; without one, any URL that contains it. A rule without a method
   * matches every method and traffic that has none (WebSocket frames, window messages); one with a method, only
   * requests with that method.
   */
  matches(url: string, method: string | undefined): boolean;
  /** Replaces the rules by those of the relay's JSON text (src/content/decoders.ts); anything malformed is skipped. */
  set(json: unknown): void;
}

export function createDecoderMatcher(): DecoderMatcher {
  let rules: Compiled[] = [];
  return {
    any: () => rules.length > 0,
    matches(url, method) {
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (rule.method !== undefined && (method === undefined || StringPrototypeToUpperCase(method) !== rule.method))
          continue;
        if (matchesPattern(rule.parts, url)) return true;
      }
      return false;
    },
    set(json) {
      if (typeof json !== "string") return;
      let list: unknown;
      try {
        list = JSONParse(json);
      } catch {
        return;
      }
      if (!ArrayIsArray(list)) return;
      const next: Compiled[] = [];
      const length = (list as unknown[]).length;
      for (let i = 0; i < length && i < MAX_DECODE_RULES; i++) {
        const rule = compile((list as unknown[])[i]);
        if (rule) append(next, rule);
      }
      rules = next;
    },
  };
}

/** A JSON.parse result's own member: never a getter of Object.prototype's. */
const own = (value: object, key: string): unknown => ReflectGetOwnPropertyDescriptor(value, key)?.value;

function compile(rule: unknown): Compiled | undefined {
  if (rule === null || typeof rule !== "object") return undefined;
  const url = own(rule, "url");
  const method = own(rule, "method");
  if (typeof url !== "string" || url.length === 0 || url.length > MAX_RULE_URL) return undefined;
  if (method !== undefined && (typeof method !== "string" || method.length === 0 || method.length > 16))
    return undefined;
  return { parts: compilePattern(url), method: method === undefined ? undefined : StringPrototypeToUpperCase(method) };
}
