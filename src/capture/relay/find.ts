import { join } from "../../util/pointer.ts";

/**
 * An elicitation an app relays in its own shape (docs/capture-format.md, "Relayed elicitations"): no standard
 * says how an agent backend shows its MCP client's asks to its page, so each app invents a message of its own. What
 * they share is the elicitation itself, which is recognised wherever it sits (bounded): the ask's params (form:
 * `message` and a `requestedSchema` of type object; URL: `mode: "url"`, `url` and `elicitationId`) and the
 * page's answer (an object whose `action` is accept, decline or cancel, with an optional object `content`).
 */
export type RelayKind = "ask" | "answer";

export interface RelayFound {
  kind: RelayKind;
  /** The params (ask) or the result `{action, content?}` (answer), as the app wrote them. */
  value: Record<string, unknown>;
  /** The id the app gave it: on the object, on the nearest wrapper that has one, or the URL's last path segment. */
  id?: string;
  /** The app's name for its message: the nearest `type` string (`data-elicitation`, `mcp_elicitation`), if any. */
  shape?: string;
  /** Where it sits in the message (RFC 6901). */
  pointer: string;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);

/** How deep, how wide and how much is looked at: an app's message is small; anything bigger is data. */
const MAX_DEPTH = 6;
const MAX_MEMBERS = 64;
const MAX_NODES = 512;
const ACTIONS = new Set(["accept", "decline", "cancel"]);

export function isRelayAsk(o: Obj): boolean {
  if (typeof o.message === "string" && isObj(o.requestedSchema) && o.requestedSchema.type === "object") return true;
  return o.mode === "url" && typeof o.url === "string" && typeof o.elicitationId === "string";
}

export const isRelayAnswer = (o: Obj): boolean =>
  typeof o.action === "string" && ACTIONS.has(o.action) && (o.content === undefined || isObj(o.content));

const idOf = (o: Obj): string | undefined => {
  for (const key of ["id", "requestId", "elicitationRequestId"]) {
    const v = o[key];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
  }
  return undefined;
};
const SHAPE = /^[\w.:/-]{1,64}$/;
const shapeOf = (o: Obj): string | undefined => (typeof o.type === "string" && SHAPE.test(o.type) ? o.type : undefined);

/**
 * The first ask or answer in a parsed message, breadth first (the shallowest wins), or undefined. JSON-RPC
 * messages are not relays (the envelope stage gives those to the engine as MCP), nor is anything inside one.
 * A string member that holds JSON (`"payload": "{…}"`) is parsed once and looked into.
 */
export function findRelay(json: unknown): RelayFound | undefined {
  interface Node {
    value: unknown;
    pointer: string;
    depth: number;
    id: string | undefined;
    shape: string | undefined;
  }
  const queue: Node[] = [{ value: json, pointer: "", depth: 0, id: undefined, shape: undefined }];
  for (let head = 0; head < queue.length && head < MAX_NODES; head++) {
    const node = queue[head]!;
    let value = node.value;
    if (typeof value === "string") {
      if (node.depth === 0 || value.length < 2 || value[0] !== "{") continue;
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        continue;
      }
    }
    if (Array.isArray(value)) {
      if (node.depth >= MAX_DEPTH) continue;
      for (let i = 0; i < value.length && i < MAX_MEMBERS; i++)
        queue.push({ ...node, value: value[i], pointer: join(node.pointer, i), depth: node.depth + 1 });
      continue;
    }
    if (!isObj(value) || value.jsonrpc !== undefined) continue;
    const id = idOf(value) ?? node.id;
    const shape = shapeOf(value) ?? node.shape;
    if (isRelayAsk(value))
      return {
        kind: "ask",
        value,
        pointer: node.pointer,
        ...(id !== undefined && { id }),
        ...(shape !== undefined && { shape }),
      };
    if (isRelayAnswer(value))
      return {
        kind: "answer",
        value,
        pointer: node.pointer,
        ...(id !== undefined && { id }),
        ...(shape !== undefined && { shape }),
      };
    if (node.depth >= MAX_DEPTH) continue;
    let members = 0;
    for (const key in value) {
      if (++members > MAX_MEMBERS) break;
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const member = value[key];
      if (typeof member === "object" || typeof member === "string")
        queue.push({ value: member, pointer: join(node.pointer, key), depth: node.depth + 1, id, shape });
    }
  }
  return undefined;
}

/** The last segment of a URL's path when it looks like an id (has a digit, or is long): `/api/elicit/<id>`. */
export function pathId(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  let last: string;
  try {
    last = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  } catch {
    return undefined;
  }
  return last !== "" && last.length <= 128 && (/\d/.test(last) || last.length >= 16) ? last : undefined;
}

/** The same cheap test as the tap's (src/page/relay.ts): whether a text may carry a relayed ask or answer. */
export function looksRelayed(text: string): boolean {
  if (text.includes("requestedSchema") || text.includes("elicitationId")) return true;
  if (!text.includes('"action"')) return false;
  return text.includes('"accept"') || text.includes('"decline"') || text.includes('"cancel"');
}
