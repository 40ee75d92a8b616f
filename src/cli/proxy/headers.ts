import { pickHeaders, type Headers } from "../../capture/record.ts";

/** RFC 9110 §7.6.1: hop-by-hop fields, meaningful only on one connection; a proxy must not forward them. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * The end-to-end fields of a raw header list (Node's `rawHeaders`: name, value, name, value…), names as they were
 * spelt and repeated fields kept (several `Set-Cookie`), with `Host` replaced when given. Authorization and cookies
 * go through: the proxy is in the agent's path, and the server needs them.
 */
export function endToEnd(raw: readonly string[], host?: string): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== "connection") continue;
    for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || (host !== undefined && name === "host")) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  if (host !== undefined) out.unshift("Host", host);
  return out;
}

/** The fields a capture keeps (src/capture/kinds.ts): never Authorization or cookies. */
export function keptOf(raw: readonly string[]): Headers | undefined {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pickHeaders(pairs);
}

/** The value of a field in a raw header list (the last one, as pickHeaders keeps). */
export function rawValue(raw: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) found = raw[i + 1];
  return found;
}

export function essence(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export const isJson = (type: string): boolean => type === "application/json" || type.endsWith("+json");
