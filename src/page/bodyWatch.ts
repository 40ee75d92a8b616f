import type { Natives } from "./natives.ts";
import { hookBodyMethods } from "./bodyMethods.ts";
import { hookPipes } from "./bodyPipes.ts";
import { hookReaders } from "./bodyReaders.ts";
import {
  PromisePrototypeThen,
  Uint8ArrayCtor,
  viewBytes,
  WeakMapCtor,
  WeakMapPrototypeGet,
  WeakMapPrototypeHas,
  WeakMapPrototypeSet,
} from "./primordials.ts";
import type { BodySink, Entry, Feed, WatchState } from "./bodyTypes.ts";
import type { Wrap } from "./wrap.ts";

export interface BodyWatch {
  /** Records what the page reads of `response`'s body, as it reads it. False when there is no body. */
  watch(response: Response, sink: BodySink): boolean;
}

/**
 * The tap reads a watched body (an MCP `text/event-stream` response) through the page's own reads instead of a tee:
 * a `response.clone()` read by the tap pulls the network at the tap's pace, so the page's stream would lose its
 * backpressure (the tee queues without bound) and the page's `cancel()` would leave the connection open (a tee
 * cancels its source only when both branches are cancelled). Here nothing is read that the page does not read.
 *
 * How the page reads, and how each is seen (the built-ins are wrapped, and do what they did for every other stream):
 * - `getReader()` then `read()` (default and BYOB readers): the read's result, before the page gets it (the page gets
 *   a promise derived from the browser's; a rejection stays unhandled if the page leaves it so);
 * - `pipeTo()`/`pipeThrough()` without options: through a pass-through TransformStream put between the body and the
 *   page's destination (one chunk of extra buffering; cancelling and aborting propagate through it);
 * - async iteration (`values()`, `for await`): the iterator's `next()` results; `return()` is a cancel (unless
 *   options were given: `preventCancel` may have kept the stream);
 * - `tee()` and `response.clone()`: both branches are watched; each byte goes to the sink once, whichever branch the
 *   page reads first;
 * - `text()`, `arrayBuffer()`, `bytes()`, `blob()`: the result.
 * - `cancel()` on the stream or a reader ends the record (`cancel`) once every branch is cancelled.
 * Not seen: `json()` and `formData()` (an event stream is neither), `new Response(body)`, a body posted to a worker,
 * `pipeTo`/`pipeThrough` with options (the page's stream is left alone then: `preventCancel` would mean something
 * else through a pass-through), readers made with `new ReadableStreamDefaultReader(body)`.
 */
export function createBodyWatch(win: Window & typeof globalThis, N: Natives, wrap: Wrap): BodyWatch {
  const streams = new WeakMapCtor<object, Entry>();
  const STREAM = { __proto__: null, stream: true } as TextDecodeOptions;
  const encoder = new N.TextEncoder();

  const finish = (feed: Feed, how: "done" | "cancel" | "error", error?: unknown): void => {
    if (feed.ended) return;
    feed.ended = true;
    try {
      const rest = N.decode(feed.decoder);
      if (rest !== "") feed.sink.text(rest);
    } catch {
      // Never into the page.
    }
    feed.sink.end(how, error);
  };

  const retire = (entry: Entry): void => {
    if (entry.retired) return;
    entry.retired = true;
    entry.feed.live--;
  };

  const observe = (entry: Entry, chunk: unknown): void => {
    const bytes = viewBytes(chunk);
    if (!bytes) return;
    const feed = entry.feed;
    const start = entry.offset;
    entry.offset = start + bytes[2];
    if (feed.ended || entry.offset <= feed.fed) return;
    const skip = feed.fed > start ? feed.fed - start : 0;
    feed.fed = entry.offset;
    const text = N.decode(
      feed.decoder,
      skip === 0 ? (chunk as ArrayBufferView) : new Uint8ArrayCtor(bytes[0], bytes[1] + skip, bytes[2] - skip),
      STREAM,
    );
    if (text !== "") feed.sink.text(text);
  };

  const state: WatchState = {
    win,
    N,
    wrap,
    responses: new WeakMapCtor<object, true>(),
    entryOf(stream) {
      if (stream === null || typeof stream !== "object") return undefined;
      const entry = WeakMapPrototypeGet(streams, stream);
      return entry && !entry.feed.ended ? entry : undefined;
    },
    track(stream, feed, offset) {
      feed.live++;
      WeakMapPrototypeSet(streams, stream, { feed, offset, retired: false });
    },
    retire,
    cancelled(entry) {
      retire(entry);
      if (entry.feed.live <= 0) finish(entry.feed, "cancel");
    },
    observe,
    observeText: (entry, text) => observe(entry, N.encode(encoder, text)),
    finish,
    derive: (promise, entry, owner, map) =>
      PromisePrototypeThen(
        promise,
        (result) => {
          try {
            const r = result as ReadableStreamReadResult<unknown>;
            if (r.done) finish(entry.feed, "done");
            else observe(entry, r.value);
          } catch {
            // Never into the page.
          }
          return result;
        },
        (error) => {
          // A reader released meanwhile (releaseLock) rejects its pending reads: that is not the stream failing.
          if (WeakMapPrototypeHas(map, owner)) finish(entry.feed, "error", error);
          throw wrap.strip(error);
        },
      ),
    lockedOrNot(stream) {
      try {
        return N.streamLocked(stream);
      } catch {
        return true;
      }
    },
  };

  hookReaders(state);
  hookPipes(state);
  hookBodyMethods(state);

  return {
    watch(response, sink) {
      const body = N.responseBody(response);
      if (!body) return false;
      state.track(body, { sink, decoder: new N.TextDecoder(), fed: 0, live: 0, ended: false }, 0);
      WeakMapPrototypeSet(state.responses, response, true);
      return true;
    },
  };
}
