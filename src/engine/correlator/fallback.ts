// FrontMCP's fallback tool: a tool result whose _meta.elicitationPending asks the question, and a later call of
// the tool `sendElicitationResult` that carries the answer (a `fallback-tool` flow).
import { elicitMode } from "../../protocol/modes.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import { createRound, type Round } from "../flow.ts";
import type { ClientRequest } from "../model/scope.ts";
import { addElicitation, answer } from "./elicitations.ts";
import { answerRound, phase, type State } from "./state.ts";

export const FALLBACK_TOOL = "sendElicitationResult";

export function onFallbackPending(
  s: State,
  ctx: MessageContext,
  req: ClientRequest,
  pending: Record<string, unknown>,
): void {
  const { scope, record, at } = ctx;
  const flow = req.flow ?? s.newFlow("fallback-tool", scope, req, record, req.revision);
  const round = flow.rounds[flow.rounds.length - 1]!;
  answerRound(round, "input_required", record);
  const key = typeof pending.elicitId === "string" ? pending.elicitId : "fallback";
  const ep = {
    message: pending.message,
    requestedSchema: pending.schema ?? pending.requestedSchema,
    ...(typeof pending.mode === "string" ? { mode: pending.mode } : {}),
  };
  addElicitation(s, flow, key, ep, elicitMode(ep), record, `${at}/result/_meta/elicitationPending`, round.index);
  phase(flow, "user", record.time);
  s.touch(flow, record.seq);
}

export function onFallbackAnswer(s: State, ctx: MessageContext, req: ClientRequest): void {
  const args = isObject(req.params.arguments) ? req.params.arguments : {};
  const elicitId = typeof args.elicitId === "string" ? args.elicitId : undefined;
  if (!elicitId) return;
  const flow = ctx.scope.fallbackFlows?.find((f) => f.elicitations.some((e) => e.key === elicitId));
  if (!flow) return;
  const el = flow.elicitations.find((e) => e.key === elicitId)!;
  const p = `${ctx.at}/params/arguments`;
  s.emit("elicitationAnswered", {
    flow,
    revision: req.revision,
    msg: ctx,
    kind: "fallback-tool",
    er: args,
    ep: { mode: el.mode, message: el.message, requestedSchema: el.schema },
    pointer: p,
    asked: undefined,
  });
  answer(el, args, ctx.record.seq, p, ctx.record.time);
  if (ctx.record.source === "backend") s.relays.backendAnswered(flow, el, ctx.record);
  req.flow = flow;
  flow.rounds.push(createRound(flow.rounds.length + 1, req.id as Round["requestId"], ctx.record.seq, ctx.record.time));
  phase(flow, "server", ctx.record.time);
  s.touch(flow, ctx.record.seq);
}
