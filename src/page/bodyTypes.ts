// The types the body watch (bodyWatch.ts) shares with its hooks (bodyReaders.ts, bodyPipes.ts, bodyMethods.ts): a
// module of their own, so the hooks do not import the module that imports them.
import type { Natives } from "./natives.ts";
import type { Wrap } from "./wrap.ts";

/** Where the bytes of a watched body go: decoded text in order, once each, then how it ended. */
export interface BodySink {
  text(text: string): void;
  /** `done`: the page read to the end; `cancel`: it cancelled every branch; `error`: its read failed. */
  end(how: "done" | "cancel" | "error", error?: unknown): void;
}

/** One watched body: what has been handed to the sink, across all the streams that carry its bytes. */
export interface Feed {
  sink: BodySink;
  decoder: TextDecoder;
  /** Bytes handed over so far. */
  fed: number;
  /** Streams the page can still read (a clone or tee makes two of one). */
  live: number;
  ended: boolean;
}

/** A stream of a watched body, and how many of its bytes the page has read. */
export interface Entry {
  feed: Feed;
  offset: number;
  retired: boolean;
}

/** What the hooks of the stream built-ins share (bodyReaders.ts, bodyPipes.ts, bodyMethods.ts). */
export interface WatchState {
  win: Window & typeof globalThis;
  N: Natives;
  wrap: Wrap;
  /** Watched responses (their body methods and `clone()` are seen). */
  responses: WeakMap<object, true>;
  /** The live entry of a watched stream, if `stream` is one. */
  entryOf(stream: unknown): Entry | undefined;
  /** Watches another stream of the same body (a branch), starting at `offset` bytes. */
  track(stream: object, feed: Feed, offset: number): void;
  /** A stream the page can no longer read (it was teed or cloned). */
  retire(entry: Entry): void;
  /** The page cancelled this stream: the record ends once every branch is cancelled. */
  cancelled(entry: Entry): void;
  /** Hands the bytes of `chunk` the sink has not had yet (another branch may have delivered them). */
  observe(entry: Entry, chunk: unknown): void;
  observeText(entry: Entry, text: string): void;
  finish(feed: Feed, how: "done" | "cancel" | "error", error?: unknown): void;
  /**
   * The page's promise for a read (`{ value, done }`) of a watched stream: the browser's, seen first. `owner` is the
   * reader or iterator, still in `map` unless the page released it meanwhile.
   */
  derive(promise: Promise<unknown>, entry: Entry, owner: object, map: WeakMap<object, unknown>): Promise<unknown>;
  /** A locked stream, or not a stream: what makes `cancel()` and `pipeTo()` reject at once. */
  lockedOrNot(stream: unknown): boolean;
}
