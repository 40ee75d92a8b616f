// 2025-06-18 and 2025-11-25: the server asks with a JSON-RPC request (elicitation/create) and the client
// answers it by id (a `server-request` flow, or a round of the client request whose stream carried it).
import type { MessageRecord } from "../../capture/record.ts";
import { ELICIT_METHOD } from "../../protocol/elicitation.ts";
import { idText } from "../../protocol/jsonrpc.ts";
import { elicitMode } from "../../protocol/modes.ts";
import { MRTR_METHODS } from "../../protocol/mrtr.ts";
import { isModern } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import { createRound, type Flow } from "../flow.ts";
import { stateOf } from "../flowState.ts";
import type { ClientRequest, Scope } from "../model/scope.ts";
import { modeUndeclared } from "../caps.ts";
import { addElicitation, answer, registerElicitationId } from "./elicitations.ts";
import { check202 } from "./streams.ts";
import { EMPTY, idKey, phase, type State } from "./state.ts";

export function onServerRequest(
  s: State,
  ctx: MessageContext,
  id: unknown,
  method: string,
  rawParams: unknown,
  text: string,
): void {
  const { scope, record, at, exchange } = ctx;
  const origin = originatingRequest(ctx);
  const revision =
    scope.revision ??
    origin?.revision ??
    exchange?.requestHeaders?.["mcp-protocol-version"] ??
    record.headers?.["mcp-protocol-version"] ??
    null;
  const modern = isModern(revision);
  const key = idKey(id);
  const stream = streamOf(ctx);
  if (method !== ELICIT_METHOD) {
    s.emit("serverRequest", {
      flow: origin?.flow ?? null,
      revision,
      msg: ctx,
      id,
      method,
      kind: "other-method",
      modern,
      origin,
      prior: undefined,
      stream,
    });
    (scope.serverRequestIds ??= new Map()).set(key, { exchange: exchange?.id, text, record: record.seq, flow: null });
    return;
  }
  const prior = scope.serverRequestIds?.get(key);
  if (prior && prior.text === text) {
    s.emit("serverRequest", {
      flow: prior.flow,
      revision,
      msg: ctx,
      id,
      method,
      kind: "replay",
      modern,
      origin,
      prior,
      stream,
    });
    return;
  }
  const flow = origin?.flow ?? s.newFlow("server-request", scope, origin, record, revision);
  if (origin && !origin.flow) origin.flow = flow;
  // A GET-stream elicitation's request is inferred (originatingRequest).
  if (origin && stream === "get-sse") flow.inferred = "get-stream";
  s.emit("serverRequest", { flow, revision, msg: ctx, id, method, kind: "elicitation", modern, origin, prior, stream });
  (scope.serverRequestIds ??= new Map()).set(key, { exchange: exchange?.id, text, record: record.seq, flow });
  const params = isObject(rawParams) ? rawParams : EMPTY;
  const p = `${at}/params`;
  const mode = elicitMode(rawParams);
  s.emit("elicitationAsked", {
    flow,
    revision,
    msg: ctx,
    ep: rawParams,
    pointer: p,
    mode,
    where: "server-request",
    req: origin,
  });
  // The client should answer an undeclared mode with -32602 (cap-client-rejects-undeclared-mode).
  const undeclaredMode = scope.initializeSeen && !modern && modeUndeclared(scope.caps, revision, mode);
  const round = flow.rounds.length || 1;
  addElicitation(s, flow, idText(id), rawParams, mode, record, p, round);
  registerElicitationId(s, scope, flow, revision, flow.elicitations.length - 1, params, p, record);
  const open = (scope.openElicitations ??= new Map());
  open.set(key, {
    idKey: key,
    params: rawParams,
    mode,
    record: record.seq,
    exchange: exchange?.id,
    text,
    flow,
    index: flow.elicitations.length - 1,
    undeclaredMode,
  });
  s.emit("serverElicitationOpened", { flow, revision, pointer: p, idPointer: `${at}/id`, open: open.size });
  if (flow.rounds.length === 0) flow.rounds = [createRound(1, null, record.seq, record.time)];
  phase(flow, "user", record.time);
  s.touch(flow, record.seq);
}

