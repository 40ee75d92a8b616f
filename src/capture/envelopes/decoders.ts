import { compilePattern, matchesPattern } from "../../util/urlPattern.ts";
import { httpUrl } from "../url.ts";
import { isJsonRpc, namesJsonRpc } from "./jsonRpc.ts";
import { relayDraft } from "./relay.ts";
import {
  carried,
  connectionOf,
  isObj,
  NOT_JSON,
  type Adapter,
  type Decoder,
  type Draft,
  type McpDecoder,
  type MessageDraft,
  type RelayDecoder,
  type Seen,
  type Stamp,
  type Tally,
} from "./types.ts";

/**
 * "Decode as MCP" (Wireshark's Decode As…): the user says that traffic to a URL carries MCP at a JSON pointer.
 * A rule is explicit, so it goes before every built-in adapter, and everything of the traffic it matches is the
 * host's: a body whose pointer finds no JSON-RPC message (an `{"ok":true}` answer, a keep-alive) is dropped, as
 * are the HTTP heads and ends of the exchanges it matched. Messages found are stamped `decode:<rule id>`.
 */
export const DECODE_PREFIX = "decode:";
const RELAY_PREFIX = "relay:";

const DIRECTIONS = new Set(["c2s", "s2c", "both"]);
const KEYS = new Set(["id", "label", "url", "method", "pointer", "direction"]);
/** The relay decoder's pointers (types.ts RelayDecoder). */
export const RELAY_POINTERS = ["ask", "askId", "action", "content", "answerId"] as const;
const RELAY_KEYS = new Set(["id", "label", "url", "method", "kind", ...RELAY_POINTERS]);
const badPointer = (p: unknown): boolean =>
  typeof p !== "string" || (p !== "" && !p.startsWith("/")) || /~[^01]|~$/.test(p);

/** One rule from untrusted JSON (a CLI argument, a rules file, storage): the rule, or what is wrong with it. */
export function validateDecoder(value: unknown): Decoder | string {
  if (!isObj(value)) return "a decode rule is a JSON object";
  if (value.kind !== undefined) return validateRelayDecoder(value);
  const unknown = Object.keys(value).filter((k) => !KEYS.has(k));
  if (unknown.length)
    return `unknown member${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (a rule has id, url, pointer, direction, and optionally method and label)`;
  const { id, label, url, method, pointer, direction } = value;
  if (typeof id !== "string" || id === "" || id.length > 64)
    return '"id" must be a non-empty string (at most 64 characters)';
  if (typeof url !== "string" || url === "")
    return '"url" must be a non-empty string (a substring of the URL, or a pattern with * wildcards)';
  if (typeof pointer !== "string" || (pointer !== "" && !pointer.startsWith("/")))
    return '"pointer" must be a JSON pointer (RFC 6901): "" or starting with "/", e.g. "/message"';
  if (/~[^01]|~$/.test(pointer)) return '"pointer" has a "~" not followed by 0 or 1 (RFC 6901 escapes are ~0 and ~1)';
  if (typeof direction !== "string" || !DIRECTIONS.has(direction)) return '"direction" must be "c2s", "s2c" or "both"';
  if (method !== undefined && (typeof method !== "string" || !/^[A-Za-z]+$/.test(method)))
    return '"method" must be an HTTP method such as "POST"';
  if (label !== undefined && typeof label !== "string") return '"label" must be a string';
  return {
    id,
    ...(label !== undefined && { label }),
    url,
    ...(method !== undefined && { method: method.toUpperCase() }),
    pointer,
    direction: direction as McpDecoder["direction"],
  };
}

