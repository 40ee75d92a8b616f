import { describeCut, parseBounded } from "../util/depth.ts";
import { originAndPath, originOf, type CaptureRecord, type EndRecord, type MessageRecord, type PageRequestRecord, type ResponseRecord } from "../capture/record.ts";
import { classify, idKey as protocolIdKey, idText, type Classified } from "../protocol/jsonrpc.ts";
import { ELICIT_COMPLETE, ELICIT_METHOD } from "../protocol/elicitation.ts";
import { MRTR_METHODS } from "../protocol/mrtr.ts";
import { isModern, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_RELATED_TASK, type Revision } from "../protocol/revision.ts";
import { declaresElicitation, declaredModes } from "./caps.ts";
import type { Env, Exchange, MessageContext } from "./env.ts";
import { append, createElicitation, createRound, type Elicitation, type Flow, type FlowKind, type Round } from "./flow.ts";
import { attachState, stateOf } from "./flowState.ts";
import { canonicalJson, countKeys, isObject, join, pointer } from "./pointer.ts";
import { checkClientCapsShape, checkModeDeclared } from "./rules/capability.ts";
import { checkMissingCapError, checkOtherModernError, checkToolErrorResult, checkUrlRequiredError } from "./rules/errors.ts";
import { checkIrr, checkResultType, checkRetry, checkServerAfterRetry } from "./rules/mrtr.ts";
import { checkCompletionShape } from "./rules/notify.ts";
import { createPayloadCache } from "./payloadCache.ts";
import { checkElicitResult, elicitMode } from "./rules/payload.ts";
import { checkEnvelopeAnswer, checkLegacyHeader, checkModernRequestEnvelope } from "./rules/revision.ts";
import type { FindingInput, Report } from "./rules/types.ts";
import { addRequestId, createExchanges, noteEvent } from "./exchanges.ts";
import { createScopes, keptTable, type ClientRequest, type MrtrLink, type Scope } from "./scope.ts";

/** Requests that plausibly need no user input (del-r12-related-request case c). */
const NON_INTERACTIVE = /^(ping|initialize|completion\/complete|.*\/list)$/;
/** Where a 2026-07-28 request's clientCapabilities sit (RFC 6901: "/" in the key is "~1"). */
const CAPS_POINTER = pointer("params", "_meta", META_CLIENT_CAPABILITIES);
/**
 * The protocol's id key, made once for the small integer ids nearly every client uses: every request and
 * response needs its key, and a shared string also keeps its hash for the Map lookups.
 */
const SMALL_ID_KEYS: string[] = Array.from({ length: 1024 }, (_, n) => protocolIdKey(n));
const idKey = (id: unknown): string => (typeof id === "number" && id >= 0 && id < 1024 && Number.isInteger(id) ? SMALL_ID_KEYS[id]! : protocolIdKey(id));
/** A missing params or result object reads as this one; nothing writes to it. */
const EMPTY: Record<string, unknown> = Object.freeze({});
/** FrontMCP's fallback tool (issue: `fallback-tool` flows). */
const FALLBACK_TOOL = "sendElicitationResult";

/** SSE priming events carry no data; a JSON text starts with "{" or "[" and is never blank, so only others are trimmed. */
const isBlank = (text: string): boolean => {
  const c = text.charCodeAt(0);
  return c !== 123 && c !== 91 && text.trim() === "";
};

export interface CorrelatorOptions {
  /** SEP-2260 strict profile: del-r12-related-request and del-r12-standalone-stream become errors. */
  strict2260?: boolean;
}

/**
 * The incremental correlator: capture records go in one at a time (amortised O(1) each: every lookup is a
 * Map keyed by scope, exchange, JSON-RPC id, requestState or request tuple) and flows come out, while the
 * stateful rules report into the engine.
 */
