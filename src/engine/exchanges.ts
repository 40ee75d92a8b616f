import type { CaptureRecord } from "../capture/record.ts";
import type { Exchange } from "./env.ts";
import type { Scope } from "./scope.ts";

/** The request ids of an exchange that carried none yet (see addRequestId); never written to. */
const NO_REQUEST_IDS: string[] = Object.freeze([]) as unknown as string[];

/** The HTTP exchanges (request, response, stream) still open, by id. */
export function createExchanges() {
  /**
   * The entry under "" is never removed (no record names that exchange: `get` needs an id). V8 reallocates
   * a Map's table whenever a delete empties it, and exchanges end one by one.
   */
  const open = new Map<string, Exchange | undefined>([["", undefined]]);

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
          requestIds: NO_REQUEST_IDS,
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

/**
 * Exchanges start with the shared empty id list, and most carry one request: the list is made when the
 * first id comes, exactly that long. The stream's last event shares the list (resumption reads it later).
 */
export function addRequestId(ex: Exchange, key: string): void {
  if (ex.requestIds === NO_REQUEST_IDS) {
    ex.requestIds = [key];
    if (ex.lastEvent) ex.lastEvent.requestIds = ex.requestIds;
  } else ex.requestIds.push(key);
}

/**
 * Files the SSE event a stream carried last in its scope's `streamEvents`, for a later GET with
 * Last-Event-ID: a client resumes from the last event it received, so one entry per stream is enough, and
 * it is one object updated in place.
 */
export function noteEvent(exchange: Exchange, scope: Scope, eventId: string): void {
  let event = exchange.lastEvent;
  let previousScope: Scope | undefined;
  let previousId = "";
  if (event === undefined) exchange.lastEvent = event = { scope, exchange: "", requestIds: exchange.requestIds, eventId };
  else if (event.scope !== scope || event.eventId !== eventId) {
    previousScope = event.scope;
    previousId = event.eventId;
  }
  event.scope = scope;
  event.eventId = eventId;
  event.exchange = exchange.resumedOf ?? exchange.id;
  (scope.streamEvents ??= new Map()).set(eventId, event);
  // The old id goes after the new one is in: a delete that empties a Map reallocates its table.
  if (previousScope) previousScope.streamEvents!.delete(previousId);
}
