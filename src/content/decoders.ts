import { MAX_DECODE_RULES, MAX_RULE_URL } from "../shared/tags.ts";

/** Where the relay gets the decode rules: storage.local, written by the worker (src/background/decoderBook.ts). */
export interface RuleSource {
  /** The stored rule set (the value under DECODERS_KEY), or undefined. */
  read(): Promise<unknown>;
  /** Calls `listener` with each new stored rule set. */
  onChange(listener: (value: unknown) => void): void;
}

/**
 * Hands the tap (over its private channel, src/content/listen.ts) the URL patterns and methods of the decode rules:
 * the stored ones as this frame starts, then each new set the worker stores. Every frame of every open page learns
 * of a change this way, whether or not its relay has a port open to the worker, and without waking the worker.
 * The stored set carries a revision: a read that settles after a newer change does not undo it.
 *
 * The set is checked by hand, as the relay checks the worker's acks (uplink.ts): a schema library would cost every
 * frame its download. The worker validated each rule when it was added (src/shared/decoders.ts), the tap checks
 * each again as it compiles them (src/page/decoders.ts).
 */
export function feedRules(source: RuleSource, toTap: (json: string) => void): void {
  let revision = -1;
  const take = (value: unknown): void => {
    const set = ruleSet(value);
    if (!set || set.rev <= revision) return;
    // The tap starts with no rules: nothing to tell it until there are some.
    if (revision === -1 && set.rules.length === 0) {
      revision = set.rev;
      return;
    }
    revision = set.rev;
    toTap(JSON.stringify(set.rules));
  };
  try {
    source.onChange(take);
    source.read().then(take, () => undefined);
  } catch {
    // No storage API (an older build's manifest): the tap runs without decode rules.
  }
}

/** What the tap needs of a stored rule set, or undefined when it is not one. */
function ruleSet(value: unknown): { rev: number; rules: { url: string; method?: string }[] } | undefined {
  const v = value as { rev?: unknown; rules?: unknown } | null | undefined;
  if (
    typeof v !== "object" ||
    v === null ||
    !Number.isInteger(v.rev) ||
    !Array.isArray(v.rules) ||
    v.rules.length > MAX_DECODE_RULES
  )
    return undefined;
  const rules: { url: string; method?: string }[] = [];
  for (const rule of v.rules as unknown[]) {
    const r = rule as { url?: unknown; method?: unknown } | null;
    if (
      typeof r !== "object" ||
      r === null ||
      typeof r.url !== "string" ||
      r.url.length === 0 ||
      r.url.length > MAX_RULE_URL
    )
      continue;
    if (r.method !== undefined && typeof r.method !== "string") continue;
    rules.push(r.method === undefined ? { url: r.url } : { url: r.url, method: r.method });
  }
  return { rev: v.rev as number, rules };
}
