import { createParser } from "eventsource-parser";

export interface SseEvent {
  data: string;
  id?: string;
  /** The event type, when the stream named one. */
  event?: string;
}

export interface SseSplit {
  events: SseEvent[];
  /** The body ended inside an event (no blank line after it); that event is the last one of `events`. */
  unterminated: boolean;
}

/**
 * Splits a whole `text/event-stream` body into events with the parser the SDK clients use, so a record holds
 * what the client saw: `data:` with or without a space, CR/LF/CRLF line ends, several `data:` lines joined with
 * "\n" (a missing blank line between two events therefore yields one event whose text is not JSON — as on the
 * wire). Unlike EventSource (HTML §9.2.6, "incomplete event … discarded"), an event left open at the end is kept:
 * a HAR saved while a stream was open ends mid-event, and the engine should still see what arrived.
 */
export function splitSse(body: string): SseSplit {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent({ data, id, event }) {
      events.push({ data, ...(id !== undefined && { id }), ...(event !== undefined && { event }) });
    },
  });
  parser.feed(body);
  const complete = events.length;
  // Ends the last line, then the last event; after a complete body both are blank lines that dispatch nothing.
  parser.feed("\n\n");
  return { events, unterminated: events.length > complete };
}
