// The server's answer to a client request: it negotiates a session (initialize), opens a flow (an
// InputRequiredResult, a -32042 error, FrontMCP's pending elicitation), or ends the request's flow.
import { isModern } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import type { FlowKind } from "../flow.ts";
import type { ClientRequest, Scope } from "../model/scope.ts";
import { onFallbackPending } from "./fallback.ts";
import { onInputRequired } from "./mrtr.ts";
import { answerRound, EMPTY, finish, idKey, restart, tupleOf, type State } from "./state.ts";
import { onUrlRequired } from "./urlRequired.ts";

/** `error` is undefined for a result (parsed JSON has no undefined members, so `result` says nothing). */
export function onServerResponse(
  s: State,
  ctx: MessageContext,
  id: unknown,
  rawResult: unknown,
  error: Record<string, unknown> | undefined,
): void {
  const { scope, record } = ctx;
  const req = findRequest(ctx, id);
  if (!req) return;
  scope.clientRequests.delete(req.idKey);
  req.answered = record.seq;

  const modern = isModern(req.revision);
  const isResult = error === undefined;
  const result = isResult && isObject(rawResult) ? rawResult : EMPTY;
  if (isResult && req.method === "initialize") return negotiate(s, ctx, req, result);
  // An answer that opens a flow opens it first, so that every finding about the answer belongs to the flow.
  const opens: FlowKind | null = isResult
    ? result.resultType === "input_required"
      ? "mrtr"
      : null
    : error.code === -32042
      ? "url-required-error"
      : null;
  const flow = req.flow ?? (opens ? s.newFlow(opens, scope, req, record, req.revision ?? scope.revision) : null);
  s.emit("serverResponse", {
    flow,
    revision: req.revision,
    msg: ctx,
    req,
    result: isResult ? result : undefined,
    error,
    modern,
  });
  if (isResult) {
    if (result.resultType === "input_required") return onInputRequired(s, ctx, req, result);
    if (modern && result.resultType === undefined) (scope.noResultType ??= new Map()).set(tupleOf(req), record.seq);
    const pending = isObject(result._meta) ? result._meta.elicitationPending : undefined;
    if (req.method === "tools/call" && isObject(pending)) return onFallbackPending(s, ctx, req, pending);
    if (!flow) return;
    const round = flow.rounds[flow.rounds.length - 1];
    if (round) answerRound(round, "complete", record);
    s.emit("flowCompleted", { flow, revision: req.revision, msg: ctx, req, result, scope });
    for (const el of flow.elicitations)
      if (el.mode === "url" && el.action !== "decline" && el.action !== "cancel") el.completed = true;
    finish(flow, "complete", record.time);
    s.touch(flow, record.seq);
    return;
  }
  if (error.code === -32042) return onUrlRequired(s, ctx, req, error);
  if (!flow) return;
  s.emit("flowFailed", { flow, revision: req.revision, msg: ctx, req, error });
  const round = flow.rounds[flow.rounds.length - 1];
  if (round) answerRound(round, "error", record);
  finish(flow, "error", record.time);
  s.touch(flow, record.seq);
}

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

function negotiate(s: State, ctx: MessageContext, req: ClientRequest, result: Record<string, unknown>): void {
  const version = typeof result.protocolVersion === "string" ? result.protocolVersion : null;
  const sessionId = ctx.exchange?.responseHeaders?.["mcp-session-id"];
  negotiated(ctx.scope, version, req.params.capabilities);
  if (sessionId !== undefined && sessionId !== ctx.scope.sessionId)
    negotiated(s.scopes.get(ctx.scope.server, ctx.scope.client, sessionId), version, req.params.capabilities);
}

function negotiated(scope: Scope, version: string | null, caps: unknown): void {
  scope.revision = version;
  scope.caps = caps;
  scope.initializeSeen = true;
  scope.initialized = false;
}
