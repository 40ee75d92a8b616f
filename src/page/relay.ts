import { ReflectGetOwnPropertyDescriptor, StringPrototypeIncludes } from "./primordials.ts";

/**
 * The cheap test for an elicitation an app relays in its own shape (docs/capture-format.md, "Relayed
 * elicitations"): its ask names `requestedSchema` (form) or `elicitationId` (URL), its answer an `"action"` of
 * accept, decline or cancel. Traffic that names none of these stays on the fast path: a few string checks. The
 * capture side (src/capture/envelopes/relay.ts) looks inside what passes, and drops what is not a relay after all.
 */
export function looksRelayed(text: string): boolean {
  if (StringPrototypeIncludes(text, "requestedSchema") || StringPrototypeIncludes(text, "elicitationId")) return true;
  if (!StringPrototypeIncludes(text, '"action"')) return false;
  return StringPrototypeIncludes(text, '"accept"') || StringPrototypeIncludes(text, '"decline"') || StringPrototypeIncludes(text, '"cancel"');
}

const own = (value: unknown, key: string): unknown =>
  value !== null && typeof value === "object" ? ReflectGetOwnPropertyDescriptor(value, key)?.value : undefined;
const marked = (value: unknown): boolean => {
  if (own(value, "requestedSchema") !== undefined || own(value, "elicitationId") !== undefined) return true;
  const action = own(value, "action");
  return action === "accept" || action === "decline" || action === "cancel";
};
/** Members a window message's relay may sit under, one level down. */
const WRAPPERS = ["params", "data", "payload", "detail", "elicitation", "request", "result"];

/** The same test for a window message's structured clone, in own-property reads (no page code runs). */
export function carriesRelay(data: unknown): boolean {
  if (data === null || typeof data !== "object") return false;
  if (marked(data)) return true;
  for (let i = 0; i < WRAPPERS.length; i++) if (marked(own(data, WRAPPERS[i]!))) return true;
  return false;
}
