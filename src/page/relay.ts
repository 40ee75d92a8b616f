import { JSONParse, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, StringPrototypeIncludes } from "./primordials.ts";

/**
 * The cheap test for an elicitation an app relays in its own shape (docs/capture-format.md, "Relayed
 * elicitations"): its ask names `requestedSchema` (form) or `elicitationId` (URL), its answer an `"action"` of
 * accept, decline or cancel. Traffic that names none of these stays on the fast path: a few string checks. The
 * capture side (src/capture/envelopes/relay.ts) looks inside what passes, and drops what is not a relay after all.
 */
export function looksRelayed(text: string): boolean {
  if (StringPrototypeIncludes(text, "requestedSchema") || StringPrototypeIncludes(text, "elicitationId")) return true;
  if (!StringPrototypeIncludes(text, '"action"')) return false;
  return (
    StringPrototypeIncludes(text, '"accept"') ||
    StringPrototypeIncludes(text, '"decline"') ||
    StringPrototypeIncludes(text, '"cancel"')
  );
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

/** Most URL-mode asks the tap remembers at once (the oldest is forgotten first). */
const MAX_ASK_URLS = 16;
/** How deep a relayed ask's URL is looked for (the capture side looks 6 levels deep too). */
const ASK_DEPTH = 6;

export interface AskUrls {
  /** Remembers the URL of a relayed URL-mode ask (`mode: "url"`, `url`, `elicitationId`) the page received. */
  note(text: string): void;
  /** Whether `href` is a remembered ask's URL; a URL matches once, then is forgotten. */
  take(href: string): boolean;
  /** Whether any ask's URL is remembered: with none, no request is looked at. */
  any(): boolean;
}

/**
 * The URLs of the relayed URL-mode asks the page has received and not yet loaded: a request of the page for
 * exactly one of them is the only request outside MCP and relays the tap records (`relay-url-opened-unasked`),
 * and only its method, origin and path. Looked for only in texts that name `elicitationId` and `"url"`.
 */
export function createAskUrls(): AskUrls {
  let urls: string[] = [];
  const add = (url: string): void => {
    for (let i = 0; i < urls.length; i++) if (urls[i] === url) return;
    const next: string[] = [];
    for (let i = urls.length >= MAX_ASK_URLS ? 1 : 0; i < urls.length; i++) next[next.length] = urls[i]!;
    next[next.length] = url;
    urls = next;
  };
  return {
    note(text) {
      if (!StringPrototypeIncludes(text, "elicitationId") || !StringPrototypeIncludes(text, '"url"')) return;
      let value: unknown;
      try {
        value = JSONParse(text);
      } catch {
        return;
      }
      let level: unknown[] = [value];
      for (let depth = 0; depth < ASK_DEPTH && level.length > 0; depth++) {
        const next: unknown[] = [];
        for (let i = 0; i < level.length; i++) {
          const item = level[i];
          if (item === null || typeof item !== "object") continue;
          const url = own(item, "url");
          if (own(item, "mode") === "url" && typeof url === "string" && typeof own(item, "elicitationId") === "string")
            add(url);
          const keys = ReflectOwnKeys(item);
          for (let k = 0; k < keys.length && k < 64; k++) {
            const member = typeof keys[k] === "string" ? own(item, keys[k] as string) : undefined;
            if (member !== null && typeof member === "object") next[next.length] = member;
          }
        }
        level = next;
      }
    },
    take(href) {
      for (let i = 0; i < urls.length; i++) {
        if (urls[i] !== href) continue;
        const rest: string[] = [];
        for (let j = 0; j < urls.length; j++) if (j !== i) rest[rest.length] = urls[j]!;
        urls = rest;
        return true;
      }
      return false;
    },
    any: () => urls.length > 0,
  };
}
