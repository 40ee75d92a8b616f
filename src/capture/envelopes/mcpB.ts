import { isJsonRpc } from "./jsonRpc.ts";
import { carried, isObj, type Adapter, type Draft, type Seen, type Tally } from "./types.ts";

/**
 * MCP-B (`@mcp-b/transports` 5.1.0, dist/index.js): the tab transports (TabClientTransport / TabServerTransport,
 * channel `mcp-default`) and the iframe ones (IframeParentTransport / IframeChildTransport, `mcp-iframe`) post
 * `{channel, type: "mcp", direction: "client-to-server" | "server-to-client", payload}`, the payload a JSON-RPC
 * message or one of the handshake strings `mcp-check-ready`, `mcp-server-ready`, `mcp-server-stopped`.
 *
 * In a tab both ends live in one window and every message reaches both, so the direction is the envelope's, never
 * a guess from the message. One channel between two windows is one exchange `mcp-b:<channel>` (a scope of its
 * own). Handshake strings carry no MCP and are dropped.
 */
export const MCP_B = "mcp-b";

const DIRECTION = { "client-to-server": "c2s", "server-to-client": "s2c" } as const;

export function createMcpB(): Adapter {
  return {
    name: MCP_B,
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      // The tap writes window messages as JSON; a text without the tag is not this envelope, and is not parsed here.
      if (record.kind !== "message" || record.transport !== "postMessage" || !record.text.includes('"mcp"'))
        return undefined;
      const json = seen.json();
      if (!isObj(json) || json.type !== "mcp" || typeof json.channel !== "string" || !("payload" in json))
        return undefined;
      const direction = DIRECTION[json.direction as keyof typeof DIRECTION];
      if (direction === undefined) return undefined;
      if (typeof json.payload === "string") return [];
      if (!isJsonRpc(json.payload)) return (tally.unreadable(), []);
      tally.found(MCP_B);
      const out = carried(
        record,
        JSON.stringify(json.payload),
        direction,
        { envelope: MCP_B },
        `mcp-b:${json.channel}`,
      );
      // The tap puts the server side's origin in `url` and the client side's in `client`, by its guess of who sent
      // the message; the envelope says who did, so a wrong guess is undone here.
      if (direction !== record.direction) {
        if (record.client !== undefined) out.url = record.client;
        else delete out.url;
        if (record.url !== undefined) out.client = record.url;
        else delete out.client;
      }
      return [out];
    },
  };
}
