import { envelopeLabel } from "../../src/capture/envelopes/index.ts";
import type { Flow } from "../../src/engine/index.ts";
import type { Decoder } from "../../src/shared/decoders.ts";
import { isErrorAnswer } from "./outcome.ts";
import { escapeInvisible } from "./text.ts";

/** The distinct elicitation modes a flow asked in, in order of first use. */
export function modesOf(flow: Flow): string[] {
  const modes: string[] = [];
  for (const e of flow.elicitations) if (!modes.includes(String(e.mode))) modes.push(String(e.mode));
  return modes.map(escapeInvisible);
}

/**
 * host:port/path of an endpoint URL (the full URL goes in a tooltip); the text itself when it does not parse. A
 * window's server key is `postMessage:<origin>`: its origin's host is the label (the transport is in the messages).
 * A decode rule's HTTP server is `<origin> (<rule label or pattern>)` (src/capture/envelopes/decoders.ts):
 * host:port and the name.
 */
export function serverLabel(server: string): string {
  if (server.startsWith("postMessage:")) return serverLabel(server.slice("postMessage:".length));
  const named = /^(https?:\/\/[^\s/]+) (\(.*\))$/s.exec(server);
  if (named) return `${serverLabel(named[1]!)} ${escapeInvisible(named[2]!)}`;
  try {
    const u = new URL(server);
    return escapeInvisible(`${u.host}${u.pathname === "/" ? "" : u.pathname}`);
  } catch {
    return escapeInvisible(server);
  }
}

/**
 * What carried a flow or record, in words: "MCP Inspector backend", "MCP-B postMessage", "proxy", "nested
 * JSON-RPC" (src/capture/envelopes' ENVELOPE_LABELS), a decode rule by its id and the label its author gave it.
 */
export function envelopeName(envelope: string, rules: readonly Decoder[] = []): string {
  const rule = envelope.startsWith("decode:") ? rules.find((r) => `decode:${r.id}` === envelope) : undefined;
  return escapeInvisible(rule?.label ? `decoder ${rule.id} “${rule.label}”` : envelopeLabel(envelope));
}

/**
 * Beside the server (the upstream, when the capture names it): the host's envelope and the proxy or backend the
 * flow went through — "via MCP Inspector backend at 127.0.0.1:6277/api/mcp", "via proxy at localhost:6277/mcp",
 * "via MCP-B postMessage"; null for a page that talks to its server directly.
 */
export function viaText(
  flow: { via?: string | undefined; envelope?: string | undefined },
  rules?: readonly Decoder[],
): string | null {
  if (flow.via === undefined && flow.envelope === undefined) return null;
  const what = flow.envelope === undefined ? undefined : envelopeName(flow.envelope, rules);
  const where = flow.via === undefined ? undefined : serverLabel(flow.via);
  return `via ${what && where ? `${what} at ${where}` : (what ?? where)}`;
}

/** A span of time on the timeline. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * When the flow waited on the user: from each question to its answer (or to `now` while unanswered in a pending
 * flow). Everything else between the flow's start and end is the server's (or the network's).
 */
export function userIntervals(flow: Flow, now: number): Interval[] {
  const out: Interval[] = [];
  for (const e of flow.elicitations) {
    // A client that answered with an error asked nobody (the engine's userMs agrees).
    if (isErrorAnswer(e)) continue;
    const end = e.answeredAt ?? (flow.status === "pending" ? now : (flow.endedAt ?? e.askedAt));
    if (end > e.askedAt) out.push({ start: e.askedAt, end });
  }
  return out;
}

/** The flow's own end, or `now` while it is pending. */
export const flowEnd = (flow: Flow, now: number): number =>
  flow.status === "pending" ? Math.max(now, flow.endedAt ?? flow.startedAt) : (flow.endedAt ?? lastTime(flow));

const lastTime = (flow: Flow): number => {
  let t = flow.startedAt;
  for (const r of flow.rounds) t = Math.max(t, r.answeredAt ?? r.sentAt);
  for (const e of flow.elicitations) t = Math.max(t, e.answeredAt ?? e.askedAt);
  return t;
};

/** A timeline lane's label: host:port/path, cut at the front when long (the path tells servers of one host apart). */
export function laneLabel(server: string, max = 17): string {
  const label = serverLabel(server);
  return label.length > max ? `…${label.slice(-(max - 1))}` : label;
}
