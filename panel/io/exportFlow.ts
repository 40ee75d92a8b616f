import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Flow } from "../../src/engine/index.ts";

/** The JSON-RPC method of a client message record, read without parsing the whole text when it cannot be one. */
function methodOf(record: CaptureRecord): string | undefined {
  if (record.kind !== "message" || record.direction !== "c2s" || !record.text.includes('"method"')) return undefined;
  try {
    const value = JSON.parse(record.text) as { method?: unknown };
    return typeof value.method === "string" ? value.method : undefined;
  } catch {
    return undefined;
  }
}

const sessionOf = (record: CaptureRecord): string | undefined =>
  record.kind === "message" || record.kind === "response" ? record.headers?.["mcp-session-id"] : undefined;

const OPENING = new Set(["initialize", "notifications/initialized"]);

/**
 * One flow as a capture of its own (the panel's "Export flow as JSONL"): the flow's records, the status and end of
 * each exchange they travelled in (not the other messages of a shared stream), and the session's opening — the
 * `initialize` exchange and `notifications/initialized` of a 2025-11-25 session, the last `server/discover` of the
 * endpoint before the flow in 2026-07-28 — so that it lints to that one flow, as a regression fixture.
 */
export function flowRecords(records: readonly CaptureRecord[], flow: Flow): CaptureRecord[] {
  const inFlow = new Set(flow.records);
  const exchanges = new Set<string>();
  let first = Infinity;
  let session: string | undefined;
  let endpoint: { url?: string; client?: string } | undefined;
  for (const r of records) {
    if (!inFlow.has(r.seq)) continue;
    if (r.exchange !== undefined) exchanges.add(r.exchange);
    first = Math.min(first, r.seq);
    session ??= sessionOf(r);
    endpoint ??= { ...(r.url !== undefined && { url: r.url }), ...(r.client !== undefined && { client: r.client }) };
  }
  const opening = new Set<string>();
  if (session !== undefined) {
    // The exchanges of the session that opened it: initialize (its response names the session) and initialized.
    const ofSession = new Set(
      records.filter((r) => r.exchange !== undefined && sessionOf(r) === session).map((r) => r.exchange!),
    );
    for (const r of records)
      if (r.seq < first && r.exchange !== undefined && ofSession.has(r.exchange) && OPENING.has(methodOf(r) ?? ""))
        opening.add(r.exchange);
  } else {
    let discover: string | undefined;
    for (const r of records) {
      if (r.seq >= first) break;
      if (
        r.exchange !== undefined &&
        r.url === endpoint?.url &&
        r.client === endpoint?.client &&
        methodOf(r) === "server/discover"
      )
        discover = r.exchange;
    }
    if (discover !== undefined) opening.add(discover);
  }
  return records.filter(
    (r) =>
      inFlow.has(r.seq) ||
      (r.exchange !== undefined && (opening.has(r.exchange) || (exchanges.has(r.exchange) && r.kind !== "message"))),
  );
}

/** The file name of an exported flow: the flow's id and method, nothing a captured text could steer. */
export const flowFileName = (flow: Flow, base: string): string =>
  `${base}-${flow.id}-${flow.method.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40)}.jsonl`;
