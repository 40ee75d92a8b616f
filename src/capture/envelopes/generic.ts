import { isBareJsonRpc, isJsonRpc, namesJsonRpc } from "./jsonRpc.ts";
import { carried, connectionOf, isObj, type Adapter, type Draft, type Seen, type Tally } from "./types.ts";

/**
 * The fallback for hosts no adapter knows: a JSON object that is not itself JSON-RPC, with exactly one member
 * whose value is a JSON-RPC 2.0 message or batch — `{"message": {...}}`, `{"sessionId": "…", "rpc": {...}}` — in
 * a fetch body, a WebSocket frame, a window message or an SSE event. The direction is the record's own.
 *
 * Taken only when that value really is JSON-RPC (jsonrpc.ts): a wrapper whose members merely look like it, or
 * with two of them, carries nothing the engine could use and is dropped (counted). An object without any such
 * member is not an envelope and goes on as it came (a bare endpoint's bad body stays an input problem).
 * What it does not cover: deeper nesting, string-encoded messages, arrays of wrappers — decode rules do.
 */
export const GENERIC = "generic";
/** Members looked at, as the tap does (src/page): an envelope is a small object, a big one is data. */
const MAX_KEYS = 32;

export function createGeneric(): Adapter {
  return {
    name: GENERIC,
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      // Streamable HTTP messages are bare by the spec: a request naming an MCP session or version is not wrapped.
      if (
        record.kind !== "message" ||
        record.truncated !== undefined ||
        record.headers?.["mcp-session-id"] !== undefined ||
        record.headers?.["mcp-protocol-version"] !== undefined
      )
        return undefined;
      if (isBareJsonRpc(record.text)) return undefined;
      const json = seen.json();
      if (!isObj(json) || "jsonrpc" in json) return undefined;
      let candidate: unknown;
      let candidates = 0;
      let looked = 0;
      for (const key in json) {
        if (++looked > MAX_KEYS) break;
        if (!Object.prototype.hasOwnProperty.call(json, key)) continue;
        const value = json[key];
        if (namesJsonRpc(value)) {
          candidate = value;
          candidates++;
        }
      }
      if (candidates === 0) return undefined;
      if (candidates > 1 || !isJsonRpc(candidate)) return (tally.unreadable(), []);
      tally.found(GENERIC);
      return [
        carried(record, JSON.stringify(candidate), record.direction, { envelope: GENERIC }, connectionOf(record)),
      ];
    },
  };
}
