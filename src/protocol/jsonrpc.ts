import { isObject } from "../util/json.ts";

/**
 * The engine's view of one JSON-RPC message. Classification is structural and cheap (JSON-RPC 2.0, https://www.jsonrpc.org/specification):
 * the rules report shape problems with their own ids, and a message that is none of the four is `invalid`.
 */
export type Classified =
  | { type: "request"; id: unknown; method: string; params: unknown; raw: Record<string, unknown> }
  | { type: "notification"; method: string; params: unknown; raw: Record<string, unknown> }
  | { type: "result"; id: unknown; result: unknown; raw: Record<string, unknown> }
  | { type: "error"; id: unknown; error: Record<string, unknown>; raw: Record<string, unknown> }
  | { type: "invalid"; reason: string; raw: unknown };

export function classify(msg: unknown): Classified {
  if (!isObject(msg)) return { type: "invalid", reason: "not a JSON object", raw: msg };
  const { method } = msg;
  if (typeof method === "string") {
    return "id" in msg
      ? { type: "request", id: msg.id, method, params: msg.params, raw: msg }
      : { type: "notification", method, params: msg.params, raw: msg };
  }
  if ("result" in msg && !("error" in msg)) return { type: "result", id: msg.id, result: msg.result, raw: msg };
  if ("error" in msg && !("result" in msg) && isObject(msg.error))
    return { type: "error", id: msg.id, error: msg.error, raw: msg };
  if ("id" in msg) return { type: "invalid", reason: "a response needs exactly one of result and error", raw: msg };
  return { type: "invalid", reason: "neither a request, a notification nor a response", raw: msg };
}

/** Key for id maps: 1 and "1" are different JSON-RPC ids. */
export const idKey = (id: unknown): string =>
  typeof id === "string" ? "s:" + id : typeof id === "number" ? "n:" + id : "x:" + JSON.stringify(id);

/**
 * An id as text, for labels: never throws. `String(id)` would call an object id's `toString` member, and one that
 * is not a function (`{"toString":1}`, valid JSON) makes it throw.
 */
export function idText(id: unknown): string {
  if (typeof id === "string") return id;
  if (typeof id === "number") return String(id);
  try {
    return JSON.stringify(id) ?? "undefined";
  } catch {
    return "(unprintable id)";
  }
}
