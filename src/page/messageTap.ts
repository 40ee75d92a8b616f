import { capped, looksJsonRpc, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import { carriesRelay, looksRelayed } from "./relay.ts";
import { dataJson } from "./json.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";
import {
  ArrayIsArray,
  JSONParse,
  StringPrototypeSlice,
  ReflectGetOwnPropertyDescriptor,
  ReflectOwnKeys,
  RegExpPrototypeExec,
  WeakMapCtor,
  WeakMapPrototypeGet,
  WeakMapPrototypeSet,
} from "./primordials.ts";

/** Methods only a client sends, and methods only a server sends (notifications included). */
const CLIENT_METHOD =
  /^(initialize|server\/discover|(tools|prompts|resources|completion|logging|tasks)\/.*|notifications\/(initialized|roots\/list_changed|cancelled))$/;
const SERVER_METHOD =
  /^((elicitation|sampling|roots)\/.*|notifications\/(elicitation\/complete|message|resources\/updated|(tools|prompts|resources)\/list_changed))$/;

export type Role = "client" | "server";

/**
 * Who sent a JSON-RPC message that arrived by postMessage. Each frame only sees what it receives, so the role of
 * a peer is learnt from what it sends: a client method means the sender is the client, a server method the
 * server; an InitializeResult comes from a server and an ElicitResult from a client. A response or `ping` from a
 * peer whose role is not known yet counts as the server's (the host page is usually the client).
 */
export function senderRole(message: unknown, known: Role | undefined): Role | undefined {
  const first = ArrayIsArray(message) ? own(message, 0) : message;
  if (first === null || typeof first !== "object") return known;
  const method = own(first, "method");
  if (typeof method === "string") {
    if (RegExpPrototypeExec(CLIENT_METHOD, method) !== null) return "client";
    if (RegExpPrototypeExec(SERVER_METHOD, method) !== null) return "server";
    return known;
  }
  const result = own(first, "result");
  if (result !== null && typeof result === "object") {
    if (own(result, "serverInfo") !== undefined && own(result, "protocolVersion") !== undefined) return "server";
    if (own(result, "action") !== undefined) return "client";
  }
  return known;
}

/** An own data member, read by descriptor: a structured clone has only those, and no page getter ever runs. */
function own(value: unknown, key: string | number): unknown {
  return value !== null && typeof value === "object" ? ReflectGetOwnPropertyDescriptor(value, key)?.value : undefined;
}

/** What a window message carries, when the tap keeps it. */
interface Carried {
  /** The data as JSON text (a string as it came), cut at the cap. */
  body: { text: string; truncated?: number };
  /** The JSON-RPC message inside, for the sender's role (senderRole). */
  message: unknown;
  /** The sender's role, when the envelope says it (MCP-B). */
  role?: Role;
  /** The MCP-B channel: each is a connection of its own. */
  channel?: string;
}

/** Most members of a message object looked at for one holding a JSON-RPC message (the generic fallback). */
const MAX_MEMBERS = 32;

/** A JSON-RPC message or batch by its cheap mark: `jsonrpc: "2.0"` (the first of a batch). */
function isJsonRpc(value: unknown): boolean {
  const first = ArrayIsArray(value) ? own(value, 0) : value;
  return own(first, "jsonrpc") === "2.0";
}

/**
 * The one member of an object that holds a JSON-RPC message (the generic envelope `{"rpc": <message>}`), or
 * undefined when none or several do, or the object has more than MAX_MEMBERS members.
 */
function nestedMessage(value: unknown): unknown {
  if (value === null || typeof value !== "object" || ArrayIsArray(value)) return undefined;
  const keys = ReflectOwnKeys(value);
  if (keys.length > MAX_MEMBERS) return undefined;
  let found: unknown;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== "string") continue;
    const member = own(value, key);
    if (!isJsonRpc(member)) continue;
    if (found !== undefined) return undefined;
    found = member;
  }
  return found;
}