/** Where a message travelled; a GET stream that resumes a POST stream counts as that POST stream. */
const streamOf = (ctx: MessageContext): MessageRecord["stream"] =>
  ctx.exchange?.resumedOf !== undefined ? "post-sse" : ctx.record.stream;

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
  if (streamOf(ctx) === "get-sse") {
    // The standalone GET stream names no request: it belongs to the one client request in flight, when exactly one
    // is (the flow says the tie is inferred); with several in flight nothing tells which.
    let only: ClientRequest | undefined;
    for (const req of scope.clientRequests.values()) {
      if (req === undefined || req.method === "initialize") continue;
      if (only) return undefined;
      only = req;
    }
    return only;
  }
  let best: ClientRequest | undefined;
  for (const req of scope.clientRequests.values()) {
    if (req === undefined || req.method === "initialize") continue;
    if (
      !best ||
      (MRTR_METHODS.has(req.method) && !MRTR_METHODS.has(best.method)) ||
      (MRTR_METHODS.has(req.method) === MRTR_METHODS.has(best.method) && req.time >= best.time)
    )
      best = req;
  }
  return best;
}

/** The client's answer to a server request. `error` is undefined for a result. */
export function onClientResponse(
  s: State,
  ctx: MessageContext,
  id: unknown,
  result: unknown,
  error: Record<string, unknown> | undefined,
): void {
  const { scope, record, at } = ctx;
  const key = idKey(id);
  const el = scope.openElicitations?.get(key);
  const revision = scope.revision ?? el?.flow.revision ?? null;
  const repeated = el ? undefined : scope.answeredElicitations?.get(key);
  s.emit("clientResponse", {
    flow: el?.flow ?? null,
    revision,
    msg: ctx,
    id,
    asked: el,
    repeated,
    knownId: scope.serverRequestIds?.has(key) === true,
    lostStream: s.lostStreams.has(scope.server),
  });
  if (!el) return;
  scope.openElicitations?.delete(key);
  const flow = el.flow;
  (scope.answeredElicitations ??= new Map()).set(key, { record: record.seq, flow });
  const elicitation = flow.elicitations[el.index]!;
  // "202 Accepted with no body" is Streamable HTTP's (transports.mdx); a POST to an HTTP+SSE `endpoint` (2024-11-05,
  // which says nothing of the answer's body: sdk 1.32.2 answers "Accepted") is not checked for it.
  if (ctx.exchange && !s.endpointAliases.has(record.url ?? "")) {
    ctx.exchange.elicitResultRecord = record.seq;
    ctx.exchange.elicitResultFlow = flow;
    if (ctx.exchange.status !== undefined) check202(s, ctx.exchange);
  }
  if (error === undefined) {
    s.emit("elicitationAnswered", {
      flow,
      revision,
      msg: ctx,
      kind: "server-request",
      er: result,
      ep: el.params,
      pointer: `${at}/result`,
      asked: el,
    });
    answer(elicitation, result, record.seq, `${at}/result`, record.time);
    if (record.source === "backend") s.relays.backendAnswered(flow, elicitation, record);
  } else {
    elicitation.answerRecord = record.seq;
    elicitation.answerPointer = `${at}/error`;
    elicitation.answeredAt = record.time;
    // The client answered without asking anyone (use-mcp's -32601): that time was not the user's.
    const clock = stateOf(flow);
    if (clock.phase === "user" && !waitsOnUser(scope, flow)) clock.phase = "server";
  }
  if (!waitsOnUser(scope, flow)) phase(flow, "server", record.time);
  s.touch(flow, record.seq);
}

/** Whether another elicitation/create of the flow is still unanswered (the clock stays with the user). */
function waitsOnUser(scope: Scope, flow: Flow): boolean {
  if (scope.openElicitations)
    for (const open of scope.openElicitations.values()) if (open !== undefined && open.flow === flow) return true;
  return false;
}
