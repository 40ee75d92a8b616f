import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { analyze, type Finding, type Flow } from "../../src/engine/index.ts";

/**
 * What the host tests compare: the JSON-RPC messages a witness saw on the wire (the SDK server's own log of what it
 * received and sent, or the MCP-B page's own log of the envelopes that reached it) against the messages the
 * extension recorded, and the engine's flows and findings on each.
 */

/** The record fields issue 9 adds (plan.md "Issue 9 design"): read loosely so this file type-checks before and after. */
export interface Enveloped {
  envelope?: string;
  server?: string;
  via?: string;
  upstreamTransport?: string;
}
export type FlowWithVia = Flow & { via?: string; envelope?: string };

export interface Witnessed {
  direction: "c2s" | "s2c";
  message: unknown;
}

/** JSON with object keys sorted: two messages are the same message whatever order their members travelled in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A JSON-RPC 2.0 message (not a batch): a request/notification, or a response with result or error. */
export function isJsonRpc(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m.jsonrpc === "2.0" && (typeof m.method === "string" || ("id" in m && ("result" in m || "error" in m)));
}

export type Captured = MessageRecord & Enveloped & { message: unknown };

/** The message records, parsed (a batch counts as its messages, each with the record's fields). */
export function capturedMessages(records: readonly CaptureRecord[]): Captured[] {
  return records.flatMap((r) => {
    if (r.kind !== "message") return [];
    const value = parse(r.text);
    const items = Array.isArray(value) ? (value as unknown[]) : [value];
    return items.map((message) => ({ ...(r as MessageRecord & Enveloped), message }));
  });
}

export const key = (m: Witnessed): string => `${m.direction} ${canonical(m.message)}`;

/** The items of `a` that `b` lacks, counting duplicates. */
export function without(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const item of b) left.set(item, (left.get(item) ?? 0) + 1);
  return a.filter((item) => {
    const n = left.get(item) ?? 0;
    if (n > 0) left.set(item, n - 1);
    return n === 0;
  });
}

/** `{missing, extra}` of the captured messages against the witness: both empty when the capture is the wire. */
export function diffMessages(
  witness: readonly Witnessed[],
  captured: readonly Witnessed[],
): { missing: string[]; extra: string[] } {
  const w = witness.map(key);
  const c = captured.map(key);
  return { missing: without(w, c), extra: without(c, w) };
}

/**
 * The witnesses' messages as a bare capture (postMessage records, one scope per server, each server's messages in
 * its witness's order): the reference the engine's findings on the extension's capture are compared with. The
 * envelope or proxy adds nothing and hides nothing.
 */
export function referenceCapture(...servers: { wire: readonly Witnessed[]; server: string }[]): CaptureRecord[] {
  return servers
    .flatMap(({ wire, server }) => wire.map((m) => ({ m, server })))
    .map(({ m, server }, seq) => ({
      v: 1,
      seq,
      time: 1_000 + seq,
      transport: "postMessage",
      exchange: `reference ${server}`,
      url: server,
      client: "reference",
      kind: "message",
      direction: m.direction,
      stream: "postMessage",
      text: JSON.stringify(m.message),
    }));
}

/** What a flow is, for comparing: its call, outcome, server and answers. */
export interface FlowSummary {
  method: string;
  target: string | null;
  status: Flow["status"];
  server: string;
  via: string | undefined;
  /** [mode, action, completed] of each elicitation. */
  elicitations: [string, string | null, boolean][];
}

export const summary = (flow: Flow): FlowSummary => ({
  method: flow.method,
  target: flow.target,
  status: flow.status,
  server: flow.server,
  via: (flow as FlowWithVia).via,
  elicitations: flow.elicitations.map((e) => [e.mode, e.action, e.completed]),
});

/** `severity rule target` of each finding, sorted: the findings of two captures of the same traffic must agree. */
export function findingKeys(result: { flows: Flow[]; findings: Finding[] }): string[] {
  const target = new Map(result.flows.map((f) => [f.id, `${f.method} ${f.target ?? ""}`]));
  return result.findings.map((f) => `${f.severity} ${f.rule} ${f.flow ? target.get(f.flow) : "-"}`).sort();
}

export { analyze };
