import type { RecordDraft } from "../shared/tapRecord.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";

/** The cheap test that keeps non-MCP traffic on the fast path: every JSON-RPC message names its version. */
export const looksJsonRpc = (text: string): boolean => text.includes('"jsonrpc"');

/** The headers a record may keep (src/capture/record.ts `keptHeaders`; a test keeps the lists equal). */
export const KEPT_HEADERS = ["mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "content-type", "last-event-id"] as const;
const MCP_HEADERS = ["mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name"];

export type KeptHeaders = Partial<Record<(typeof KEPT_HEADERS)[number], string>>;

export interface HeaderScan {
  kept: KeptHeaders | undefined;
  /** An `Mcp-*` request header was set: the request is MCP whatever its body. */
  mcp: boolean;
  accept: string;
}

/** Reads a `HeadersInit` (Headers, pairs or a record) without building a Headers object; Authorization and cookies are never read. */
export function scanHeaders(init: unknown, HeadersCtor: typeof Headers | undefined): HeaderScan {
  const scan: HeaderScan = { kept: undefined, mcp: false, accept: "" };
  const take = (name: string, value: unknown): void => {
    const key = name.toLowerCase();
    if (key === "accept") scan.accept = String(value);
    else if ((KEPT_HEADERS as readonly string[]).includes(key)) {
      (scan.kept ??= {})[key as keyof KeptHeaders] = String(value);
      if (MCP_HEADERS.includes(key)) scan.mcp = true;
    }
  };
  if (init == null || typeof init !== "object") return scan;
  if (HeadersCtor && init instanceof HeadersCtor) {
    for (const name of [...KEPT_HEADERS, "accept"]) {
      const value = init.get(name);
      if (value !== null) take(name, value);
    }
  } else if (Array.isArray(init)) {
    for (const pair of init) if (Array.isArray(pair) && pair.length === 2) take(String(pair[0]), pair[1]);
  } else {
    for (const name of Object.keys(init)) take(name, (init as Record<string, unknown>)[name]);
  }
  return scan;
}

/** Response (or XHR) headers through a getter; only the kept names are asked for. */
export function pickHeaders(get: (name: string) => string | null): KeptHeaders | undefined {
  let out: KeptHeaders | undefined;
  for (const name of KEPT_HEADERS) {
    const value = get(name);
    if (value !== null && value !== undefined) (out ??= {})[name] = value;
  }
  return out;
}

export const isEventStream = (contentType: string | null | undefined): boolean => /^\s*text\/event-stream/i.test(contentType ?? "");

export function isJsonType(contentType: string | null | undefined): boolean {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

/** The text, cut at the size cap with the visible marker the engine and the panel report. */
export function capped(text: string): { text: string; truncated?: number } {
  return text.length > MESSAGE_CAP ? { text: text.slice(0, MESSAGE_CAP), truncated: MESSAGE_CAP } : { text };
}

/** How an exchange failed, in the words of the capture format: `abort`, `network`, `timeout` or the message. */
export function failure(error: unknown): string {
  const name = error !== null && typeof error === "object" ? (error as { name?: unknown }).name : undefined;
  if (name === "AbortError") return "abort";
  if (name === "TimeoutError") return "timeout";
  if (name === "TypeError") return "network";
  return error instanceof Error || (error !== null && typeof error === "object" && "message" in error) ? String((error as Error).message) : String(error);
}

/** What every hook needs: where records go, the clock, ids, and the originals. */
export interface Tap {
  emit(record: RecordDraft): void;
  /** A place in the order for records known later (emit.ts `reserve`). */
  reserve(): (records: RecordDraft[]) => void;
  /** A record of something the page sent (emit.ts `emitSent`). */
  emitSent(record: RecordDraft): void;
  /** Counts streams being read from a tee (+1 at start, -1 at end). */
  reading(change: 1 | -1): void;
  now(): number;
  /** The page origin: the `client` of every record. */
  client: string;
  /** A new exchange id, unique across documents (random per document). */
  id(kind: string): string;
  /** Origin + path of every endpoint seen carrying MCP: a later GET `text/event-stream` there is the MCP GET stream. */
  endpoints: Set<string>;
  decode(bytes: ArrayBuffer | ArrayBufferView): string;
}
