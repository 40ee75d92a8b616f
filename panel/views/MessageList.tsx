import { useSignal } from "@preact/signals";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { envelopeName } from "../model/flowFacts.ts";
import { JsonBlock } from "./JsonBlock.tsx";
import { parseJson } from "../model/json.ts";
import type { FlowStore, FlowView } from "../state/store.ts";
import { clock, shown } from "../model/text.ts";

/** Messages shorter than this start expanded. */
const OPEN_BELOW = 16 * 1024;

/** What a record says in one line: the JSON-RPC method of a request or notification, result / error for answers. */
export function summary(record: CaptureRecord): string {
  if (record.kind === "response")
    return `HTTP ${record.status}${record.headers?.["content-type"] ? ` ${record.headers["content-type"]}` : ""}${record.emptyBody ? " (empty body)" : ""}`;
  if (record.kind === "end") return record.error ? `ended: ${record.error}` : "ended";
  if (record.kind === "page-request") return `page request (not MCP): ${record.method} ${record.url ?? ""}`;
  if (record.event === "endpoint") return "endpoint event";
  if (record.text.length > SUMMARY_MAX) return "message (large)";
  const parsed = parseJson(record.text);
  if (!parsed.ok) return "not JSON";
  const one = (m: unknown): string => {
    if (typeof m !== "object" || m === null) return "not a message";
    const msg = m as { method?: unknown; result?: { resultType?: unknown }; error?: { code?: unknown } };
    if (typeof msg.method === "string") return msg.method;
    if (msg.error !== undefined) return `error ${typeof msg.error?.code === "number" ? msg.error.code : ""}`.trim();
    if (msg.result !== undefined)
      return typeof msg.result?.resultType === "string" ? `result: ${msg.result.resultType}` : "result";
    return "message";
  };
  return Array.isArray(parsed.value) ? `batch: ${parsed.value.map(one).join(", ")}` : one(parsed.value);
}
const SUMMARY_MAX = 64 * 1024;

/**
 * The flow's records in order: direction, transport, stream kind, time (and offset from the flow's start), each
 * message as pretty JSON with copy. The evidence of the selected finding is expanded and highlighted.
 */
export function MessageList({ view, store }: { view: FlowView; store: FlowStore }) {
  const flow = view.flow;
  const toggled = useSignal<ReadonlySet<number>>(new Set());
  const focus = store.focus.value;
  return (
    <ol class="messages" aria-label={`messages of ${flow.id}`}>
      {flow.records.map((seq) => {
        const record = view.record(seq);
        if (!record) return <li key={seq}>record {seq} (not loaded)</li>;
        const evidence = focus?.record === seq;
        const big = record.kind === "message" && record.text.length >= OPEN_BELOW;
        // Small messages start open, large ones closed; a click flips that; the evidence is always open.
        const open = record.kind === "message" && (evidence || (toggled.value.has(seq) ? big : !big));
        const flip = () => {
          const next = new Set(toggled.value);
          if (next.has(seq)) next.delete(seq);
          else next.add(seq);
          toggled.value = next;
        };
        const dir = record.kind === "message" ? record.direction : "s2c";
        return (
          <li key={seq} class={`message ${dir}${evidence ? " evidence" : ""}`} data-record={seq}>
            <button
              type="button"
              class="message-head"
              aria-expanded={record.kind === "message" ? open : undefined}
              onClick={flip}
              disabled={record.kind !== "message"}
            >
              <span class="seq">#{seq}</span>
              <span class="dir" title={dir === "c2s" ? "client → server" : "server → client"}>
                {record.kind === "message" ? (dir === "c2s" ? "→ c2s" : "← s2c") : "·"}
              </span>
              <span class="transport">{record.transport}</span>
              <span class="stream">{record.kind === "message" ? record.stream : record.kind}</span>
              <span class="time">
                {clock(record.time)}{" "}
                <span class="offset">+{Math.max(0, Math.round(record.time - flow.startedAt))} ms</span>
              </span>
              <span class="what">{shown(summary(record), 120)}</span>
              {record.kind === "message" && record.envelope !== undefined && (
                <span class="via" title={record.via === undefined ? undefined : shown(record.via, 2000)}>
                  via {envelopeName(record.envelope, store.decoders.value)}
                </span>
              )}
              {record.kind === "message" && record.truncated !== undefined && (
                <span class="note">cut at {record.truncated} characters</span>
              )}
            </button>
            {open && record.kind === "message" && (
              <JsonBlock text={record.text} pointer={evidence ? focus.pointer : undefined} label={`message ${seq}`} />
            )}
          </li>
        );
      })}
    </ol>
  );
}
