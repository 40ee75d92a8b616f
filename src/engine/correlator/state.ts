// The correlator's one state: scopes (where JSON-RPC ids live), open HTTP exchanges, and what links sessions
// and servers; and the flow bookkeeping every flow kind shares (new flows, their records, their clock).
import type { CaptureRecord, MessageRecord } from "../../capture/record.ts";
import { idKey } from "../../protocol/jsonrpc.ts";
import { MRTR_METHODS } from "../../protocol/mrtr.ts";
import type { Revision } from "../../protocol/revision.ts";
import { canonicalJson } from "../../util/json.ts";
import type { Env } from "../env.ts";
import type { Exchange } from "../model/exchange.ts";
import type { Emit, UrlElicitation } from "../facts.ts";
import { createRelays, type RelayOptions } from "./relay.ts";
import { createRound, type Flow, type FlowKind, type Round } from "../flow.ts";
import { attachState, stateOf } from "../flowState.ts";
import { createExchanges } from "./exchanges.ts";
import type { ClientRequest, Scope } from "../model/scope.ts";
import { createScopes } from "./scopes.ts";

export { idKey };

/** A missing params or result object reads as this one; nothing writes to it. */
export const EMPTY: Record<string, unknown> = Object.freeze({});

export type State = ReturnType<typeof createState>;

export function createState(env: Env, options: RelayOptions = {}) {
  const scopes = createScopes();
  const exchanges = createExchanges();
  /** HTTP+SSE (2024-11-05 transport): POST endpoint URL → the EventSource's server key. */
  const endpointAliases = new Map<string, string>();
  /** URL parsing costs more than the rest of a record's handling: one parse per distinct URL. */
  const endpointOf = new Map<string, string>();

  const serverKey = (record: CaptureRecord): string => {
    // The upstream a proxy or host backend names (capture-format.md, "Envelopes"): two upstreams behind one proxy are two servers.
    const server = record.kind === "message" ? record.server : undefined;
    const url = server ?? record.url ?? "";
    const alias = endpointAliases.get(url);
    if (alias) return alias;
    if (server !== undefined && !/^https?:/i.test(server)) return server;
    if (record.transport !== "http" && server === undefined) return `${record.transport}:${url}`;
    let key = endpointOf.get(url);
    if (key === undefined) {
      try {
        const u = new URL(url);
        key = u.origin + u.pathname;
      } catch {
        key = url || "(unknown endpoint)";
      }
      endpointOf.set(url, key);
    }
    return key;
  };

  // A backend flow's end tells the join which answers the page gave that never reached the server.
  const emit: Emit = (name, fact) => {
    env.emit(name, fact);
    if ((name === "flowCompleted" || name === "flowFailed") && fact.flow?.source === "backend")
      relays.backendEnded(fact.flow);
  };
  const relays = createRelays(env, emit, options);

  const state = {
    env,
    emit,
    /** The join of an agent backend's wire with the page's relayed asks (relay.ts). */
    relays,
    scopes,
    exchanges,
    endpointAliases,
    serverKey,
    /** Server endpoint + elicitationId → the scope (session) that issued it. */
    elicitationIdOwners: new Map<string, Scope>(),
    /**
     * URL-mode elicitations by their URL's origin + path, for the page's requests (HAR imports). URLs are parsed
     * only once such a record comes: until then (always, for live captures) they wait unparsed in `unindexed`.
     */
    urlElicitations: new Map<string, UrlElicitation[]>(),
    unindexed: [] as UrlElicitation[],
    /**
     * Servers (by key) with an SSE stream whose body a HAR did not keep (Chromium keeps none for a stream the client
     * aborted): what it carried is unknown.
     */
    lostStreams: new Set<string>(),
    /** Whether a page request came: URL elicitations are indexed as they come from then on. */
    pageRequestsSeen: false,
    /** URL elicitations the page has requested already (reported once). */
    prefetched: new WeakSet<UrlElicitation>(),

    /** The scope of a message: its exchange's, else by server, client and Mcp-Session-Id. */
    resolveScope(record: MessageRecord, ex: Exchange | undefined): Scope {
      if (ex?.scope) return ex.scope;
      const server = serverKey(record);
      const client = record.client ?? "";
      // An envelope's messages have no session header; their exchange names the connection (a backend session, a channel, a socket).
      if (record.stream === "envelope") return scopes.get(server, client, record.exchange ?? "");
      const sessionId =
        record.headers?.["mcp-session-id"] ??
        ex?.requestHeaders?.["mcp-session-id"] ??
        ex?.responseHeaders?.["mcp-session-id"];
      if (sessionId !== undefined) return scopes.get(server, client, sessionId);
      if (record.stream === "get-sse") return scopes.latestSession(server, client) ?? scopes.get(server, client, "");
      return scopes.get(server, client, "");
    },

    newFlow(
      kind: FlowKind,
      scope: Scope,
      req: ClientRequest | undefined,
      record: MessageRecord,
      revision: Revision | null,
    ): Flow {
      const flow: Flow = {
        id: env.newFlowId(),
        kind,
        revision,
        method: req?.method ?? "(none)",
        target: req?.target ?? null,
        server: scope.server,
        source: record.source,
        via: record.via,
        envelope: record.envelope,
        session: scope.sessionId,
        elicitations: [],
        rounds: req ? [createRound(1, req.id as Round["requestId"], req.record, req.time)] : [],
        status: "pending",
        startedAt: req?.time ?? record.time,
        serverMs: 0,
        userMs: 0,
        records: req ? [req.record] : [],
        // Written up front (see flow.ts): JSON skips it while undefined.
        endedAt: undefined,
      };
      attachState(flow, req ? "server" : null, flow.startedAt);
      if (req) req.flow = flow;
      if (kind === "fallback-tool") (scope.fallbackFlows ??= []).push(flow);
      return flow;
    },

    /** The record joins the flow, and the flow goes into the engine's delta. */
    touch(flow: Flow, seq: number): void {
      if (flow.records[flow.records.length - 1] !== seq) flow.records.push(seq);
      env.flowChanged(flow);
    },
  };
  return state;
}

/** Moves the flow's clock: time since the last transition goes to the server or to the user. */
export function phase(flow: Flow, next: "server" | "user" | null, at: number): void {
  const t = stateOf(flow);
  const elapsed = Math.max(0, at - t.since);
  if (t.phase === "server") flow.serverMs += elapsed;
  else if (t.phase === "user") flow.userMs += elapsed;
  t.phase = next;
  t.since = at;
}

/** A revived flow's clock runs again, with the server. */
export function restart(flow: Flow, since: number): void {
  const t = stateOf(flow);
  t.phase = "server";
  t.since = since;
}

export function finish(flow: Flow, status: Flow["status"], at: number): void {
  phase(flow, null, at);
  flow.status = status;
  flow.endedAt = at;
}

/** Members in this order: it is the order a flow's JSON shows them in. */
export function answerRound(round: Round, outcome: NonNullable<Round["outcome"]>, record: MessageRecord): void {
  round.outcome = outcome;
  round.responseRecord = record.seq;
  round.answeredAt = record.time;
}

/**
 * method + target + canonical arguments: what links a retry to its request when no requestState does.
 * Computed on first use: most requests are answered without it, and the arguments never change.
 */
export function tupleOf(req: ClientRequest): string {
  // Only the methods that can be retried need their arguments compared.
  return (req.tuple ??= MRTR_METHODS.has(req.method)
    ? `${req.method}\u0000${req.target}\u0000${canonicalJson(req.params.arguments)}`
    : req.method);
}
