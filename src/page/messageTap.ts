import { capped, looksJsonRpc, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import { dataJson } from "./json.ts";
import { ArrayIsArray, JSONParse, RegExpPrototypeExec, WeakMapCtor, WeakMapPrototypeGet, WeakMapPrototypeSet } from "./primordials.ts";

/** Methods only a client sends, and methods only a server sends (notifications included). */
const CLIENT_METHOD = /^(initialize|server\/discover|(tools|prompts|resources|completion|logging|tasks)\/.*|notifications\/(initialized|roots\/list_changed|cancelled))$/;
const SERVER_METHOD = /^((elicitation|sampling|roots)\/.*|notifications\/(elicitation\/complete|message|resources\/updated|(tools|prompts|resources)\/list_changed))$/;

export type Role = "client" | "server";

/**
 * Who sent a JSON-RPC message that arrived by postMessage. Each frame only sees what it receives, so the role of
 * a peer is learnt from what it sends: a client method means the sender is the client, a server method the
 * server; an InitializeResult comes from a server and an ElicitResult from a client. A response or `ping` from a
 * peer whose role is not known yet counts as the server's (the host page is usually the client).
 */
export function senderRole(message: unknown, known: Role | undefined): Role | undefined {
  const first = ArrayIsArray(message) ? (message as unknown[])[0] : message;
  if (first === null || typeof first !== "object") return known;
  const m = first as Record<string, unknown>;
  if (typeof m.method === "string") {
    if (RegExpPrototypeExec(CLIENT_METHOD, m.method) !== null) return "client";
    if (RegExpPrototypeExec(SERVER_METHOD, m.method) !== null) return "server";
    return known;
  }
  const result = m.result;
  if (result !== null && typeof result === "object") {
    if ("serverInfo" in result && "protocolVersion" in result) return "server";
    if ("action" in result) return "client";
  }
  return known;
}

/**
 * `message` events carrying JSON-RPC (MCP over postMessage between frames). Received messages only: each frame
 * runs its own tap, so a message between two frames is recorded once, where it arrives. `url` is always the
 * server side's origin and `client` the client side's, so both directions fall in one scope. The tap's own records
 * never travel as window messages (emit.ts), so every message here is the page's.
 */
export function tapMessages(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  const roles = new WeakMapCtor<object, Role>();
  let selfRole: Role | undefined;
  N.listen(
    win,
    "message",
    (event) => {
      try {
        const data: unknown = N.messageData(event);
        let text: string;
        let message: unknown;
        if (typeof data === "string") {
          if (!looksJsonRpc(data)) return;
          text = data;
          try {
            message = JSONParse(data);
          } catch {
            message = undefined;
          }
        } else if (data !== null && typeof data === "object") {
          const first = ArrayIsArray(data) ? (data as unknown[])[0] : data;
          if (first === null || typeof first !== "object" || (first as { jsonrpc?: unknown }).jsonrpc !== "2.0") return;
          const json = dataJson(data, false);
          if (json === undefined) return;
          text = json;
          message = data;
        } else return;
        const peer = N.messageSource(event) ?? undefined;
        const known = peer ? WeakMapPrototypeGet(roles, peer) : selfRole;
        const role = senderRole(message, known) ?? "server";
        if (peer) WeakMapPrototypeSet(roles, peer, role);
        else selfRole = role;
        const origin = N.messageOrigin(event) || tap.client;
        const server = role === "server" ? origin : tap.client;
        const client = role === "server" ? tap.client : origin;
        tap.emit({
          transport: "postMessage",
          exchange: `pm:${client}>${server}`,
          url: server,
          client,
          time: tap.now(),
          kind: "message",
          direction: role === "server" ? "s2c" : "c2s",
          stream: "postMessage",
          ...capped(text),
        });
      } catch {
        // Never into the page.
      }
    },
    true,
  );
}
