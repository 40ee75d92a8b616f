import type { Natives } from "./natives.ts";
import { TAP_SOURCE } from "../shared/tags.ts";
import { capped, looksJsonRpc, type Tap } from "./mcp.ts";

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
  const first = Array.isArray(message) ? message[0] : message;
  if (first === null || typeof first !== "object") return known;
  const m = first as Record<string, unknown>;
  if (typeof m.method === "string") {
    if (CLIENT_METHOD.test(m.method)) return "client";
    if (SERVER_METHOD.test(m.method)) return "server";
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
 * server side's origin and `client` the client side's, so both directions fall in one scope.
 */
export function tapMessages(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  const roles = new WeakMap<object, Role>();
  let selfRole: Role | undefined;
  N.listen.call(
    win,
    "message",
    (event) => {
      try {
        const e = event as MessageEvent;
        const data: unknown = e.data;
        let text: string;
        let message: unknown;
        if (typeof data === "string") {
          if (!looksJsonRpc(data)) return;
          text = data;
          try {
            message = JSON.parse(data);
          } catch {
            message = undefined;
          }
        } else if (data !== null && typeof data === "object") {
          const first = Array.isArray(data) ? data[0] : data;
          if (first === null || typeof first !== "object" || (first as { jsonrpc?: unknown }).jsonrpc !== "2.0") return;
          if ((data as { source?: unknown }).source === TAP_SOURCE) return;
          text = N.stringify(data);
          message = data;
        } else return;
        const peer = e.source ?? undefined;
        const known = peer ? roles.get(peer) : selfRole;
        const role = senderRole(message, known) ?? "server";
        if (peer) roles.set(peer, role);
        else selfRole = role;
        const origin = e.origin || tap.client;
        const [server, client] = role === "server" ? [origin, tap.client] : [tap.client, origin];
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
