import type { RecordDraft } from "../shared/tapRecord.ts";
import type { DecoderMatcher } from "./decoders.ts";
import type { AskUrls } from "./relay.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";
import {
  ReflectGetOwnPropertyDescriptor,
  ReflectGetPrototypeOf,
  StringPrototypeIncludes,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  StringPrototypeToLowerCase,
  trimAscii,
  TypeErrorPrototype,
} from "./primordials.ts";
import { KEPT_HEADERS } from "../capture/kinds.ts";

/** The cheap test that keeps non-MCP traffic on the fast path: every JSON-RPC message names its version. */
export const looksJsonRpc = (text: string): boolean => StringPrototypeIncludes(text, '"jsonrpc"');

/** The headers a record may keep: the capture format's one list (src/capture/kinds.ts, no imports of its own). */
export { KEPT_HEADERS };
/** Request headers that make a request MCP whatever its body: the first four of KEPT_HEADERS. */
const MCP_HEADER_COUNT = 4;

export type KeptHeaders = Partial<Record<(typeof KEPT_HEADERS)[number], string>>;

export interface HeaderScan {
  kept: KeptHeaders | undefined;
  /** An `Mcp-*` request header was set: the request is MCP whatever its body. */
  mcp: boolean;
  accept: string;
}

/** Request headers through a getter (case-insensitive); only the kept names and Accept are asked for, so Authorization and cookies are never read. */
export function scanHeaders(get: (name: string) => string | null): HeaderScan {
  const scan: HeaderScan = { kept: pickHeaders(get), mcp: false, accept: get("accept") ?? "" };
  for (let i = 0; i < MCP_HEADER_COUNT; i++) if (scan.kept?.[KEPT_HEADERS[i]!] !== undefined) scan.mcp = true;
  return scan;
}

/** Response (or request) headers through a getter; only the kept names are asked for. */
export function pickHeaders(get: (name: string) => string | null): KeptHeaders | undefined {
  let out: KeptHeaders | undefined;
  for (let i = 0; i < KEPT_HEADERS.length; i++) {
    const name = KEPT_HEADERS[i]!;
    const value = get(name);
    if (value !== null && value !== undefined) out = { ...out, [name]: value };
  }
  return out;
}

/** The media type's essence: `Text/Event-Stream; charset=utf-8` → `text/event-stream`. */
function essence(contentType: string | null | undefined): string {
  const type = contentType ?? "";
  const semicolon = StringPrototypeIndexOf(type, ";");
  return StringPrototypeToLowerCase(trimAscii(semicolon === -1 ? type : StringPrototypeSlice(type, 0, semicolon)));
}

export const isEventStream = (contentType: string | null | undefined): boolean =>
  essence(contentType) === "text/event-stream";

export function isJsonType(contentType: string | null | undefined): boolean {
  const type = essence(contentType);
  return type === "application/json" || (type.length > 5 && StringPrototypeSlice(type, type.length - 5) === "+json");
}

/** The text, cut at the size cap with the visible marker the engine and the panel report. */
export function capped(text: string): { text: string; truncated?: number } {
  return text.length > MESSAGE_CAP
    ? { text: StringPrototypeSlice(text, 0, MESSAGE_CAP), truncated: MESSAGE_CAP }
    : { text };
}

/** The DOMException accessors failure() reads (natives.ts). */
export interface ErrorReaders {
  domExceptionName(error: unknown): string;
  domExceptionMessage(error: unknown): string;
}

/**
 * How an exchange failed, in the words of the capture format: `abort`, `network`, `timeout` or the message. Read
 * through the built-in accessors only: an abort reason can be any page object, and the tap must not run its code.
 */
export function failure(N: ErrorReaders, error: unknown, aborted = false): string {
  let name: string | undefined;
  try {
    name = N.domExceptionName(error);
  } catch {
    name = undefined;
  }
  if (name === "TimeoutError") return "timeout";
  if (aborted || name === "AbortError") return "abort";
  if (name !== undefined) return N.domExceptionMessage(error);
  if (typeof error === "string") return error;
  if (error === null || typeof error !== "object") return "error";
  if (ReflectGetPrototypeOf(error) === TypeErrorPrototype) return "network";
  const message: unknown = ReflectGetOwnPropertyDescriptor(error, "message")?.value;
  return typeof message === "string" ? message : "error";
}

/** What every hook needs: where records go, the clock, ids, and the endpoints seen. */
export interface Tap {
  emit(record: RecordDraft): void;
  /** Whether records are sent (the worker records this frame): off, the hooks may skip their work. */
  on(): boolean;
  /** A place in the order for records known later (emit.ts `reserve`). */
  reserve(): (records: RecordDraft[]) => void;
  now(): number;
  /** The page origin: the `client` of every record. */
  client: string;
  /** A new exchange id, unique across documents (random per document). */
  id(kind: string): string;
  /** Origin + path of every endpoint seen carrying MCP: a later GET `text/event-stream` there is the MCP GET stream. */
  addEndpoint(url: string): void;
  hasEndpoint(url: string): boolean;
  hasEndpoints(): boolean;
  decode(bytes: AllowSharedBufferSource): string;
  /** The user's "Decode as MCP" rules, as the relay last sent them: traffic they match is recorded whatever it carries. */
  rules: DecoderMatcher;
  /** The relayed URL-mode asks' URLs not yet loaded (relay.ts `createAskUrls`). */
  askUrls: AskUrls;
  /** Records the page's request for `href` when it is a remembered ask's URL (method, origin and path only). */
  pageRequest(href: string, method: string): void;
}
