import type { Severity } from "../engine/ruleKit/types.ts";

export interface Badge {
  text: string;
  color: string;
  title: string;
}

const COLORS: Record<Severity, string> = { error: "#c5221f", warning: "#b06000", info: "#1967d2" };
const TITLE = "MCP Elicitation Inspector";

/** The toolbar badge of a tab: how many findings of the worst severity, in that severity's colour. */
export function badgeFor(counts: Readonly<Record<Severity, number>>): Badge {
  const worst = (["error", "warning", "info"] as const).find((severity) => counts[severity] > 0);
  if (!worst) return { text: "", color: COLORS.info, title: TITLE };
  const n = counts[worst];
  const parts = (["error", "warning", "info"] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}${counts[s] === 1 ? "" : "s"}`);
  return { text: n > 999 ? "999+" : String(n), color: COLORS[worst], title: `${TITLE}: ${parts.join(", ")}` };
}
