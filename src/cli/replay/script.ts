import type { CaptureRecord } from "../../capture/record.ts";

/**
 * A capture as replay plays it: one timeline per captured session (2025-11-25: its `mcp-session-id`), and one
 * for the traffic without a session (2026-07-28 is stateless), each the session's HTTP records in capture order.
 */
export interface Timeline {
  /** The captured session id, or undefined for the stateless timeline. */
  sessionId?: string;
  steps: CaptureRecord[];
}

export interface Script {
  timelines: Timeline[];
  /** Origins of the captured server(s): replay puts its own in their place in what it sends (URL-mode links). */
  origins: string[];
  /** Paths the captured MCP endpoints were served at. */
  paths: string[];
  /** Records replay cannot play (not Streamable HTTP), counted for the report. */
  skipped: number;
}

const sessionOf = (record: CaptureRecord): string | undefined =>
  record.kind === "message" || record.kind === "response" ? record.headers?.["mcp-session-id"] : undefined;

export function buildScript(records: readonly CaptureRecord[]): Script {
  const sessionOfExchange = new Map<string, string>();
  for (const r of records) {
    const id = sessionOf(r);
    if (r.exchange !== undefined && id !== undefined && !sessionOfExchange.has(r.exchange))
      sessionOfExchange.set(r.exchange, id);
  }
  const timelines = new Map<string | undefined, Timeline>();
  const origins = new Set<string>();
  const paths = new Set<string>();
  let skipped = 0;
  for (const r of records) {
    if (
      r.transport !== "http" ||
      r.exchange === undefined ||
      (r.kind !== "message" && r.kind !== "response" && r.kind !== "end")
    ) {
      if (r.kind !== "page-request") skipped++;
      continue;
    }
    if (r.url !== undefined && URL.canParse(r.url)) {
      const url = new URL(r.url);
      origins.add(url.origin);
      paths.add(url.pathname);
    }
    const key = sessionOfExchange.get(r.exchange);
    let timeline = timelines.get(key);
    if (!timeline) timelines.set(key, (timeline = { ...(key !== undefined && { sessionId: key }), steps: [] }));
    timeline.steps.push(r);
  }
  return { timelines: [...timelines.values()], origins: [...origins], paths: [...paths], skipped };
}

/** The JSON-RPC messages of a record's text (a batch is several); none when it is not JSON. */
export function messagesOf(text: string): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.filter((m): m is Record<string, unknown> => typeof m === "object" && m !== null && !Array.isArray(m));
}

export const isRequest = (m: Record<string, unknown>): boolean =>
  typeof m.method === "string" && m.id !== undefined && m.id !== null;
export const isAnswer = (m: Record<string, unknown>): boolean =>
  m.method === undefined && m.id !== undefined && ("result" in m || "error" in m);

/** What names a request among its kind: a tool's or a prompt's name, a resource's URI. */
export function requestName(m: Record<string, unknown>): string | undefined {
  const params = m.params as Record<string, unknown> | undefined;
  const name = params?.name ?? params?.uri;
  return typeof name === "string" ? name : undefined;
}

/** `tools/call confirm_action`: how replay names a request in what it prints. */
export const describe = (m: Record<string, unknown>): string =>
  `${String(m.method)}${requestName(m) !== undefined ? " " + requestName(m) : ""}`;
