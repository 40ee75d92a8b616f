// 2025-11-25 URLElicitationRequiredError (-32042): the error lists URL elicitations, and the client retries the
// same request (method, target, arguments) once the user is done (a `url-required-error` flow).
import { elicitMode } from "../../protocol/modes.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import { createRound, type Flow, type Round } from "../flow.ts";
import type { ClientRequest } from "../model/scope.ts";
import { addElicitation, registerElicitationId } from "./elicitations.ts";
import { answerRound, idKey, phase, tupleOf, type State } from "./state.ts";

export function onUrlRequired(s: State, ctx: MessageContext, req: ClientRequest, error: Record<string, unknown>): void {
  const { scope, record, at } = ctx;
  const revision = req.revision ?? scope.revision;
  const flow = req.flow ?? s.newFlow("url-required-error", scope, req, record, revision);
  s.emit("urlRequired", {
    flow,
    revision,
    msg: ctx,
    req,
    error,
    caps: scope.initializeSeen ? (scope.caps ?? {}) : undefined,
  });
  const data = error.data;
  const list = isObject(data) ? data.elicitations : undefined;
  const entries: unknown[] = Array.isArray(list) && list.length > 0 ? list : [];
  const round = flow.rounds[flow.rounds.length - 1]!;
  answerRound(round, "error", record);
  entries.forEach((entry, i) => {
    const p = `${at}/error/data/elicitations/${i}`;
    const mode = elicitMode(entry);
    s.emit("elicitationAsked", {
      flow,
      revision,
      msg: ctx,
      ep: entry,
      pointer: p,
      mode,
      where: "url-required-error",
      req,
    });
    const key = isObject(entry) && typeof entry.elicitationId === "string" ? entry.elicitationId : String(i);
    const already = flow.elicitations.find((e) => e.key === key && e.mode === "url");
    if (!already) addElicitation(s, flow, key, entry, mode, record, p, round.index);
    if (isObject(entry))
      registerElicitationId(s, scope, flow, revision, flow.elicitations.length - 1, entry, p, record);
  });
  (scope.awaitingRetry ??= new Map()).set(tupleOf(req), flow);
  phase(flow, "user", record.time);
  s.touch(flow, record.seq);
}

export function onUrlRetry(s: State, ctx: MessageContext, req: ClientRequest, flow: Flow): void {
  const { scope, record } = ctx;
  scope.awaitingRetry?.delete(tupleOf(req));
  const last = flow.rounds[flow.rounds.length - 1];
  s.emit("urlRetry", {
    flow,
    revision: req.revision,
    msg: ctx,
    req,
    idReused: last !== undefined && idKey(last.requestId) === req.idKey,
  });
  req.flow = flow;
  flow.rounds.push(createRound(flow.rounds.length + 1, req.id as Round["requestId"], record.seq, record.time));
  phase(flow, "server", record.time);
  s.touch(flow, record.seq);
}
