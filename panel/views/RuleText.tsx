import { ruleMeta } from "../../src/engine/index.ts";

/** The catalogue's explanation of a rule (its title in ../shared/rules.md). */
export const ruleTitle = (rule: string): string => ruleMeta(rule)?.title ?? rule;

/** Catalogue text with its `code` spans, as text nodes only. */
export function RuleText({ text }: { text: string }) {
  const parts = text.split("`");
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
