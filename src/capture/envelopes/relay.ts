import { findRelay, looksRelayed, pathId } from "../relay/find.ts";
import { isBareJsonRpc } from "./jsonRpc.ts";
import { carried, NOT_JSON, type Adapter, type Draft, type MessageDraft, type Seen, type Tally } from "./types.ts";

/**
 * Relayed elicitations (src/capture/relay/find.ts): an ask the page receives or an answer it sends in an app's
 * own message. Each becomes a message record stamped `relay:<shape>` whose text is the elicitation alone:
 * `{"relay":"ask","id"?,"params":{…}}` (s2c) or `{"relay":"answer","id"?,"result":{"action",…}}` (c2s). The engine
 * joins them with the agent backend's MCP wire (src/engine/correlator/relay.ts). docs/capture-format.md.
 *
 * The tap (src/page/relay.ts) records traffic that is not MCP only where a text passes the cheap test, as a
 * message without an exchange; such a record that holds no relay after all is dropped here.
 */
export const RELAY_PREFIX = "relay:";

/** The record of a relayed ask (s2c) or answer (c2s): the elicitation alone, stamped. */
export function relayDraft(
  record: MessageDraft,
  kind: "ask" | "answer",
  id: string | undefined,
  value: Record<string, unknown>,
  envelope: string,
): MessageDraft {
  const body =
    kind === "ask"
      ? { relay: "ask", ...(id !== undefined && { id }), params: value }
      : { relay: "answer", ...(id !== undefined && { id }), result: value };
  return carried(record, JSON.stringify(body), kind === "ask" ? "s2c" : "c2s", { envelope }, undefined);
}

export function createRelay(): Adapter {
  return {
    name: "relay",
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      if (record.kind !== "message" || record.source !== undefined || record.truncated !== undefined) return undefined;
      if (record.headers?.["mcp-session-id"] !== undefined || record.headers?.["mcp-protocol-version"] !== undefined)
        return undefined;
      // Relay-only traffic (the tap's, a HAR's) has no exchange: what is not a relay there is the app's, dropped.
      const only = record.exchange === undefined && record.transport !== "postMessage" && record.transport !== "stdio";
      if (!looksRelayed(record.text) || isBareJsonRpc(record.text)) return only ? [] : undefined;
      const json = seen.json();
      const found = json === NOT_JSON ? undefined : findRelay(json);
      const wrongWay =
        found !== undefined &&
        record.transport !== "postMessage" &&
        (found.kind === "ask") !== (record.direction === "s2c");
      if (found === undefined || wrongWay) return only ? [] : undefined;
      const id = found.id ?? (found.kind === "answer" ? pathId(record.url) : undefined);
      const envelope = `${RELAY_PREFIX}${found.shape ?? "json"}`;
      tally.found(envelope);
      return [relayDraft(record, found.kind, id, found.value, envelope)];
    },
  };
}
