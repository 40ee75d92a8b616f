import type { CaptureRecord } from "../../capture/record.ts";
import type { Exchange } from "../model/exchange.ts";
import type { Scope, StreamEvent } from "../model/scope.ts";

/** The HTTP exchanges (request, response, stream) still open, by id. */
export function createExchanges() {
  const open = new Map<string, Exchange>();

  return {
    /** The exchange a record belongs to, opened by its first record; undefined when the record names none. */
    get(record: CaptureRecord): Exchange | undefined {
      if (!record.exchange) return undefined;
      let ex = open.get(record.exchange);
      if (!ex) {
        ex = {
          id: record.exchange,
          scope: undefined,
          requestHeaders: undefined,
          responseHeaders: undefined,
          status: undefined,
          emptyBody: undefined,
          requestIds: [],
          elicitResultRecord: undefined,
          elicitResultFlow: undefined,
          revision: undefined,
          resumedOf: undefined,
          lastEvent: undefined,
          carried: false,
        };
        open.set(record.exchange, ex);
      }
      return ex;
    },
    /** Forgets an ended exchange: a later record with its id opens a new one. */
    close(ex: Exchange): void {
      open.delete(ex.id);
    },
  };
}

/** A client request the exchange carried (its id key). The stream's last event shares the list (resumption reads it). */
export function addRequestId(ex: Exchange, key: string): void {
  ex.requestIds.push(key);
}

/**
 * Files the SSE event a stream carried last in its scope's `streamEvents`, for a later GET with Last-Event-ID: a
 * client resumes from the last event it received, so one entry per stream is enough.
 */
export function noteEvent(exchange: Exchange, scope: Scope, eventId: string): void {
  const previous = exchange.lastEvent;
  if (previous && (previous.scope !== scope || previous.eventId !== eventId))
    previous.scope.streamEvents!.delete(previous.eventId);
  const event: StreamEvent = {
    scope,
    exchange: exchange.resumedOf ?? exchange.id,
    requestIds: exchange.requestIds,
    eventId,
  };
  exchange.lastEvent = event;
  (scope.streamEvents ??= new Map()).set(eventId, event);
}
