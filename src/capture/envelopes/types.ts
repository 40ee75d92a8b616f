import type { CaptureRecord, MessageRecord } from "../record.ts";

/**
 * What the adapters share. Pure TypeScript: no zod, no DOM, no chrome.* (the worker, the importers and the CLI
 * run it; record.ts is imported for its types only).
 */

/** "Decode as…": a user's decoder for a host no built-in adapter knows (decoders.ts). */
export type Decoder = McpDecoder | RelayDecoder;

interface DecoderBase {
  /** Stable id, e.g. "d1"; what it finds is counted under `decode:<id>`. */
  id: string;
  label?: string;
  /** Matched against the full request URL: `*` wildcards (then the whole URL must match), else a substring. */
  url: string;
  /** e.g. "POST"; absent = any. Only HTTP records have a method. */
  method?: string;
}

/** "Decode as MCP": where the MCP message lies; its messages are stamped `envelope: "decode:<id>"`. */
export interface McpDecoder extends DecoderBase {
  kind?: undefined;
  /** RFC 6901 pointer to the MCP message in the body / frame / event data; a string found there is parsed once. */
  pointer: string;
  /** `both`: request bodies and sent frames are c2s, responses and received ones s2c; else every match is that direction. */
  direction: "c2s" | "s2c" | "both";
}

/**
 * "Decode as relayed elicitation", for an app whose relay the built-in recognition misses (relay.ts): where in its
 * messages the ask (the params: `message`, `requestedSchema` or `url`), its id, the answer's action, its content
 * and its id lie, as RFC 6901 pointers from the message's root. An ask is looked for in what the page receives, an
 * answer in what it sends. Stamped `envelope: "relay:decode:<id>"`.
 */
export interface RelayDecoder extends DecoderBase {
  kind: "relay";
  ask?: string;
  askId?: string;
  action?: string;
  content?: string;
  answerId?: string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/**
 * A record before the store gives it a seq: what the tap makes (RecordDraft), and what importers make (those
 * also carry `entry`, and HAR imports make `page-request` records).
 */
export type Draft = DistributiveOmit<CaptureRecord, "seq" | "v">;
export type MessageDraft = Extract<Draft, { kind: "message" }>;

/** The fields an adapter stamps on the messages it takes out of an envelope. */
export type Stamp = Pick<MessageRecord, "envelope" | "server" | "via" | "upstreamTransport">;

/** The record in hand, with its text parsed at most once however many adapters look at it. */
export interface Seen {
  record: Draft;
  /** The record's text as JSON; `NOT_JSON` when it is not a message, is cut, or does not parse. */
  json(): unknown;
}

export const NOT_JSON: unique symbol = Symbol("not JSON");

/** Counts an adapter reports into (createUnwrapper's `counts()`). */
export interface Tally {
  /** A message taken out of an envelope, under its stamp (`inspector-v2`, `decode:d1`, …). */
  found(envelope: string): void;
  /** An envelope body that should have carried MCP and could not be read (bad JSON, a payload that is not JSON-RPC). */
  unreadable(): void;
}

/**
 * One envelope. `push` answers undefined when the record is not this adapter's (the next one looks), else what to
 * store in its place: the message(s) it carries, stamped, or nothing (a wrapper, an `{"ok":true}` answer).
 */
export interface Adapter {
  name: string;
  push(seen: Seen, tally: Tally): Draft[] | undefined;
  /**
   * A message stamped already (a stored record replayed into a fresh unwrapper when the MV3 worker wakes, a
   * JSONL capture): what the adapter keeps of a host's session is relearnt from it; nothing is counted or made.
   */
  learn?(record: MessageDraft): void;
}

export type Obj = Record<string, unknown>;
export const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The message record an envelope carried: the wrapper's time, client and transport, the carried text, and the
 * stamp; no HTTP method or headers (they were the envelope's, not the MCP message's) and stream `envelope`.
 */
export function carried(
  record: MessageDraft,
  text: string,
  direction: MessageRecord["direction"],
  stamp: Stamp & { envelope: string },
  exchange: string | undefined,
  url = record.url,
): MessageDraft {
  return {
    kind: "message",
    time: record.time,
    transport: record.transport,
    ...(exchange !== undefined && { exchange }),
    ...(url !== undefined && { url }),
    ...(record.client !== undefined && { client: record.client }),
    ...(record.entry !== undefined && { entry: record.entry }),
    direction,
    stream: "envelope",
    text,
    ...stamp,
  };
}

/**
 * The exchange an enveloped message keeps: the engine scopes envelope messages by it (one scope per exchange),
 * so it must name a connection, not a request. A socket or a postMessage pair is one; an HTTP request is not (the
 * answer to a question can come in another request), so those share the endpoint's scope.
 */
export const connectionOf = (record: Draft): string | undefined =>
  record.transport === "websocket" || record.transport === "postMessage" ? record.exchange : undefined;
