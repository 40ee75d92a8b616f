// Notifications: the server's notifications/elicitation/complete (2025-11-25 URL mode), which completes the
// elicitation its elicitationId names, and the client's notifications (initialized; a misdirected completion).
import { ELICIT_COMPLETE } from "../../protocol/elicitation.ts";
import { isModern } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import type { Flow } from "../flow.ts";
import { ownerOf } from "./elicitations.ts";
import type { State } from "./state.ts";

export function onServerNotification(s: State, ctx: MessageContext, method: string, params: unknown): void {
  if (method !== ELICIT_COMPLETE) return;
  const { scope, record, exchange } = ctx;
  // rules.md §1.2 step 6: a notification takes the revision of the request whose response stream carried it.
  const streamRevision = exchange?.revision;
  const revision =
    (isModern(streamRevision) ? streamRevision : undefined) ??
    scope.revision ??
    streamRevision ??
    exchange?.requestHeaders?.["mcp-protocol-version"] ??
    null;
  const named = isObject(params) && typeof params.elicitationId === "string" ? params.elicitationId : undefined;
  const claimed = named === undefined ? undefined : scope.elicitationIds?.get(named);
  // The notification exists only in 2025-11-25; outside it, or without a string id, it completes nothing.
  const id = revision !== null && revision !== "2025-11-25" ? undefined : named;
  const known = id === undefined ? undefined : claimed;
  let otherSession: Flow | null | undefined;
  if (id !== undefined && !known) {
    // Another session of the same server issued it; another server's id that happens to be equal is not this one.
    const owner = ownerOf(s, scope, id);
    if (owner && owner !== scope) otherSession = owner.elicitationIds?.get(id)?.flow ?? null;
  }
  const repeated = known !== undefined && scope.completedIds?.has(id!) === true;
  s.emit("completion", {
    flow: claimed?.flow ?? null,
    revision,
    msg: ctx,
    params,
    id,
    known: known?.flow,
    otherSession,
    repeated,
  });
  if (!known || repeated) return;
  (scope.completedIds ??= new Set()).add(id!);
  for (const el of known.flow.elicitations) if (el.elicitationId === id) el.completed = true;
  s.touch(known.flow, record.seq);
}

export function onClientNotification(s: State, ctx: MessageContext, method: string, params: unknown): void {
  const id = method === ELICIT_COMPLETE && isObject(params) ? params.elicitationId : undefined;
  const completionFlow = typeof id === "string" ? (ctx.scope.elicitationIds?.get(id)?.flow ?? null) : null;
  s.emit("clientNotification", { flow: null, revision: ctx.scope.revision, msg: ctx, method, completionFlow });
  if (method === "notifications/initialized") ctx.scope.initialized = true;
}