/** A relay decoder (`"kind": "relay"`): its pointers, at least the ask's or the action's. */
function validateRelayDecoder(value: Record<string, unknown>): RelayDecoder | string {
  if (value.kind !== "relay") return '"kind" must be "relay" (or absent, for an MCP decoder)';
  const unknown = Object.keys(value).filter((k) => !RELAY_KEYS.has(k));
  if (unknown.length)
    return `unknown member${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (a relay decoder has id, kind, url, and optionally method, label, ${RELAY_POINTERS.join(", ")})`;
  const { id, label, url, method } = value;
  if (typeof id !== "string" || id === "" || id.length > 64)
    return '"id" must be a non-empty string (at most 64 characters)';
  if (typeof url !== "string" || url === "")
    return '"url" must be a non-empty string (a substring of the URL, or a pattern with * wildcards)';
  if (method !== undefined && (typeof method !== "string" || !/^[A-Za-z]+$/.test(method)))
    return '"method" must be an HTTP method such as "POST"';
  if (label !== undefined && typeof label !== "string") return '"label" must be a string';
  const out: RelayDecoder = {
    id,
    kind: "relay",
    ...(label !== undefined && { label }),
    url,
    ...(method !== undefined && { method: method.toUpperCase() }),
  };
  for (const key of RELAY_POINTERS) {
    if (value[key] === undefined) continue;
    if (badPointer(value[key]))
      return `"${key}" must be a JSON pointer (RFC 6901): "" or starting with "/", "~" only as ~0 and ~1`;
    out[key] = value[key] as string;
  }
  if (out.ask === undefined && out.action === undefined)
    return 'a relay decoder needs "ask" or "action" (where the ask, or the answer\'s action, lies)';
  return out;
}

/** A list of rules (an array of rule objects): the rules, or every problem found, each naming the rule. */
export function validateDecoders(value: unknown): { rules: Decoder[]; errors: string[] } {
  if (!Array.isArray(value)) return { rules: [], errors: ["decode rules are a JSON array of rule objects"] };
  const rules: Decoder[] = [];
  const errors: string[] = [];
  const ids = new Set<string>();
  value.forEach((raw, i) => {
    const rule = validateDecoder(raw);
    if (typeof rule === "string") return void errors.push(`rule ${i + 1}: ${rule}`);
    if (ids.has(rule.id)) return void errors.push(`rule ${i + 1}: id ${JSON.stringify(rule.id)} is used twice`);
    ids.add(rule.id);
    rules.push(rule);
  });
  return { rules, errors };
}

/** `*` matches any run of characters and the pattern must match the whole URL; without `*`, a substring. */
export function urlMatcher(pattern: string): (url: string) => boolean {
  const parts = compilePattern(pattern);
  return (url) => matchesPattern(parts, url);
}

/** RFC 6901 evaluation; undefined when the pointer names nothing in the document. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let node = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      // § 4: an array index is "0" or digits without a leading zero.
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObj(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/**
 * Where a rule's message belongs. A socket or a window channel is one connection: its exchange is the scope, the
 * server its URL, as for any such record. HTTP is not: a made-up bridge sends on one URL and streams its answers
 * on another, in requests of their own, so the engine (which scopes envelope messages by server, client and
 * exchange) would never pair an answer with its question. Those share one scope per rule, origin and client:
 * exchange `decode:<rule id>`, server `<origin> (<label, or the pattern less that origin>)`, via the origin (the
 * host; one for the whole scope, so every flow says the same: each record's own endpoint stays its `url`).
 */
/** What a relay decoder finds in a message: the ask (received) or the answer (sent), as the relay adapter makes it. */
function relayOf(seen: Seen, record: MessageDraft, rule: RelayDecoder, tally: Tally): Draft[] {
  const json = record.truncated === undefined ? seen.json() : NOT_JSON;
  if (json === NOT_JSON) return [];
  const at = (pointer: string | undefined): unknown => {
    if (pointer === undefined) return undefined;
    const value = resolvePointer(json, pointer);
    if (typeof value !== "string" || !value.startsWith("{")) return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  };
  const idOf = (value: unknown): string | undefined =>
    typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
  const envelope = `${RELAY_PREFIX}${DECODE_PREFIX}${rule.id}`;
  if (record.direction === "s2c" || record.transport === "postMessage") {
    const params = at(rule.ask);
    if (isObj(params) && (typeof params.message === "string" || typeof params.url === "string")) {
      tally.found(DECODE_PREFIX + rule.id);
      return [relayDraft(record, "ask", idOf(at(rule.askId)), params, envelope)];
    }
  }
  if (record.direction === "c2s" || record.transport === "postMessage") {
    const action = at(rule.action);
    if (typeof action === "string") {
      const content = at(rule.content);
      tally.found(DECODE_PREFIX + rule.id);
      return [
        relayDraft(
          record,
          "answer",
          idOf(at(rule.answerId)),
          { action, ...(content !== undefined && { content }) },
          envelope,
        ),
      ];
    }
  }
  return [];
}

