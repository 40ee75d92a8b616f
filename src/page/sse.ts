import { createParser } from "eventsource-parser";
import type { Natives } from "./natives.ts";
import { failure } from "./mcp.ts";

export interface SseEventSeen {
  data: string;
  id?: string;
  event?: string;
}

/**
 * Reads a body (our tee branch, never the page's) to its end, handing each SSE event over as it arrives, with the
 * parser the SDK clients use (so records match what the client saw and what the recorder and the HAR importer make).
 * `done` gets the failure (`abort`, `network`, …) or nothing.
 */
export async function readEvents(N: Natives, body: ReadableStream<Uint8Array>, onEvent: (event: SseEventSeen) => void, done: (error?: string) => void): Promise<void> {
  const parser = createParser({ onEvent: (event) => onEvent(event) });
  const decoder = new N.TextDecoder();
  try {
    const reader = N.getReader.call(body) as ReadableStreamDefaultReader<Uint8Array>;
    for (;;) {
      const { done: finished, value } = await reader.read();
      if (finished) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } catch (error) {
    done(failure(error));
    return;
  }
  done();
}

/** For streams that grow as text (XHR `responseText`): feed what is new since the last call. */
export function createTextFeed(onEvent: (event: SseEventSeen) => void): (whole: string) => void {
  const parser = createParser({ onEvent: (event) => onEvent(event) });
  let seen = 0;
  return (whole) => {
    if (whole.length <= seen) return;
    parser.feed(whole.slice(seen));
    seen = whole.length;
  };
}

/**
 * Reads a whole body (our tee branch) chunk by chunk. Unlike `text()`, what arrived before a failure is kept: a
 * client that aborts its request right after reading the response (the SDKs' close()) errors our branch too, and
 * the body it read must not be lost.
 */
export async function readText(N: Natives, body: ReadableStream<Uint8Array> | null): Promise<{ text: string; error?: string }> {
  if (!body) return { text: "" };
  const decoder = new N.TextDecoder();
  let text = "";
  try {
    const reader = N.getReader.call(body) as ReadableStreamDefaultReader<Uint8Array>;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return { text: text + decoder.decode() };
  } catch (error) {
    return { text: text + decoder.decode(), error: failure(error) };
  }
}
