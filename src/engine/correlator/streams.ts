// HTTP exchanges and SSE streams: a response head (status, headers), a stream's end (which abandons the
// requests it should have answered), and a GET that resumes a POST stream with Last-Event-ID.
import type { EndRecord, MessageRecord, ResponseRecord } from "../../capture/record.ts";
import type { Exchange } from "../model/exchange.ts";
import { addRequestId } from "./exchanges.ts";
import { finish, restart, type State } from "./state.ts";

export function onResponse(s: State, record: ResponseRecord): void {
  const ex = s.exchanges.get(record);
  if (!ex) return;
  ex.status = record.status;
  ex.responseHeaders = record.headers;
  ex.emptyBody = record.emptyBody;
  if (ex.elicitResultRecord !== undefined) check202(s, ex);
}

/** A POSTed ElicitResult and the status of its exchange, once both are known (in either order). */
export function check202(s: State, ex: Exchange): void {
  if (ex.elicitResultRecord === undefined || ex.status === undefined) return;
  s.emit("elicitResultAck", {
    flow: ex.elicitResultFlow ?? null,
    revision: ex.scope?.revision ?? null,
    record: ex.elicitResultRecord,
    exchange: ex,
  });
  ex.elicitResultRecord = undefined;
}

/**
 * A GET with Last-Event-ID resumes the POST stream that carried that event (transports.mdx § "Resumability
 * and Redelivery"; 2025-11-25 servers may close a POST stream early and let the client poll this way): the
 * new stream carries the same requests, so their flows, abandoned when the first stream ended, are pending again.
 */
export function resume(s: State, record: MessageRecord, ex: Exchange): void {
  if (ex.resumedOf !== undefined || ex.requestIds.length) return;
  const last = record.headers?.["last-event-id"];
  if (last === undefined) return;
  const server = s.serverKey(record);
  const sessionId = record.headers?.["mcp-session-id"] ?? "";
  const origin = s.scopes.find(server, record.client ?? "", sessionId)?.streamEvents?.get(last);
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
      s.touch(flow, record.seq);
    }
  }
}

/** A stream or exchange ended: the requests it carried and did not answer are abandoned (a resumed stream may revive them). */
export function onEnd(s: State, record: EndRecord): void {
  const ex = s.exchanges.get(record);
  if (!ex) return;
  // A HAR keeps no body of a stream that did not finish: its messages are unknown, not absent.
  if (
    record.entry !== undefined &&
    record.error !== undefined &&
    !ex.carried &&
    ex.status === 200 &&
    ex.emptyBody === undefined &&
    ex.responseHeaders?.["content-type"]?.includes("event-stream")
  )
    s.lostStreams.add(s.serverKey(record));
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
        s.touch(req.flow, record.seq);
      }
    }
  }
  s.exchanges.close(ex);
}