function placeOf(
  record: MessageDraft,
  rule: Decoder,
  envelope: string,
): { stamp: Stamp & { envelope: string }; exchange: string | undefined } {
  if (record.transport !== "http" && record.transport !== "eventsource")
    return { stamp: { envelope }, exchange: connectionOf(record) };
  const parsed = record.url === undefined ? undefined : httpUrl(record.url);
  if (!parsed) return { stamp: { envelope }, exchange: connectionOf(record) };
  const name =
    rule.label?.trim() ||
    (rule.url.startsWith(parsed.origin) && rule.url.length > parsed.origin.length
      ? rule.url.slice(parsed.origin.length)
      : rule.url);
  return { stamp: { envelope, server: `${parsed.origin} (${name})`, via: parsed.origin }, exchange: envelope };
}

export function createDecoders(rules: readonly Decoder[]): Adapter {
  const compiled = rules.map((rule) => ({ rule, matches: urlMatcher(rule.url), envelope: DECODE_PREFIX + rule.id }));
  /** HTTP exchanges a rule matched, by id: their heads and ends are the host's. */
  const matched = new Set<string>();

  const ruleFor = (record: Draft): (typeof compiled)[number] | undefined => {
    const url = record.url;
    if (url === undefined) return undefined;
    const method = record.kind === "message" ? record.method?.toUpperCase() : undefined;
    for (const c of compiled) {
      if (c.rule.method !== undefined && c.rule.method !== method) continue;
      if (c.matches(url)) return c;
    }
    return undefined;
  };

  return {
    name: "decode",
    push(seen: Seen, tally: Tally): Draft[] | undefined {
      const record = seen.record;
      if (compiled.length === 0 || record.kind === "page-request") return undefined;
      if (record.kind !== "message") {
        const known = record.exchange !== undefined && matched.has(record.exchange);
        // Heads and ends carry no method: a rule that names one claims them through the exchange only.
        const claimed =
          known ||
          compiled.some((c) => c.rule.method === undefined && record.url !== undefined && c.matches(record.url));
        if (record.kind === "end" && known) matched.delete(record.exchange!);
        return claimed && record.transport === "http" ? [] : undefined;
      }
      const c = ruleFor(record);
      if (!c) return undefined;
      if (record.transport === "http" && record.exchange !== undefined) matched.add(record.exchange);
      if (c.rule.kind === "relay") return relayOf(seen, record, c.rule, tally);
      const direction = c.rule.direction === "both" ? record.direction : c.rule.direction;
      const { stamp, exchange } = placeOf(record, c.rule, c.envelope);
      if (record.truncated !== undefined)
        return [{ ...carried(record, record.text, direction, stamp, exchange), truncated: record.truncated }];
      const json = seen.json();
      if (json === NOT_JSON) return record.text.trim() === "" ? [] : (tally.unreadable(), []);
      let value = resolvePointer(json, c.rule.pointer);
      // String-encoded envelopes: `{"payload": "{\"jsonrpc\":…}"}`.
      if (typeof value === "string") {
        try {
          value = JSON.parse(value);
        } catch {
          return [];
        }
      }
      if (!isJsonRpc(value)) return namesJsonRpc(value) ? (tally.unreadable(), []) : [];
      tally.found(c.envelope);
      return [carried(record, JSON.stringify(value), direction, stamp, exchange)];
    },
  };
}