/**
 * Which window messages the tap keeps:
 * - a JSON-RPC message or batch, as an object or as JSON text;
 * - an MCP-B envelope (`@mcp-b/transports`: `{channel, type: "mcp", direction, payload}`, the tab and iframe
 *   transports alike) whose payload is a message; its plain-string handshakes (`mcp-check-ready`, …) are not;
 * - an object with one member holding a JSON-RPC message (text that names `"jsonrpc"` is kept anyway);
 * - anything from an origin a decode rule names.
 * Everything else costs a few own-property reads.
 */
function carried(data: unknown, origin: string, tap: Tap): Carried | undefined {
  if (typeof data === "string") {
    // Looked at and parsed no further than the cap: a longer text is kept cut, its message unread (MESSAGE_CAP).
    const head = data.length > MESSAGE_CAP ? StringPrototypeSlice(data, 0, MESSAGE_CAP) : data;
    if (!looksJsonRpc(head) && !looksRelayed(head) && !(tap.rules.any() && tap.rules.matches(origin, undefined)))
      return undefined;
    let message: unknown;
    try {
      message = head === data ? JSONParse(data) : undefined;
    } catch {
      message = undefined;
    }
    return { body: capped(data), message: isJsonRpc(message) ? message : nestedMessage(message) };
  }
  if (data === null || typeof data !== "object") return undefined;
  let message: unknown;
  let role: Role | undefined;
  let channel: string | undefined;
  if (own(data, "type") === "mcp" && ReflectGetOwnPropertyDescriptor(data, "payload") !== undefined) {
    const direction = own(data, "direction");
    if (direction !== "client-to-server" && direction !== "server-to-client") return undefined;
    message = own(data, "payload");
    if (message === null || typeof message !== "object") return undefined;
    role = direction === "client-to-server" ? "client" : "server";
    const name = own(data, "channel");
    channel = typeof name === "string" ? name : "";
  } else if (isJsonRpc(data)) message = data;
  else {
    message = nestedMessage(data);
    if (message === undefined && !carriesRelay(data) && !(tap.rules.any() && tap.rules.matches(origin, undefined)))
      return undefined;
  }
  const body = dataJson(data);
  return body === undefined
    ? undefined
    : { body, message, ...(role && { role }), ...(channel !== undefined && { channel }) };
}

/**
 * `message` events carrying MCP (over postMessage between frames, or between two ends in one window: MCP-B's tab
 * transport). Received messages only: each frame runs its own tap, so a message between two frames is recorded
 * once, where it arrives, and one in a window once, by the one listener. `url` is always the server side's origin
 * and `client` the client side's, so both directions fall in one scope. The tap's own records never travel as
 * window messages (emit.ts), so every message here is the page's.
 */
export function tapMessages(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  const roles = new WeakMapCtor<object, Role>();
  let selfRole: Role | undefined;
  N.listen(
    win,
    "message",
    (event) => {
      try {
        // A MessageEvent the page made and dispatched itself names any origin it likes: only the browser's own
        // (postMessage, isTrusted: an own, unforgeable attribute) tells where a message came from.
        if (!event.isTrusted || !tap.on()) return;
        const origin = N.messageOrigin(event) || tap.client;
        const seen = carried(N.messageData(event), origin, tap);
        if (!seen) return;
        const peer = N.messageSource(event) ?? undefined;
        const known = peer ? WeakMapPrototypeGet(roles, peer) : selfRole;
        const role = seen.role ?? senderRole(seen.message, known) ?? "server";
        if (peer) WeakMapPrototypeSet(roles, peer, role);
        else selfRole = role;
        const server = role === "server" ? origin : tap.client;
        const client = role === "server" ? tap.client : origin;
        tap.emit({
          transport: "postMessage",
          exchange: seen.channel === undefined ? `pm:${client}>${server}` : `pm:${client}>${server}#${seen.channel}`,
          url: server,
          client,
          time: tap.now(),
          kind: "message",
          direction: role === "server" ? "s2c" : "c2s",
          stream: "postMessage",
          ...seen.body,
        });
      } catch {
        // Never into the page.
      }
    },
    true,
  );
}
