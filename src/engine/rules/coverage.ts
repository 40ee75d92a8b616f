/**
 * Catalogue rules the engine does not check, and why. Every other catalogue id is reported by some rule
 * module; test/engine/coverage.test.ts holds the two lists together.
 */
export const notChecked: Record<string, string> = {
  "url-accept-is-consent":
    "an interpretation rule, not a check: the flow model applies it (an accepted URL elicitation is completed only by its completion notification or a successful retry).",
  "task-r3-extension": "a pointer to the 2026-07-28 tasks extension rules, which are out of scope for core MCP.",
};
