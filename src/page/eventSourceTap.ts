import type { RecordDraft } from "../shared/tapRecord.ts";
import { capped, looksJsonRpc, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import { looksRelayed } from "./relay.ts";
import { WeakMapCtor, WeakMapPrototypeGet, WeakMapPrototypeSet } from "./primordials.ts";
import type { Wrap } from "./wrap.ts";

interface Connection {
  url: string;
  mcp: boolean;
  openedAt: number;
  /** The current connection's exchange, once it carried MCP; a reconnect starts a new one. */
  exchange?: string;
}

/**
 * `EventSource`, the deprecated HTTP+SSE transport (2024-11-05): the server's first event is `endpoint` (the URL
 * to POST to), then `message` events. Nothing is recorded for an EventSource until it carries one of those (or a
 * decode rule matches its URL when it is made); each
 * (re)connection is an exchange: a 200 head, its events, an end (`network` on error, `abort` on close()).
 */
export function tapEventSource(win: Window & typeof globalThis, tap: Tap, N: Natives, wrap: Wrap): void {
  if (typeof win.EventSource !== "function") return;
  const connections = new WeakMapCtor<object, Connection>();

  const emit = (c: Connection, record: Record<string, unknown>): void =>
    tap.emit({
      transport: "eventsource",
      exchange: c.exchange,
      url: c.url,
      client: tap.client,
      ...record,
    } as RecordDraft);
  const end = (c: Connection, error: string): void => {
    if (!c.exchange) return;
    emit(c, { time: tap.now(), kind: "end", error });
    c.exchange = undefined;
  };

  wrap.ctor(win, "EventSource", (source) => {
    const url = N.eventSourceUrl(source);
    // A decode rule's stream is recorded from its first event, whatever the events carry.
    const c: Connection = {
      url,
      mcp: tap.rules.any() && tap.rules.matches(url, "GET"),
      openedAt: tap.now(),
      exchange: undefined,
    };
    WeakMapPrototypeSet(connections, source, c);
    const onEvent = (type: string) => (event: Event) => {
      try {
        const data = N.messageData(event);
        if (typeof data !== "string") return;
        const relayed = !c.mcp && type !== "endpoint" && !looksJsonRpc(data);
        if (relayed && !looksRelayed(data)) return;
        if (!relayed) c.mcp = true;
        if (!relayed && !c.exchange) {
          c.exchange = tap.id("e");
          emit(c, {
            time: c.openedAt,
            kind: "response",
            status: 200,
            headers: { "content-type": "text/event-stream" },
            emptyBody: false,
          });
        }
        const id = N.messageLastEventId(event);
        // A relayed elicitation on a stream that carries no MCP: its events alone, no exchange, head or end (relay.ts).
        emit(relayed ? { ...c, exchange: undefined } : c, {
          time: tap.now(),
          kind: "message",
          direction: "s2c",
          stream: "eventsource",
          method: "GET",
          ...capped(data),
          ...(id && { eventId: id }),
          ...(type !== "message" && { event: type }),
        });
      } catch {
        // Never into the page.
      }
    };
    N.listen(source, "open", () => void (c.openedAt = tap.now()));
    N.listen(source, "message", onEvent("message"));
    N.listen(source, "endpoint", onEvent("endpoint"));
    N.listen(source, "error", () => end(c, "network"));
  });

  wrap.method(win.EventSource.prototype, "close", (target, source, args) => {
    let wasOpen = false;
    try {
      wasOpen = N.eventSourceReadyState(source) !== 2;
    } catch {
      wasOpen = false;
    }
    const result = wrap.invoke(target, source, args);
    const c =
      wasOpen && source !== null && typeof source === "object" ? WeakMapPrototypeGet(connections, source) : undefined;
    if (c) end(c, "abort");
    return result;
  });
}
