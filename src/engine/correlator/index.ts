// The correlator: capture records in, flows out, and facts for the rules (src/engine/facts.ts). It never judges:
// every finding comes from a rule module. Each record is dispatched by its kind, each JSON-RPC message by its
// direction and kind, to the module of its flow kind. Amortised O(1) per record: every lookup is a Map keyed by
// scope, exchange, JSON-RPC id, requestState or request tuple.
import type { CaptureRecord, MessageRecord } from "../../capture/record.ts";
import { classify, type Classified } from "../../protocol/jsonrpc.ts";
import { describeCut, parseBounded } from "../../util/depth.ts";
import { isObject } from "../../util/json.ts";
import type { Env } from "../env.ts";
import type { MessageContext } from "../model/exchange.ts";
import { onClientRequest } from "./clientRequest.ts";
import { onClientNotification, onServerNotification } from "./completion.ts";
import { onPageRequest } from "./pageRequests.ts";
import { onClientResponse, onServerRequest } from "./serverRequest.ts";
import { onServerResponse } from "./serverResponse.ts";
import type { RelayOptions } from "./relay.ts";
import { createState, idKey, type State } from "./state.ts";
import { onEnd, onResponse, resume } from "./streams.ts";
import { noteEvent } from "./exchanges.ts";

export function createCorrelator(env: Env, options: RelayOptions = {}) {
  const s = createState(env, options);

  return {
    push(record: CaptureRecord): void {
      s.relays.settle(record.time);
      if (record.kind === "message") onMessage(s, record);
      else if (record.kind === "response") onResponse(s, record);
      else if (record.kind === "page-request") onPageRequest(s, record);
      else onEnd(s, record);
    },
    /** Relay judgements that wait for their grace, at `now` (src/engine/correlator/relay.ts). */
    settle: (now: number): void => s.relays.settle(now),
    unsettled: (): boolean => s.relays.unsettled(),
  };
}

function onMessage(s: State, record: MessageRecord): void {
  if (s.relays.isRelay(record)) return s.relays.page(record);
  if (record.event === "endpoint" && record.transport === "eventsource") {
    try {
      s.endpointAliases.set(new URL(record.text.trim(), record.url).href, s.serverKey(record));
    } catch {
      s.env.problem(record, `EventSource endpoint event carries an unusable URL: ${record.text.slice(0, 200)}`);
    }
    return;
  }
  if (record.truncated !== undefined) {
    s.env.problem(
      record,
      `Message was cut at ${record.truncated} characters by the capture's size cap; it is not analysed.`,
    );
    return;
  }
  // SSE priming events carry no data, only an event id to resume from.
  const priming = record.text.trim() === "";
  let parsed: unknown;
  let cut: ReturnType<typeof parseBounded>["cut"];
  try {
    if (!priming) ({ value: parsed, cut } = parseBounded(record.text));
  } catch (e) {
    s.env.problem(
      record,
      `Invalid JSON in a ${record.direction === "c2s" ? "client" : "server"} message: ${(e as Error).message}`,
    );
    return;
  }
  if (cut) s.env.problem(record, describeCut(cut));
  // Enveloped messages carry no HTTP delivery facts (status, which stream, headers): correlated by id in their scope, like postMessage.
  const exchange = record.stream === "envelope" ? undefined : s.exchanges.get(record);
  if (exchange) exchange.carried = true;
  if (exchange && record.direction === "c2s") exchange.requestHeaders ??= record.headers;
  if (exchange && record.stream === "get-sse") resume(s, record, exchange);
  const scope = s.resolveScope(record, exchange);
  if (exchange && record.direction === "c2s" && !exchange.scope) exchange.scope = scope;
  // The stream's last event, for a GET that resumes it with Last-Event-ID.
  if (exchange && record.eventId !== undefined && (record.stream === "post-sse" || exchange.resumedOf !== undefined))
    noteEvent(exchange, scope, record.eventId);
  if (priming) return;
  if (!Array.isArray(parsed)) return onJsonRpc(s, { record, at: "", exchange, scope }, parsed, false);
  for (let i = 0; i < parsed.length; i++) onJsonRpc(s, { record, at: `/${i}`, exchange, scope }, parsed[i], true);
}

/**
 * One JSON-RPC message of a record (`inBatch`: one element of a batch array). The four kinds are told
 * apart as `classify` does, without building its object: this runs for every message.
 */
function onJsonRpc(s: State, ctx: MessageContext, m: unknown, inBatch: boolean): void {
  const { record, scope } = ctx;
  const c2s = record.direction === "c2s";
  if (isObject(m)) {
    // Parsed JSON has no undefined members: a member is present exactly when reading it gives something.
    const method = m.method;
    if (typeof method === "string") {
      if (m.id !== undefined)
        return c2s
          ? onClientRequest(s, ctx, m.id, method, m.params)
          : onServerRequest(s, ctx, m.id, method, m.params, inBatch ? JSON.stringify(m) : record.text);
      return c2s ? onClientNotification(s, ctx, method, m.params) : onServerNotification(s, ctx, method, m.params);
    }
    const hasResult = m.result !== undefined;
    const hasError = m.error !== undefined;
    if (hasResult && !hasError)
      return c2s
        ? onClientResponse(s, ctx, m.id, m.result, undefined)
        : onServerResponse(s, ctx, m.id, m.result, undefined);
    if (hasError && !hasResult && isObject(m.error))
      return c2s
        ? onClientResponse(s, ctx, m.id, undefined, m.error)
        : onServerResponse(s, ctx, m.id, undefined, m.error);
    const open = c2s && m.id !== undefined ? scope.openElicitations?.get(idKey(m.id)) : undefined;
    if (open) {
      s.emit("malformedAnswer", { flow: open.flow, revision: scope.revision, msg: ctx, id: m.id, hasResult });
      return;
    }
  }
  const invalid = classify(m) as Classified & { type: "invalid" };
  return s.env.problem(record, `Not a JSON-RPC message${ctx.at ? ` at ${ctx.at}` : ""}: ${invalid.reason}.`);
}
