import { isObj } from "./types.ts";

/**
 * A real JSON-RPC 2.0 message (https://www.jsonrpc.org/specification § 4, 5): `jsonrpc: "2.0"` and a string
 * `method` (request, notification), or an `id` with a `result` or an `error` (response). Envelopes are told from
 * the messages they carry by this, so a wrapper that only mentions "jsonrpc" never passes for one.
 */
export function isJsonRpcMessage(value: unknown): boolean {
  if (!isObj(value) || value.jsonrpc !== "2.0") return false;
  if (typeof value.method === "string") return true;
  return "id" in value && ("result" in value || "error" in value);
}

/** A message, or a batch: a non-empty array of messages (§ 6). */
export const isJsonRpc = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 0 && value.every(isJsonRpcMessage) : isJsonRpcMessage(value);

/** Looks like JSON-RPC at a glance (an object naming `jsonrpc: "2.0"`, or an array starting with one): worth checking. */
export function namesJsonRpc(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isObj(first) && first.jsonrpc === "2.0";
}

/**
 * Whether a JSON text is an object with a top-level `"jsonrpc"` member, or an array: a bare message or batch,
 * never an envelope of the generic kind. Answers without parsing — the member names are read and the values
 * skipped over — because nearly every message the unwrapper sees is bare and the engine parses it anyway. A text
 * that is not JSON may get any answer; only "true" is relied on, and is right for every valid JSON text.
 */
export function isBareJsonRpc(text: string): boolean {
  const n = text.length;
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) === 91 /* [ */) return true;
  if (text.charCodeAt(i) !== 123 /* { */) return false;
  i = skipSpace(text, i + 1);
  while (i < n && text.charCodeAt(i) === 34 /* " */) {
    const end = stringEnd(text, i);
    if (end - i === 8 && text.startsWith('"jsonrpc"', i)) return true;
    i = skipSpace(text, end + 1);
    if (text.charCodeAt(i) !== 58 /* : */) return false;
    i = valueEnd(text, skipSpace(text, i + 1));
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== 44 /* , */) return false;
    i = skipSpace(text, i + 1);
  }
  return false;
}

function skipSpace(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  return i;
}

/** Index of the closing quote of the string that opens at `i` (or the text's length). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) j++;
    else if (c === 34) return j;
  }
  return text.length;
}

/** Index just past the JSON value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) j = stringEnd(text, j);
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return j;
      if (--depth === 0) return j + 1;
    } else if (c === 44 && depth === 0) return j;
  }
  return text.length;
}