export function createCorrelator(env: Env, options: CorrelatorOptions = {}) {
  const scopes = createScopes();
  const exchanges = createExchanges();
  /** HTTP+SSE (2024-11-05 transport): POST endpoint URL → the EventSource's server key. */
  const endpointAliases = new Map<string, string>();
  /** Server endpoint + elicitationId → the scope (session) that issued it (notify-same-client). */
  const elicitationIdOwners = new Map<string, Scope>();
  const ownerKey = (scope: Scope, id: string): string => `${scope.server}\u0000${id}`;
  /**
   * URL-mode elicitations (elicitation/create, inputRequests, -32042 entries) by their URL's origin + path, for the
   * two rules that need the page's other requests (HAR imports). URLs are parsed only once such a record comes:
   * until then (always, for live captures) they wait unparsed in `unindexed`.
   */
  const urlElicitations = new Map<string, UrlElicitation[]>();
  let unindexed: UrlElicitation[] = [];
  /** url-not-mcp-authorization: origins of protected resources (PRM `resource`) → their authorization servers. */
  const protectedBy = new Map<string, Set<string>>();
  /** Authorization server issuer → origin + path of its `authorization_endpoint` (AS metadata). */
  const authorizeAt = new Map<string, string>();
  const strict = options.strict2260 === true;
  const payload = createPayloadCache();

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

  function resolveScope(record: MessageRecord, ex: Exchange | undefined): Scope {
    if (ex?.scope) return ex.scope;
    const server = serverKey(record);
    const client = record.client ?? "";
    // An envelope's messages have no session header; their exchange names the connection (a backend session, a channel, a socket).
    if (record.stream === "envelope") return scopes.get(server, client, record.exchange ?? "");
    const sessionId = record.headers?.["mcp-session-id"] ?? ex?.requestHeaders?.["mcp-session-id"] ?? ex?.responseHeaders?.["mcp-session-id"];
    if (sessionId !== undefined) return scopes.get(server, client, sessionId);
    if (record.stream === "get-sse") return scopes.latestSession(server, client) ?? scopes.get(server, client, "");
    return scopes.get(server, client, "");
  }

  /**
   * method + target + canonical arguments: what links a retry to its request when no requestState does.
   * Computed on first use: most requests are answered without it, and the arguments never change.
   */
  function tupleOf(req: ClientRequest): string {
    // Only the methods that can be retried need their arguments compared.
    return (req.tuple ??= MRTR_METHODS.has(req.method) ? `${req.method}\u0000${req.target}\u0000${canonicalJson(req.params.arguments)}` : req.method);
  }

  // ---- flows ---------------------------------------------------------------------------------------

  function newFlow(kind: FlowKind, scope: Scope, req: ClientRequest | undefined, record: MessageRecord, revision: Revision | null): Flow {
    const flow: Flow = {
      id: env.newFlowId(),
      kind,
      revision,
      method: req?.method ?? "(none)",
      target: req?.target ?? null,
      server: scope.server,
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
      // Written up front (see flow.ts): JSON skips it while undefined, and the flow keeps its shape.
      endedAt: undefined,
    };
    attachState(flow, req ? "server" : null, flow.startedAt);
    if (req) req.flow = flow;
    if (kind === "fallback-tool") (scope.fallbackFlows ??= []).push(flow);
    return flow;
  }

  function touch(flow: Flow, seq: number): void {
    if (flow.records[flow.records.length - 1] !== seq) flow.records = append(flow.records, seq);
    env.flowChanged(flow);
  }

  /** Moves the flow's clock: time since the last transition goes to the server or to the user. */
  function phase(flow: Flow, next: "server" | "user" | null, at: number): void {
    const t = stateOf(flow);
    const elapsed = Math.max(0, at - t.since);
    if (t.phase === "server") flow.serverMs += elapsed;
    else if (t.phase === "user") flow.userMs += elapsed;
    t.phase = next;
    t.since = at;
  }

  /** Members in this order: it is the order a flow's JSON shows them in. */
  function answerRound(round: Round, outcome: NonNullable<Round["outcome"]>, record: MessageRecord): void {
    round.outcome = outcome;
    round.responseRecord = record.seq;
    round.answeredAt = record.time;
  }

  /** A revived flow's clock runs again, with the server. */
  function restart(flow: Flow, since: number): void {
    const t = stateOf(flow);
    t.phase = "server";
    t.since = since;
  }

  function finish(flow: Flow, status: Flow["status"], at: number): void {
    phase(flow, null, at);
    flow.status = status;
    flow.endedAt = at;
  }

  /**
   * A Report bound to a flow and revision; its findings name the record in hand (the engine's default). Handlers
   * ask for the same one several times per message (the request's checks, then the flow's), and requests
   * outside any flow share one per revision, so the last one made is given again for the same arguments.
   */
  let lastReport: Report | undefined;
  let lastFlow: Flow | null = null;
  let lastRevision: Revision | null = null;
  function reporter(flow: Flow | null, revision: Revision | null): Report {
    if (lastReport !== undefined && lastFlow === flow && lastRevision === revision) return lastReport;
    lastFlow = flow;
    lastRevision = revision;
    return (lastReport = (input: FindingInput) => env.report(input, flow, revision));
  }

  // ---- client → server ----------------------------------------------------------------------------

  function onClientRequest(ctx: MessageContext, id: unknown, method: string, rawParams: unknown): void {
    const { record, scope, at, exchange } = ctx;
    const params = isObject(rawParams) ? rawParams : EMPTY;
    // The request's revision: its own _meta (2026-07-28: then it is modern whatever the value), the session's,
    // the header's, or 2026-07-28 when it carries what only that revision has. `_meta` is read once here.
    const meta = isObject(params._meta) ? params._meta : undefined;
    const pv = meta === undefined ? undefined : meta[META_PROTOCOL_VERSION];
    let revision: Revision | null = null;
    let modern = false;
    if (typeof pv === "string") {
      revision = pv;
      modern = true;
    } else if (scope.revision) {
      revision = scope.revision;
      modern = isModern(revision);
    } else {
      const header = record.headers?.["mcp-protocol-version"];
      if (header) {
        revision = header;
        modern = isModern(header);
      } else if (record.headers?.["mcp-method"] !== undefined || params.inputResponses !== undefined || params.requestState !== undefined) {
        revision = "2026-07-28";
        modern = true;
      }
    }
    const target = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : null;
    const key = idKey(id);
    const inFlight = scope.clientRequests.get(key);
    // Every member is written here, in one order, so that all requests share one shape.
    const req: ClientRequest = {
      id,
      idKey: key,
      method,
      params,
      record: record.seq,
      exchange: exchange?.id,
      time: record.time,
      revision,
      caps: modern && meta !== undefined ? meta[META_CLIENT_CAPABILITIES] : undefined,
      target,
      tuple: undefined,
      flow: undefined,
      answered: undefined,
      retryOf: undefined,
      retryDefects: undefined,
      envelope: undefined,
    };
    scope.clientRequests.set(key, req);
    if (exchange) {
      addRequestId(exchange, key);
      if (revision !== null) exchange.revision = revision;
    }
    const report = reporter(null, revision);

    if (method === "initialize") {
      scope.initializeSeen = true;
      checkClientCapsShape(params.capabilities, `${at}/params/capabilities`, typeof params.protocolVersion === "string" ? params.protocolVersion : null, report);
    } else if (modern) {
      const defects = checkModernRequestEnvelope(params, record, at, report);
      if (defects.missingMeta) req.caps = undefined;
      if (defects.missingMeta || defects.headerMismatch) req.envelope = defects;
      if (req.caps !== undefined) checkClientCapsShape(req.caps, `${at}${CAPS_POINTER}`, revision, report);
      if (declaresElicitation(req.caps)) scope.declaredElicitation = true;
    } else if (scope.initializeSeen) {
      checkLegacyHeader(record, at, report);
    }

    if (params.inputResponses !== undefined || params.requestState !== undefined) onRetry(ctx, req, inFlight !== undefined, report);
    else if (scope.awaitingRetry?.has(tupleOf(req))) onUrlRetry(ctx, req, scope.awaitingRetry!.get(tupleOf(req))!);
    else if (method === "tools/call" && target === FALLBACK_TOOL) onFallbackAnswer(ctx, req);
  }

  function onRetry(ctx: MessageContext, req: ClientRequest, idInFlight: boolean, report: Report): void {
    const { scope, at, record } = ctx;
    const { params } = req;
    const state = params.requestState;
    const byState = typeof state === "string" ? scope.mrtrByState?.get(state) : undefined;
    if (!MRTR_METHODS.has(req.method)) {
      reporter(byState?.flow ?? null, req.revision)({ rule: "mrtr-parallel-isolation", pointer: `${at}/params`, message: `${req.method} carries inputResponses/requestState; only the retry of tools/call, prompts/get or resources/read may.` });
      return;
    }
    // checkRetry compares tuples: computed here whether or not the state found the link.
    const tuple = tupleOf(req);
    const found = byState ?? scope.mrtrByTuple?.get(tuple);
    // A retry answers the latest InputRequiredResult of its chain, even when it presents an earlier round's state.
    const link = found ? (stateOf(found.flow).link ?? found) : undefined;
    if (!link) {
      if (scope.noResultType?.has(tuple)) {
        report({ rule: "mrtr-absent-result-type-is-complete", pointer: `${at}/params`, message: `Client retried after a result with no resultType (record ${scope.noResultType!.get(tuple)}); an absent resultType means complete.` });
      } else {
        report({ rule: "mrtr-unsolicited-input-responses", pointer: `${at}/params`, message: "Request carries inputResponses/requestState but no InputRequiredResult for it was seen." });
      }
      return;
    }
    const flowReport = reporter(link.flow, req.revision);
    if (req.method !== link.request.method || req.target !== link.request.target) {
      flowReport({ rule: "mrtr-parallel-isolation", pointer: `${at}/params/requestState`, message: `requestState of ${link.request.method} ${link.request.target ?? ""} (record ${link.record}) reused on ${req.method} ${req.target ?? ""}; it belongs only to the retry of its own request.` });
      return;
    }
    if (link.retries > 0) {
      let prev: ClientRequest | undefined;
      for (const r of scope.clientRequests.values()) {
        if (r !== undefined && r !== req && r.retryOf === link && r.answered === undefined) {
          prev = r;
          break;
        }
      }
      if (prev) flowReport({ rule: "mrtr-parallel-isolation", pointer: `${at}/params/requestState`, message: `The same requestState is presented on two in-flight requests (records ${prev.record} and ${record.seq}).` });
    }
    link.retries++;
    const flow = link.flow;
    const idReused = req.idKey === link.request.idKey || idInFlight;
    const defects = checkRetry(req, link, record, at, idReused, flowReport);
    req.retryOf = link;
    req.retryDefects = defects;
    req.flow = flow;
    const roundIndex = flow.rounds.length + 1;
    flow.rounds = append(flow.rounds, createRound(roundIndex, req.id as Round["requestId"], record.seq, record.time, state));
    const responses = isObject(params.inputResponses) ? params.inputResponses : EMPTY;
    let answersElicitation = false;
    for (const el of flow.elicitations) {
      if (el.round !== roundIndex - 1 || !(el.key in responses)) continue;
      const er = responses[el.key];
      const p = join(`${at}/params/inputResponses`, el.key);
      answersElicitation = true;
      checkElicitResult(er, { mode: el.mode, message: el.message, requestedSchema: el.schema, url: el.url }, p, env.check(flow, req.revision, record.seq), "input-response");
      answer(el, er, record.seq, p, record.time);
    }
    if (answersElicitation) {
      const modes = declaredModes(req.caps, req.revision);
      let lacking: string | undefined;
      for (const e of flow.elicitations) {
        if (e.round === roundIndex - 1 && !modes.has(e.mode)) {
          lacking = e.mode;
          break;
        }
      }
      if (lacking !== undefined || modes.size === 0) {
        flowReport({
          rule: "cap-client-declares-per-request",
          pointer: `${at}/params/_meta`,
          message: modes.size === 0 ? "Retry answers an elicitation but its own _meta clientCapabilities omit elicitation." : `Retry answers a ${lacking}-mode elicitation but its clientCapabilities do not declare that mode.`,
        });
      }
    }
    phase(flow, "server", record.time);
    touch(flow, record.seq);
  }

  function onUrlRetry(ctx: MessageContext, req: ClientRequest, flow: Flow): void {
    const { scope, record, at } = ctx;
    scope.awaitingRetry?.delete(tupleOf(req));
    const last = flow.rounds[flow.rounds.length - 1];
    if (last && idKey(last.requestId) === req.idKey) {
      env.report({ rule: "err-url-required-retry-new-id", pointer: `${at}/id`, message: `Retry after -32042 reuses the failed request's id ${JSON.stringify(req.id)}.`, record: record.seq }, flow, req.revision);
    }
    req.flow = flow;
    flow.rounds = append(flow.rounds, createRound(flow.rounds.length + 1, req.id as Round["requestId"], record.seq, record.time));
    phase(flow, "server", record.time);
    touch(flow, record.seq);
  }

  function onFallbackAnswer(ctx: MessageContext, req: ClientRequest): void {
    const args = isObject(req.params.arguments) ? req.params.arguments : {};
    const elicitId = typeof args.elicitId === "string" ? args.elicitId : undefined;
    if (!elicitId) return;
    const flow = ctx.scope.fallbackFlows?.find((f) => f.elicitations.some((e) => e.key === elicitId));
    if (!flow) return;
    const el = flow.elicitations.find((e) => e.key === elicitId)!;
    const p = `${ctx.at}/params/arguments`;
    checkElicitResult(args, { mode: el.mode, message: el.message, requestedSchema: el.schema }, p, env.check(flow, req.revision, ctx.record.seq), "response");
    answer(el, args, ctx.record.seq, p, ctx.record.time);
    req.flow = flow;
    flow.rounds = append(flow.rounds, createRound(flow.rounds.length + 1, req.id as Round["requestId"], ctx.record.seq, ctx.record.time));
    phase(flow, "server", ctx.record.time);
    touch(flow, ctx.record.seq);
  }

  function answer(el: Elicitation, er: unknown, seq: number, p: string, time: number): void {
    const action = isObject(er) && typeof er.action === "string" ? er.action : null;
    el.action = action;
    if (isObject(er) && "content" in er) {
      // Content normally comes before the answer's record and pointer; after an error answer it comes last.
      if (el.answerRecord !== undefined && el.content === undefined) delete el.content;
      el.content = er.content;
    }
    el.answerRecord = seq;
    el.answerPointer = p;
    el.answeredAt = time;
    // url-accept-is-consent: accept on a URL elicitation means consent, not completion.
    if (el.mode !== "url") el.completed = action !== null;
  }

  /** `error` is undefined for a result (parsed JSON has no undefined members, so `result` says nothing). */
  function onClientResponse(ctx: MessageContext, id: unknown, result: unknown, error: Record<string, unknown> | undefined): void {
    const { scope, record, at } = ctx;
    const key = idKey(id);
    const el = scope.openElicitations?.get(key);
    const revision = scope.revision ?? el?.flow.revision ?? null;
    if (scope.initializeSeen && !isModern(scope.revision)) checkLegacyHeader(record, at, reporter(el?.flow ?? null, revision));
    if (isModern(revision) || isModern(record.headers?.["mcp-protocol-version"])) {
      env.report({ rule: "del-r3-no-client-responses", pointer: at || "", message: "Client sent a JSON-RPC response; in 2026-07-28 answers travel in inputResponses of a retried request.", record: record.seq }, el?.flow ?? null, revision);
    }
    if (!el) {
      const dup = scope.answeredElicitations?.get(key);
      if (dup !== undefined) {
        env.report({ rule: "del-r12-response-correlation", pointer: `${at}/id`, message: `Client answers elicitation id ${JSON.stringify(id)} a second time (first answer: record ${dup.record}).`, record: record.seq }, dup.flow, revision);
      } else if (scope.initializeSeen && !scope.serverRequestIds?.has(key) && !isModern(revision)) {
        env.report({ rule: "del-r12-response-correlation", pointer: `${at}/id`, message: `Client response id ${JSON.stringify(id)} matches no outstanding elicitation/create.`, record: record.seq }, null, revision);
      }
      return;
    }
    scope.openElicitations?.delete(key);
    const flow = el.flow;
    (scope.answeredElicitations ??= new Map()).set(key, { record: record.seq, flow });
    const elicitation = flow.elicitations[el.index]!;
    if (ctx.exchange) {
      ctx.exchange.elicitResultRecord = record.seq;
      ctx.exchange.elicitResultFlow = flow;
      if (ctx.exchange.status !== undefined) check202(ctx.exchange);
    }
    if (error === undefined) {
      checkElicitResult(result, el.params, `${at}/result`, env.check(flow, revision, record.seq), "response");
      if (el.undeclaredMode && revision === "2025-11-25") {
        env.report({ rule: "cap-client-rejects-undeclared-mode", pointer: `${at}/result`, message: `Client answered a ${el.mode}-mode elicitation it never declared with a result; it must answer -32602.`, record: record.seq }, flow, revision);
      }
      checkTaskAnswer(scope, el.params, flow, result, `${at}/result`, reporter(flow, revision));
      answer(elicitation, result, record.seq, `${at}/result`, record.time);
    } else {
      elicitation.answerRecord = record.seq;
      elicitation.answerPointer = `${at}/error`;
      elicitation.answeredAt = record.time;
      // The client answered without asking anyone (use-mcp's -32601): that time was not the user's.
      const clock = stateOf(flow);
      if (clock.phase === "user" && !waitsOnUser(scope, flow)) clock.phase = "server";
    }
    if (!waitsOnUser(scope, flow)) phase(flow, "server", record.time);
    touch(flow, record.seq);
  }

  /** Whether another elicitation/create of the flow is still unanswered (the clock stays with the user). */
  function waitsOnUser(scope: Scope, flow: Flow): boolean {
    if (scope.openElicitations) for (const open of scope.openElicitations.values()) if (open !== undefined && open.flow === flow) return true;
    return false;
  }

  function check202(ex: Exchange): void {
    const flow = ex.elicitResultFlow ?? null;
    if (ex.elicitResultRecord === undefined || ex.status === undefined) return;
    const body = ex.emptyBody === false;
    if (ex.status !== 202 || body) {
      env.report(
        { rule: "del-r12-response-202", pointer: "", message: `POSTed ElicitResult was answered with HTTP ${ex.status}${body ? " and a body" : ""}; the server must answer 202 Accepted with no body.`, record: ex.elicitResultRecord },
        flow,
        ex.scope?.revision ?? null,
      );
    }
    ex.elicitResultRecord = undefined;
  }

  function onClientNotification(ctx: MessageContext, method: string, params: unknown): void {
    // transports.mdx § "Protocol Version Header": every HTTP request after initialize, notifications included.
    if (ctx.scope.initializeSeen && !isModern(ctx.scope.revision)) checkLegacyHeader(ctx.record, ctx.at, reporter(null, ctx.scope.revision));
    if (method === "notifications/initialized") ctx.scope.initialized = true;
    else if (method === ELICIT_COMPLETE) {
      const id = isObject(params) ? params.elicitationId : undefined;
      const flow = typeof id === "string" ? (ctx.scope.elicitationIds?.get(id)?.flow ?? null) : null;
      env.report({ rule: "notify-direction", pointer: `${ctx.at}/method`, message: "Client sent notifications/elicitation/complete; only servers send it.", record: ctx.record.seq }, flow, ctx.scope.revision);
    }
  }

  // ---- server → client ----------------------------------------------------------------------------

  function findRequest(ctx: MessageContext, id: unknown): ClientRequest | undefined {
    const key = idKey(id);
    const req = ctx.scope.clientRequests.get(key);
    if (req) return req;
    // A response recorded after its exchange's end (a capture whose body read finished late) revives the flow.
    const late = ctx.scope.abandoned?.get(key);
    if (!late) return undefined;
    ctx.scope.abandoned!.delete(key);
    const flow = late.flow;
    if (flow && flow.status === "abandoned") {
      flow.status = "pending";
      restart(flow, flow.endedAt ?? ctx.record.time);
      flow.endedAt = undefined;
    }
    return late;
  }

  /** `error` is undefined for a result. */
  function onServerResponse(ctx: MessageContext, id: unknown, rawResult: unknown, error: Record<string, unknown> | undefined): void {
    const { scope, record, at } = ctx;
    const req = findRequest(ctx, id);
    if (!req) return;
    scope.clientRequests.delete(req.idKey);
    req.answered = record.seq;

    const modern = isModern(req.revision);
    const isResult = error === undefined;
    const result = isResult && isObject(rawResult) ? rawResult : EMPTY;
    if (isResult && req.method === "initialize") return negotiate(ctx, req, result);
    // An answer that opens a flow opens it first, so that every finding about the answer belongs to the flow.
    const opens: FlowKind | null = isResult ? (result.resultType === "input_required" ? "mrtr" : null) : error.code === -32042 ? "url-required-error" : null;
    const flow = req.flow ?? (opens ? newFlow(opens, scope, req, record, req.revision ?? scope.revision) : null);
    const report = reporter(flow, req.revision);
    const defects = req.envelope;
    if (defects) checkEnvelopeAnswer(defects, isResult ? undefined : error.code, ctx.exchange?.status, at, report);
    if (isResult) {
      if (modern) checkResultType(result, at, report, req.caps);
      if (modern && req.method === "tools/call") checkToolErrorResult(result, at, declaresElicitation(req.caps), report);
      if (result.resultType === "input_required") return onInputRequired(ctx, req, result);
      if (modern && result.resultType === undefined) (scope.noResultType ??= new Map()).set(tupleOf(req), record.seq);
      const pending = isObject(result._meta) ? result._meta.elicitationPending : undefined;
      if (req.method === "tools/call" && isObject(pending)) return onFallbackPending(ctx, req, pending);
      if (!flow) return;
      const round = flow.rounds[flow.rounds.length - 1];
      if (round) answerRound(round, "complete", record);
      if (req.retryDefects) {
        checkServerAfterRetry(req.retryDefects, "complete", at, report);
        const state = req.params.requestState;
        if (typeof state === "string") {
          const prior = scope.completedStates?.get(state);
          if (prior !== undefined) report({ rule: "mrtr-state-replay", pointer: `${at}/result`, message: `The same requestState completed a request twice (first at record ${prior}).` });
          else (scope.completedStates ??= new Map()).set(state, record.seq);
        }
      }
      for (const el of flow.elicitations) if (el.mode === "url" && el.action !== "decline" && el.action !== "cancel") el.completed = true;
      finish(flow, "complete", record.time);
      touch(flow, record.seq);
      return;
    }
    const code = error.code;
    if (code === -32042) return onUrlRequired(ctx, req, error);
    if (code === -32021 && modern) checkMissingCapError(error, at, ctx.exchange?.status, req.caps, report);
    if (modern) checkOtherModernError(error, at, declaresElicitation(req.caps), flow !== null, report);
    if (!flow) return;
    if (req.retryDefects) checkServerAfterRetry(req.retryDefects, "error", at, report);
    const declined = flow.elicitations.some((e) => e.action === "decline" || e.action === "cancel");
    if (declined && (code === -32603 || code === -32602)) {
      report({ rule: "adv-server-handles-refusal", pointer: `${at}/error/code`, message: `After the user declined or cancelled, the server answered with error ${code} instead of a handled outcome.` });
    }
    const round = flow.rounds[flow.rounds.length - 1];
    if (round) answerRound(round, "error", record);
    finish(flow, "error", record.time);
    touch(flow, record.seq);
  }

  function negotiate(ctx: MessageContext, req: ClientRequest, result: Record<string, unknown>): void {
    const version = typeof result.protocolVersion === "string" ? result.protocolVersion : null;
    const sessionId = ctx.exchange?.responseHeaders?.["mcp-session-id"];
    negotiated(ctx.scope, version, req.params.capabilities);
    if (sessionId !== undefined && sessionId !== ctx.scope.sessionId) negotiated(scopes.get(ctx.scope.server, ctx.scope.client, sessionId), version, req.params.capabilities);
  }

  function negotiated(scope: Scope, version: string | null, caps: unknown): void {
    scope.revision = version;
    scope.caps = caps;
    scope.initializeSeen = true;
    scope.initialized = false;
  }

  function onInputRequired(ctx: MessageContext, req: ClientRequest, result: Record<string, unknown>): void {
    const { scope, record, at } = ctx;
    const flow = req.flow ?? newFlow("mrtr", scope, req, record, req.revision);
    const report = reporter(flow, req.revision);
    checkIrr(result, at, req, record.text, report);
    if (req.retryDefects) checkServerAfterRetry(req.retryDefects, "input_required", at, report);
    const round = flow.rounds[flow.rounds.length - 1]!;
    answerRound(round, "input_required", record);
    round.requestState = result.requestState;
    const request = { method: req.method, target: req.target, tuple: tupleOf(req), record: req.record, idKey: req.idKey };
    const inputRequests = isObject(result.inputRequests) ? result.inputRequests : EMPTY;
    // Object.keys lists what for…in with hasOwn would, in the same order, in an exactly sized array: the link keeps it.
    const keys = Object.keys(inputRequests);
    const link: MrtrLink = { flow, request, state: result.requestState, hasState: result.requestState !== undefined, keys, inputRequests, record: record.seq, retries: 0 };
    let elicitCount = 0;
    for (const key of keys) {
      const entry = inputRequests[key];
      if (!isObject(entry) || entry.method !== ELICIT_METHOD) continue;
      elicitCount++;
      const p = join(`${at}/result/inputRequests`, key, "params");
      const ep = entry.params;
      payload.checkElicitParams(ep, p, env.check(flow, req.revision, record.seq), "input-request");
      const mode = elicitMode(ep);
      checkModeDeclared(req.caps, "this request's _meta clientCapabilities", req.revision, mode, p, report);
      if (!declaresElicitation(req.caps) && scope.declaredElicitation && req.caps !== undefined) {
        report({ rule: "cap-per-request", pointer: p, message: "An earlier request declared elicitation but this one did not, yet the server elicits: capabilities must not be carried over." });
      }
      addElicitation(flow, key, ep, mode, record, p, round.index);
    }
    if (elicitCount > 1) report({ rule: "adv-concurrent-elicitations", pointer: `${at}/result/inputRequests`, message: `One InputRequiredResult asks ${elicitCount} elicitations at once (legal).` });
    checkBatchQuestions(flow, report, `${at}/result/inputRequests`);
    stateOf(flow).link = link;
    if (typeof result.requestState === "string") (scope.mrtrByState ??= new Map()).set(result.requestState, link);
    (scope.mrtrByTuple ??= new Map()).set(request.tuple, link);
    phase(flow, "user", record.time);
    touch(flow, record.seq);
  }

  const isSingleField = (e: Elicitation): boolean => e.mode === "form" && isObject(e.schema) && isObject(e.schema.properties) && countKeys(e.schema.properties, 2) === 1;

  /** adv-batch-questions: three or more rounds in a row that each ask one single-field form. */
  function checkBatchQuestions(flow: Flow, report: Report, pointerAt: string): void {
    if (flow.rounds.length !== 3) return;
    const single = flow.rounds.every((r) => {
      const asked = flow.elicitations.filter((e) => e.round === r.index);
      return asked.length === 1 && isSingleField(asked[0]!);
    });
    if (single) report({ rule: "adv-batch-questions", pointer: pointerAt, message: "Three rounds in a row each ask a single field; ask for independent fields in one form." });
  }

  /** adv-batch-questions for server-initiated requests (2025-xx): three single-field questions, each asked after the previous answer. */
  function checkSequentialQuestions(flow: Flow, report: Report, pointerAt: string): void {
    const asked = flow.elicitations;
    if (asked.length !== 3 || !asked.every(isSingleField)) return;
    const sequential = asked.every((e, i) => i === 0 || (asked[i - 1]!.answeredAt !== undefined && asked[i - 1]!.answeredAt! <= e.askedAt));
    if (sequential) report({ rule: "adv-batch-questions", pointer: pointerAt, message: "Three elicitations in a row each ask a single field; ask for independent fields in one form." });
  }

  function addElicitation(flow: Flow, key: string, ep: unknown, mode: string, record: MessageRecord, p: string, round: number): Elicitation {
    const params = isObject(ep) ? ep : {};
    const el = createElicitation(key, mode, params.message, round, record.seq, p, record.time);
    if ("requestedSchema" in params) el.schema = params.requestedSchema;
    if ("url" in params) {
      el.url = params.url;
      if (mode === "url" && typeof params.url === "string") {
        // Followed by url-no-prefetch until the user accepts, and by url-not-mcp-authorization.
        unindexed.push({ el, flow, url: params.url, at: undefined, prefetched: false, ownAuthorization: false });
        if (protectedBy.size > 0) indexUrls();
      }
    }
    if (typeof params.elicitationId === "string") el.elicitationId = params.elicitationId;
    flow.elicitations = append(flow.elicitations, el);
    return el;
  }

  function registerElicitationId(scope: Scope, flow: Flow, index: number, ep: Record<string, unknown>, p: string, report: Report, seq: number): void {
    const id = ep.elicitationId;
    if (typeof id !== "string") return;
    const prior = scope.elicitationIds?.get(id);
    if (prior && (prior.url !== ep.url || prior.message !== ep.message)) {
      report({ rule: "url-elicitation-id-unique", pointer: `${p}/elicitationId`, message: `elicitationId "${id}" was already used for a different elicitation (record ${prior.record}).` });
    }
    (scope.elicitationIds ??= new Map()).set(id, { url: ep.url, message: ep.message, flow, index, record: seq });
    elicitationIdOwners.set(ownerKey(scope, id), scope);
  }

  function onUrlRequired(ctx: MessageContext, req: ClientRequest, error: Record<string, unknown>): void {
    const { scope, record, at } = ctx;
    const revision = req.revision ?? scope.revision;
    const flow = req.flow ?? newFlow("url-required-error", scope, req, record, revision);
    const report = reporter(flow, revision);
    const entries = checkUrlRequiredError(error, at, revision, scope.initializeSeen ? scope.caps ?? {} : undefined, report);
    const round = flow.rounds[flow.rounds.length - 1]!;
    answerRound(round, "error", record);
    entries.forEach((entry, i) => {
      const p = `${at}/error/data/elicitations/${i}`;
      payload.checkElicitParams(entry, p, env.check(flow, revision, record.seq), "url-required-error");
      const key = isObject(entry) && typeof entry.elicitationId === "string" ? entry.elicitationId : String(i);
      const already = flow.elicitations.find((e) => e.key === key && e.mode === "url");
      if (!already) addElicitation(flow, key, entry, elicitMode(entry), record, p, round.index);
      if (isObject(entry)) registerElicitationId(scope, flow, flow.elicitations.length - 1, entry, p, report, record.seq);
    });
    (scope.awaitingRetry ??= new Map()).set(tupleOf(req), flow);
    phase(flow, "user", record.time);
    touch(flow, record.seq);
  }

  function onFallbackPending(ctx: MessageContext, req: ClientRequest, pending: Record<string, unknown>): void {
    const { scope, record, at } = ctx;
    const flow = req.flow ?? newFlow("fallback-tool", scope, req, record, req.revision);
    const round = flow.rounds[flow.rounds.length - 1]!;
    answerRound(round, "input_required", record);
    const key = typeof pending.elicitId === "string" ? pending.elicitId : "fallback";
    const ep = { message: pending.message, requestedSchema: pending.schema ?? pending.requestedSchema, ...(typeof pending.mode === "string" ? { mode: pending.mode } : {}) };
    const p = `${at}/result/_meta/elicitationPending`;
    addElicitation(flow, key, ep, elicitMode(ep), record, p, round.index);
    phase(flow, "user", record.time);
    touch(flow, record.seq);
  }

  function onServerRequest(ctx: MessageContext, id: unknown, method: string, rawParams: unknown, text: string): void {
    const { scope, record, at, exchange } = ctx;
    const origin = originatingRequest(ctx);
    const revision = scope.revision ?? origin?.revision ?? exchange?.requestHeaders?.["mcp-protocol-version"] ?? record.headers?.["mcp-protocol-version"] ?? null;
    const modern = isModern(revision);
    const noServerRequests = (flow: Flow | null) =>
      env.report({ rule: "del-r3-no-server-requests", pointer: `${at}/method`, message: `Server sent a JSON-RPC request (${method}) to a 2026-07-28 client; servers must use InputRequiredResult instead.`, record: record.seq }, flow, revision);
    const key = idKey(id);
    if (method !== ELICIT_METHOD) {
      if (modern) noServerRequests(origin?.flow ?? null);
      (scope.serverRequestIds ??= new Map()).set(key, { exchange: exchange?.id, text, record: record.seq, flow: null });
      return;
    }
    const prior = scope.serverRequestIds?.get(key);
    if (prior && prior.text === text) {
      // Replay after Last-Event-ID resumption is allowed (transports.mdx § "Resumability and Redelivery": the
      // client resumes with a GET carrying Last-Event-ID, the server replays on that new stream); the same
      // request on another stream otherwise is a broadcast.
      const resumed = (exchange?.requestHeaders ?? record.headers)?.["last-event-id"] !== undefined;
      if (prior.exchange !== exchange?.id && record.stream !== "body" && !resumed) {
        env.report({ rule: "del-r12-single-stream", pointer: `${at}/id`, message: `elicitation/create id ${JSON.stringify(id)} was already delivered on another stream (record ${prior.record}).`, record: record.seq }, prior.flow, revision);
      }
      return;
    }
    const flow = origin?.flow ?? newFlow("server-request", scope, origin, record, revision);
    if (origin && !origin.flow) origin.flow = flow;
    if (modern) noServerRequests(flow);
    const report = reporter(flow, revision);
    if (id === null) report({ rule: "del-r12-request-id-unique", pointer: `${at}/id`, message: "elicitation/create has a null id." });
    else if (prior) report({ rule: "del-r12-request-id-unique", pointer: `${at}/id`, message: `elicitation/create reuses id ${JSON.stringify(id)} already used by the server in this session (record ${prior.record}).` });
    (scope.serverRequestIds ??= new Map()).set(key, { exchange: exchange?.id, text, record: record.seq, flow });
    if (!modern) checkLegacyDelivery(ctx, origin, method, revision, report);
    const params = isObject(rawParams) ? rawParams : EMPTY;
    const p = `${at}/params`;
    payload.checkElicitParams(rawParams, p, env.check(flow, revision, record.seq), "server-request");
    const mode = elicitMode(rawParams);
    let undeclaredMode = false;
    if (scope.initializeSeen && !modern) undeclaredMode = checkModeDeclared(scope.caps, "initialize params.capabilities", revision, mode, p, report);
    if (scope.revision !== null && scope.revision < "2025-06-18") {
      report({ rule: "rev-feature-not-in-revision", violator: "server", pointer: `${at}/method`, message: `elicitation/create in a session negotiated at ${scope.revision}, which has no elicitation.` });
    }
    checkTasks(scope, origin, params, p, report);
    const round = flow.rounds.length || 1;
    addElicitation(flow, idText(id), rawParams, mode, record, p, round);
    registerElicitationId(scope, flow, flow.elicitations.length - 1, params, p, report, record.seq);
    checkSequentialQuestions(flow, report, p);
    (scope.openElicitations ??= keptTable()).set(key, { idKey: key, params: rawParams, mode, record: record.seq, exchange: exchange?.id, text, flow, index: flow.elicitations.length - 1, undeclaredMode });
    // Two open besides the table's keeper entry.
    if (scope.openElicitations.size === 3) report({ rule: "adv-concurrent-elicitations", pointer: `${at}/id`, message: `Two elicitation/create requests are outstanding at once in this session (legal).` });
    if (flow.rounds.length === 0) flow.rounds = [createRound(1, null, record.seq, record.time)];
    phase(flow, "user", record.time);
    touch(flow, record.seq);
  }

  /** Where a message travelled; a GET stream that resumes a POST stream counts as that POST stream. */
  const streamOf = (ctx: MessageContext): MessageRecord["stream"] => (ctx.exchange?.resumedOf !== undefined ? "post-sse" : ctx.record.stream);

  /** The client request an elicitation belongs to: the POST whose stream carried it, else the latest in flight. */
  function originatingRequest(ctx: MessageContext): ClientRequest | undefined {
    const { exchange, scope } = ctx;
    if (exchange && exchange.requestIds.length && streamOf(ctx) !== "get-sse") {
      for (const key of exchange.requestIds) {
        const req = scope.clientRequests.get(key);
        if (req) return req;
      }
      // Every request of this POST was answered already (del-r12-related-request case a): find it for the flow.
      return undefined;
    }
    let best: ClientRequest | undefined;
    for (const req of scope.clientRequests.values()) {
      if (req === undefined || req.method === "initialize") continue;
      if (!best || (MRTR_METHODS.has(req.method) && !MRTR_METHODS.has(best.method)) || (MRTR_METHODS.has(req.method) === MRTR_METHODS.has(best.method) && req.time >= best.time)) best = req;
    }
    return best;
  }

  function checkLegacyDelivery(ctx: MessageContext, origin: ClientRequest | undefined, method: string, revision: Revision | null, report: Report): void {
    const { record, at, exchange, scope } = ctx;
    const stream = streamOf(ctx);
    if (stream === "get-sse") {
      report({ rule: "del-r12-standalone-stream", severity: strict ? "error" : undefined, pointer: `${at}/method`, message: `${method} was sent on the standalone GET stream rather than on the stream of the request it relates to.` });
    } else if (stream === "post-sse" && exchange && exchange.requestIds.length && !origin) {
      report({ rule: "del-r12-related-request", severity: strict ? "error" : undefined, pointer: `${at}/method`, message: `${method} was sent on a POST stream after the response to that POST's request was delivered.` });
    } else if (origin && NON_INTERACTIVE.test(origin.method)) {
      report({ rule: "del-r12-related-request", severity: strict ? "error" : undefined, pointer: `${at}/method`, message: `${method} was sent on the stream of ${origin.method}, which needs no user input.` });
    } else if (!origin && (record.transport === "stdio" || record.transport === "websocket") && scope.initializeSeen) {
      report({ rule: "del-r12-related-request", severity: strict ? "error" : undefined, pointer: `${at}/method`, message: `${method} was sent while no client request was outstanding.` });
    }
    if (scope.initializeSeen && !scope.initialized) {
      report({ rule: "cap-before-initialized", pointer: `${at}/method`, message: `${method} was sent before the client's notifications/initialized.` });
    }
    void revision;
  }

  function checkTasks(scope: Scope, origin: ClientRequest | undefined, params: Record<string, unknown>, p: string, report: Report): void {
    if (scope.revision !== "2025-11-25") return;
    if ("task" in params) {
      const caps = scope.caps;
      const create = isObject(caps) && isObject(caps.tasks) && isObject(caps.tasks.requests) && isObject(caps.tasks.requests.elicitation) ? caps.tasks.requests.elicitation.create : undefined;
      if (create === undefined) report({ rule: "task-r2-augmented-capability", pointer: `${p}/task`, message: "Task-augmented elicitation/create sent to a client without capabilities.tasks.requests.elicitation.create." });
    }
    if (origin?.method === "tasks/result") {
      const meta = params._meta;
      const related = isObject(meta) ? meta["io.modelcontextprotocol/related-task"] : undefined;
      const taskId = isObject(origin.params) ? origin.params.taskId : undefined;
      if (!isObject(related) || (taskId !== undefined && related.taskId !== taskId)) {
        report({ rule: "task-r2-related-task-meta", violator: "server", pointer: `${p}`, message: `Elicitation on the stream of tasks/result lacks _meta["io.modelcontextprotocol/related-task"].taskId${taskId !== undefined ? ` = ${JSON.stringify(taskId)}` : ""}.` });
      }
    }
  }

  /** task-r2-related-task-meta, client half: the answer to a task's elicitation carries the task id too (tasks.mdx § "Associating Task-Related Messages"). */
  function checkTaskAnswer(scope: Scope, ep: unknown, flow: Flow, er: unknown, p: string, report: Report): void {
    if (scope.revision !== "2025-11-25") return;
    const asked = isObject(ep) && isObject(ep._meta) ? ep._meta[META_RELATED_TASK] : undefined;
    let taskId = isObject(asked) ? asked.taskId : undefined;
    if (taskId === undefined && flow.method === "tasks/result") {
      const origin = flow.rounds[0] ? scope.clientRequests.get(idKey(flow.rounds[0].requestId)) : undefined;
      taskId = origin && origin.method === "tasks/result" ? origin.params.taskId : undefined;
    }
    if (typeof taskId !== "string") return;
    const related = isObject(er) && isObject(er._meta) ? er._meta[META_RELATED_TASK] : undefined;
    if (!isObject(related) || related.taskId !== taskId) {
      report({ rule: "task-r2-related-task-meta", violator: "client", pointer: p, message: `The answer to an elicitation of task ${JSON.stringify(taskId)} lacks _meta["${META_RELATED_TASK}"].taskId = ${JSON.stringify(taskId)}.` });
    }
  }

  function onServerNotification(ctx: MessageContext, method: string, params: unknown): void {
    if (method !== ELICIT_COMPLETE) return;
    const { scope, record, at, exchange } = ctx;
    // rules.md §1.2 step 6: a notification takes the revision of the request whose response stream carried it.
    const streamRevision = exchange?.revision;
    const revision = (isModern(streamRevision) ? streamRevision : undefined) ?? scope.revision ?? streamRevision ?? exchange?.requestHeaders?.["mcp-protocol-version"] ?? null;
    const claimed = isObject(params) && typeof params.elicitationId === "string" ? scope.elicitationIds?.get(params.elicitationId) : undefined;
    const report = reporter(claimed?.flow ?? null, revision);
    const id = checkCompletionShape(params, at, revision, report);
    if (id === undefined) return;
    const known = scope.elicitationIds?.get(id);
    if (!known) {
      // Another session of the same server issued it; another server's id that happens to be equal is not this one.
      const owner = elicitationIdOwners.get(ownerKey(scope, id));
      if (owner && owner !== scope) {
        reporter(owner.elicitationIds?.get(id)?.flow ?? null, revision)({ rule: "notify-same-client", pointer: `${at}/params/elicitationId`, message: `Completion for "${id}" was delivered to another session than the one that issued it.` });
      } else report({ rule: "notify-known-id", pointer: `${at}/params/elicitationId`, message: `Completion for unknown elicitationId "${id}".` });
      return;
    }
    const reportFlow = reporter(known.flow, revision);
    if (scope.completedIds?.has(id)) {
      reportFlow({ rule: "notify-duplicate", pointer: `${at}/params/elicitationId`, message: `Repeated completion for elicitationId "${id}".` });
      return;
    }
    (scope.completedIds ??= new Set()).add(id);
    for (const el of known.flow.elicitations) if (el.elicitationId === id) el.completed = true;
    touch(known.flow, record.seq);
  }

  // ---- records ------------------------------------------------------------------------------------

  /** The context of the message in hand, rebound per message: handlers never keep it, so one object serves. */
  const message: MessageContext = { record: undefined as unknown as MessageRecord, at: "", exchange: undefined, scope: undefined as unknown as Scope };

  function onMessage(record: MessageRecord): void {
    if (record.event === "endpoint" && record.transport === "eventsource") {
      try {
        endpointAliases.set(new URL(record.text.trim(), record.url).href, serverKey(record));
      } catch {
        env.problem(record, `EventSource endpoint event carries an unusable URL: ${record.text.slice(0, 200)}`);
      }
      return;
    }
    if (record.truncated !== undefined) {
      env.problem(record, `Message was cut at ${record.truncated} characters by the capture's size cap; it is not analysed.`);
      return;
    }
    // SSE priming events carry no data, only an event id to resume from.
    const priming = isBlank(record.text);
    let parsed: unknown;
    let cut: ReturnType<typeof parseBounded>["cut"];
    try {
      if (!priming) ({ value: parsed, cut } = parseBounded(record.text));
    } catch (e) {
      env.problem(record, `Invalid JSON in a ${record.direction === "c2s" ? "client" : "server"} message: ${(e as Error).message}`);
      return;
    }
    if (cut) env.problem(record, describeCut(cut));
    // Enveloped messages carry no HTTP delivery facts (status, which stream, headers): correlated by id in their scope, like postMessage.
    const exchange = record.stream === "envelope" ? undefined : exchanges.get(record);
    if (exchange && record.direction === "c2s") exchange.requestHeaders ??= record.headers;
    if (exchange && record.stream === "get-sse") resume(record, exchange);
    const scope = resolveScope(record, exchange);
    if (exchange && record.direction === "c2s" && !exchange.scope) exchange.scope = scope;
    // The stream's last event, for a GET that resumes it with Last-Event-ID.
    if (exchange && record.eventId !== undefined && (record.stream === "post-sse" || exchange.resumedOf !== undefined)) noteEvent(exchange, scope, record.eventId);
    if (priming) return;
    message.record = record;
    message.exchange = exchange;
    message.scope = scope;
    message.at = "";
    if (!Array.isArray(parsed)) return onJsonRpc(message, parsed, false);
    for (let i = 0; i < parsed.length; i++) {
      message.at = `/${i}`;
      onJsonRpc(message, parsed[i], true);
    }
  }

  /**
   * One JSON-RPC message of a record (`inBatch`: one element of a batch array). The four kinds are told
   * apart as `classify` does, without building its object: this runs for every message.
   */
  function onJsonRpc(ctx: MessageContext, m: unknown, inBatch: boolean): void {
    const { record, scope } = ctx;
    const c2s = record.direction === "c2s";
    if (isObject(m)) {
      // Parsed JSON has no undefined members: a member is present exactly when reading it gives something,
      // and a read is cheaper than `in` on the many shapes messages come in.
      const method = m.method;
      if (typeof method === "string") {
        if (m.id !== undefined) return c2s ? onClientRequest(ctx, m.id, method, m.params) : onServerRequest(ctx, m.id, method, m.params, inBatch ? JSON.stringify(m) : record.text);
        return c2s ? onClientNotification(ctx, method, m.params) : onServerNotification(ctx, method, m.params);
      }
      const hasResult = m.result !== undefined;
      const hasError = m.error !== undefined;
      if (hasResult && !hasError) return c2s ? onClientResponse(ctx, m.id, m.result, undefined) : onServerResponse(ctx, m.id, m.result, undefined);
      if (hasError && !hasResult && isObject(m.error)) return c2s ? onClientResponse(ctx, m.id, undefined, m.error) : onServerResponse(ctx, m.id, undefined, m.error);
      if (c2s && m.id !== undefined && scope.openElicitations?.has(idKey(m.id))) {
        env.report({ rule: "del-r12-response-correlation", pointer: `${ctx.at}`, message: `Client's answer to elicitation id ${JSON.stringify(m.id)} ${hasResult ? "has both result and error" : "has neither result nor error"}.`, record: record.seq }, scope.openElicitations!.get(idKey(m.id))!.flow, scope.revision);
        return;
      }
    }
    const invalid = classify(m) as Classified & { type: "invalid" };
    return env.problem(record, `Not a JSON-RPC message${ctx.at ? ` at ${ctx.at}` : ""}: ${invalid.reason}.`);
  }

  function onResponse(record: ResponseRecord): void {
    const ex = exchanges.get(record);
    if (!ex) return;
    ex.status = record.status;
    ex.responseHeaders = record.headers;
    ex.emptyBody = record.emptyBody;
    if (ex.elicitResultRecord !== undefined) check202(ex);
  }

  /**
   * A GET with Last-Event-ID resumes the POST stream that carried that event (transports.mdx § "Resumability
   * and Redelivery"; 2025-11-25 servers may close a POST stream early and let the client poll this way): the
   * new stream carries the same requests, so their flows, abandoned when the first stream ended, are pending again.
   */
  function resume(record: MessageRecord, ex: Exchange): void {
    if (ex.resumedOf !== undefined || ex.requestIds.length) return;
    const last = record.headers?.["last-event-id"];
    if (last === undefined) return;
    const server = serverKey(record);
    const sessionId = record.headers?.["mcp-session-id"] ?? "";
    const origin = scopes.find(server, record.client ?? "", sessionId)?.streamEvents?.get(last);
    if (!origin) return;
    ex.resumedOf = origin.exchange;
    ex.scope = origin.scope;
    for (const key of origin.requestIds) addRequestId(ex, key);
    for (const key of origin.requestIds) {
      const req = origin.scope.abandoned?.get(key);
      if (!req || req.exchange !== origin.exchange) continue;
      origin.scope.abandoned!.delete(key);
      origin.scope.clientRequests.set(key, req);
      const flow = req.flow;
      if (flow && flow.status === "abandoned") {
        flow.status = "pending";
        restart(flow, flow.endedAt ?? record.time);
        flow.endedAt = undefined;
        touch(flow, record.seq);
      }
    }
  }

  function onEnd(record: EndRecord): void {
    const ex = exchanges.get(record);
    if (!ex) return;
    const scope = ex.scope;
    const carriesAnswers = ex.status !== 202 && ex.status !== undefined && ex.status < 300;
    const own = ex.resumedOf ?? ex.id;
    if (scope && (record.error || carriesAnswers)) {
      for (const key of ex.requestIds) {
        const req = scope.clientRequests.get(key);
        if (!req || req.exchange !== own) continue;
        scope.clientRequests.delete(key);
        (scope.abandoned ??= new Map()).set(key, req);
        if (req.flow && req.flow.status === "pending") {
          finish(req.flow, "abandoned", record.time);
          touch(req.flow, record.seq);
        }
      }
    }
    exchanges.close(ex);
  }

  /**
   * url-no-prefetch: another request of the page (HAR imports) for the URL of a URL-mode elicitation the user has
   * not accepted (yet). Matched on origin and path, so the page's ordinary requests to the same server do not count.
   */
  function onPageRequest(record: PageRequestRecord): void {
    indexUrls();
    if (record.metadata) learnAuthorization(record);
    const at = record.url === undefined ? undefined : originAndPath(record.url);
    const list = at === undefined ? undefined : urlElicitations.get(at);
    if (!list) return;
    for (const entry of list) {
      // Not the entries of a -32042 error: no answer travels on the wire for them, so consent cannot be seen.
      if (entry.flow.kind === "url-required-error" || entry.prefetched || entry.el.action === "accept") continue;
      entry.prefetched = true;
      const answer = entry.el.action === null ? "before the user answered" : `after the user answered "${entry.el.action}"`;
      env.report(
        { rule: "url-no-prefetch", pointer: "", message: `The page requested the elicitation's URL (${record.method} ${at}) ${answer}: the client must not fetch or open it without the user's consent (elicitation asked in record ${entry.el.askRecord}).`, record: record.seq },
        entry.flow,
        entry.flow.revision,
      );
      // The evidence belongs with the flow's messages, where the panel shows a finding's evidence.
      touch(entry.flow, record.seq);
    }
  }

  /** Files the URL elicitations not yet indexed under their origin + path (checking each for its own authorization). */
  function indexUrls(): void {
    if (unindexed.length === 0) return;
    const fresh = unindexed;
    unindexed = [];
    for (const entry of fresh) {
      entry.at = originAndPath(entry.url);
      if (entry.at === undefined) continue;
      const list = urlElicitations.get(entry.at);
      if (list) list.push(entry);
      else urlElicitations.set(entry.at, [entry]);
      checkOwnAuthorization(entry);
    }
  }

  /**
   * url-not-mcp-authorization: OAuth metadata the page fetched (HAR imports). A Protected Resource Metadata document
   * names the authorization servers of its resource; an authorization server's metadata names its
   * `authorization_endpoint`. Every URL elicitation is checked again, as metadata may come after it.
   */
  function learnAuthorization(record: PageRequestRecord): void {
    const meta = record.metadata!;
    let learned = false;
    if (meta.authorizationServers?.length) {
      const resource = originOf(meta.resource ?? record.url ?? "");
      if (resource !== undefined) {
        let issuers = protectedBy.get(resource);
        if (!issuers) protectedBy.set(resource, (issuers = new Set()));
        for (const issuer of meta.authorizationServers) issuers.add(trimSlash(issuer));
        learned = true;
      }
    }
    const endpoint = meta.authorizationEndpoint === undefined ? undefined : originAndPath(meta.authorizationEndpoint);
    if (meta.issuer !== undefined && endpoint !== undefined) {
      authorizeAt.set(trimSlash(meta.issuer), endpoint);
      learned = true;
    }
    if (learned) for (const list of urlElicitations.values()) for (const entry of list) checkOwnAuthorization(entry);
  }

  /** The elicitation's URL is the authorization endpoint of an authorization server of the MCP server itself. */
  function checkOwnAuthorization(entry: UrlElicitation): void {
    if (entry.ownAuthorization || entry.at === undefined || protectedBy.size === 0) return;
    const server = originOf(entry.flow.server);
    const issuers = server === undefined ? undefined : protectedBy.get(server);
    if (!issuers) return;
    for (const issuer of issuers) {
      if (authorizeAt.get(issuer) !== entry.at) continue;
      entry.ownAuthorization = true;
      env.report(
        {
          rule: "url-not-mcp-authorization",
          pointer: `${entry.el.askPointer}/url`,
          message: `The URL is the authorization endpoint of ${issuer}, an authorization server of this MCP server (its Protected Resource Metadata): URL elicitation must not stand in for MCP authorization.`,
          record: entry.el.askRecord,
        },
        entry.flow,
        entry.flow.revision,
      );
      return;
    }
  }

  return {
    push(record: CaptureRecord): void {
      if (record.kind === "message") onMessage(record);
      else if (record.kind === "response") onResponse(record);
      else if (record.kind === "page-request") onPageRequest(record);
      else onEnd(record);
    },
  };
}

/** A URL-mode elicitation as the URL rules follow it. */
interface UrlElicitation {
  el: Elicitation;
  flow: Flow;
  url: string;
  /** Origin + path of its URL, once indexed (undefined before, or for a URL that is not http(s)). */
  at: string | undefined;
  prefetched: boolean;
  ownAuthorization: boolean;
}

const trimSlash = (url: string): string => (url.endsWith("/") ? url.slice(0, -1) : url);
