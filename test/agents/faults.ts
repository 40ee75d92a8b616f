/**
 * The relay faults the test agents can be told to make, the ones the relay rules must catch:
 * - `swallow`: a yes/no ask (every field a boolean) reaches the agent but never the page; the agent answers `cancel`
 *   on the user's behalf (other asks are relayed as usual).
 * - `alter`: the user's answer is changed on its way to the server (a value of an accepted form; another action).
 * - `open-url`: the page is told to load a URL-mode ask's link as the ask arrives, before the user accepts it.
 */
export type RelayFault = "swallow" | "alter" | "open-url";

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

/**
 * `alter`: an accepted form has its first field changed (booleans flipped, numbers +1, text suffixed);
 * decline ↔ cancel.
 */
export function alterAnswer<T extends Answer>(answer: T): T {
  if (answer.action === "decline") return { ...answer, action: "cancel" };
  if (answer.action === "cancel") return { ...answer, action: "decline" };
  const content = { ...answer.content };
  const [key] = Object.keys(content).sort();
  if (key !== undefined) {
    const value = content[key];
    content[key] =
      typeof value === "boolean" ? !value : typeof value === "number" ? value + 1 : `${String(value)} (edited)`;
  }
  return { ...answer, content };
}

/** `swallow` takes the asks whose fields are all booleans: a confirmation the agent decides itself. */
export function isYesNo(requestedSchema: unknown): boolean {
  const properties = (requestedSchema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  const fields = Object.values(properties ?? {});
  return fields.length > 0 && fields.every((f) => f.type === "boolean");
}
