import { urlMatcher } from "./decoders.ts";
import { inspectorApi } from "./inspectorV2.ts";
import type { Decoder } from "./types.ts";

/**
 * Whether a request is an envelope exchange whatever its body says: Inspector v2's connect and events carry no
 * "jsonrpc" text of their own (the connect config, an events stream that has not spoken yet), and a decode rule's
 * URL is the user's word. importHar keeps such entries as MCP; everything else still needs an MCP sign.
 */
export function envelopeEndpoints(rules: readonly Decoder[] = []): (url: string, method: string) => boolean {
  const matchers = rules.map((rule) => ({ method: rule.method, matches: urlMatcher(rule.url) }));
  return (url, method) => {
    const api = inspectorApi(url);
    if (api && (api.op === "connect" || api.op === "send" || api.op === "events")) return true;
    return matchers.some((m) => (m.method === undefined || m.method === method.toUpperCase()) && m.matches(url));
  };
}
