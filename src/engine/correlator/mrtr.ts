// 2026-07-28 Multi Round-Trip Requests: an InputRequiredResult asks (a round), the client retries the request
// with inputResponses and the requestState; the flow (`mrtr`) runs until a result completes it.
import { ELICIT_METHOD } from "../../protocol/elicitation.ts";
import { elicitMode } from "../../protocol/modes.ts";
import { MRTR_METHODS } from "../../protocol/mrtr.ts";
import { isObject } from "../../util/json.ts";
import { join } from "../../util/pointer.ts";
import type { MessageContext } from "../model/exchange.ts";
import type { Facts } from "../facts.ts";
import { createRound, type Flow, type Round } from "../flow.ts";
import { stateOf } from "../flowState.ts";
import type { ClientRequest, MrtrLink } from "../model/scope.ts";
import { retryDefects } from "../model/defects.ts";
import { addElicitation, answer } from "./elicitations.ts";
import { answerRound, EMPTY, phase, tupleOf, type State } from "./state.ts";

export function onInputRequired(
  s: State,
  ctx: MessageContext,
  req: ClientRequest,
  result: Record<string, unknown>,
): void {
  const { scope, record, at } = ctx;
  const flow = req.flow ?? s.newFlow("mrtr", scope, req, record, req.revision);
  s.emit("inputRequired", { flow, revision: req.revision, msg: ctx, req, result });
  const round = flow.rounds[flow.rounds.length - 1]!;
  answerRound(round, "input_required", record);
  round.requestState = result.requestState;
  const request = { method: req.method, target: req.target, tuple: tupleOf(req), record: req.record, idKey: req.idKey };
  const inputRequests = isObject(result.inputRequests) ? result.inputRequests : EMPTY;
  const keys = Object.keys(inputRequests);
  const link: MrtrLink = {
    flow,
    request,
    state: result.requestState,
    hasState: result.requestState !== undefined,
    keys,
    inputRequests,
    record: record.seq,
    retries: 0,
  };
  let asked = 0;
  for (const key of keys) {
    const entry = inputRequests[key];
    if (!isObject(entry) || entry.method !== ELICIT_METHOD) continue;
    asked++;
    const p = join(`${at}/result/inputRequests`, key, "params");
    const ep = entry.params;
    const mode = elicitMode(ep);
    s.emit("elicitationAsked", {
      flow,
      revision: req.revision,
      msg: ctx,
      ep,
      pointer: p,
      mode,
      where: "input-request",
      req,
    });
    addElicitation(s, flow, key, ep, mode, record, p, round.index);
  }
  s.emit("roundAsked", { flow, revision: req.revision, pointer: `${at}/result/inputRequests`, asked });
  stateOf(flow).link = link;
  if (typeof result.requestState === "string") (scope.mrtrByState ??= new Map()).set(result.requestState, link);
  (scope.mrtrByTuple ??= new Map()).set(request.tuple, link);
  phase(flow, "user", record.time);
  s.touch(flow, record.seq);
}

/** A retry fact with what every kind of retry has; the caller adds what its kind knows. */
const retryFact = (
  msg: MessageContext,
  req: ClientRequest,
  flow: Flow | null,
  kind: Facts["retry"]["kind"],
  link: MrtrLink | undefined,
): Facts["retry"] => ({
  flow,
  revision: req.revision,
  msg,
  req,
  kind,
  link,
  noResultType: undefined,
  parallel: undefined,
  idReused: false,
  defects: undefined,
});

/** A request with inputResponses or requestState: the retry of an InputRequiredResult, found by state or tuple. */
export function onRetry(s: State, ctx: MessageContext, req: ClientRequest, idInFlight: boolean): void {
  const { scope, at, record } = ctx;
  const { params } = req;
  const state = params.requestState;
  const byState = typeof state === "string" ? scope.mrtrByState?.get(state) : undefined;
  if (!MRTR_METHODS.has(req.method)) {
    s.emit("retry", retryFact(ctx, req, byState?.flow ?? null, "not-retryable", undefined));
    return;
  }
  const tuple = tupleOf(req);
  const found = byState ?? scope.mrtrByTuple?.get(tuple);
  // A retry answers the latest InputRequiredResult of its chain, even when it presents an earlier round's state.
  const link = found ? (stateOf(found.flow).link ?? found) : undefined;
  if (!link) {
    const fact = retryFact(ctx, req, null, "unlinked", undefined);
    fact.noResultType = scope.noResultType?.get(tuple);
    s.emit("retry", fact);
    return;
  }
  if (req.method !== link.request.method || req.target !== link.request.target) {
    s.emit("retry", retryFact(ctx, req, link.flow, "other-request", link));
    return;
  }
  let parallel: ClientRequest | undefined;
  if (link.retries > 0) {
    for (const r of scope.clientRequests.values()) {
      if (r !== undefined && r !== req && r.retryOf === link && r.answered === undefined) {
        parallel = r;
        break;
      }
    }
  }
  link.retries++;
  const flow = link.flow;
  const defects = retryDefects(req, link);
  const fact = retryFact(ctx, req, flow, "linked", link);
  fact.parallel = parallel;
  fact.idReused = req.idKey === link.request.idKey || idInFlight;
  fact.defects = defects;
  s.emit("retry", fact);
  req.retryOf = link;
  req.retryDefects = defects;
  req.flow = flow;
  const roundIndex = flow.rounds.length + 1;
  flow.rounds.push(createRound(roundIndex, req.id as Round["requestId"], record.seq, record.time, state));
  const responses = isObject(params.inputResponses) ? params.inputResponses : EMPTY;
  let answered = false;
  for (const el of flow.elicitations) {
    if (el.round !== roundIndex - 1 || !(el.key in responses)) continue;
    const er = responses[el.key];
    const p = join(`${at}/params/inputResponses`, el.key);
    answered = true;
    s.emit("elicitationAnswered", {
      flow,
      revision: req.revision,
      msg: ctx,
      kind: "mrtr",
      er,
      ep: { mode: el.mode, message: el.message, requestedSchema: el.schema, url: el.url },
      pointer: p,
      asked: undefined,
    });
    answer(el, er, record.seq, p, record.time);
    if (record.source === "backend") s.relays.backendAnswered(flow, el, record);
  }
  if (answered) s.emit("retryAnswered", { flow, revision: req.revision, msg: ctx, req, round: roundIndex - 1 });
  phase(flow, "server", record.time);
  s.touch(flow, record.seq);
}
