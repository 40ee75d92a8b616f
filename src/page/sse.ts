import type { Natives } from "./natives.ts";
import { failure } from "./mcp.ts";
import {
  append,
  PromiseCtor,
  PromisePrototypeThen,
  PromiseResolve,
  StringPrototypeCharCodeAt,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
} from "./primordials.ts";

export interface SseEventSeen {
  data: string;
  id?: string;
  event?: string;
}

const LF = 10;
const COLON = 58;
const SPACE = 32;

/**
 * A `text/event-stream` splitter (HTML §9.2.6 "Interpreting an event stream") written on the captured built-ins,
 * for text that arrives in pieces. It yields what eventsource-parser (the SDK clients' parser, which the recorder
 * and the HAR importer use) yields: lines end at CRLF, LF or CR (also split across pieces); `data` lines are
 * joined with "\n"; a blank line dispatches the event when it had a `data` line; `id` (without NUL) and `event`
 * belong to the one event; comments, `retry` and unknown fields are ignored. The decoder already dropped a BOM.
 */
export function createSseSplitter(onEvent: (event: SseEventSeen) => void): (text: string) => void {
  /** Pieces of a line that has not ended yet (joined once it does: no quadratic rescans of a long line). */
  let pending: string[] = [];
  /** The previous piece ended with CR: a leading LF of the next one belongs to it. */
  let skipLf = false;
  let id: string | undefined;
  let event: string | undefined;
  let data = "";
  let dataLines = 0;

  const dispatch = (): void => {
    if (dataLines > 0) onEvent({ data, ...(id !== undefined && { id }), ...(event !== undefined && { event }) });
    id = undefined;
    event = undefined;
    data = "";
    dataLines = 0;
  };

  const line = (text: string, start: number, end: number): void => {
    if (start === end) return dispatch();
    if (StringPrototypeCharCodeAt(text, start) === COLON) return; // a comment
    let colon = StringPrototypeIndexOf(text, ":", start);
    if (colon === -1 || colon > end) colon = end;
    const field = StringPrototypeSlice(text, start, colon);
    let from = colon + 1;
    if (from < end && StringPrototypeCharCodeAt(text, from) === SPACE) from++;
    const value = from >= end ? "" : StringPrototypeSlice(text, from, end);
    if (field === "data") {
      data = dataLines === 0 ? value : `${data}\n${value}`;
      dataLines++;
    } else if (field === "event") event = value === "" ? undefined : value;
    else if (field === "id" && StringPrototypeIndexOf(value, "\0") === -1) id = value;
  };

  return (piece) => {
    if (skipLf) {
      skipLf = false;
      if (StringPrototypeCharCodeAt(piece, 0) === LF) piece = StringPrototypeSlice(piece, 1);
    }
    if (piece === "") return;
    let cr = StringPrototypeIndexOf(piece, "\r");
    let lf = StringPrototypeIndexOf(piece, "\n");
    if (cr === -1 && lf === -1) return append(pending, piece);
    let text = piece;
    if (pending.length > 0) {
      let joined = "";
      for (let i = 0; i < pending.length; i++) joined += pending[i];
      const shift = joined.length;
      text = joined + piece;
      pending = [];
      cr = cr === -1 ? -1 : cr + shift;
      lf = lf === -1 ? -1 : lf + shift;
    }
    let start = 0;
    for (;;) {
      if (cr !== -1 && cr < start) cr = StringPrototypeIndexOf(text, "\r", start);
      if (lf !== -1 && lf < start) lf = StringPrototypeIndexOf(text, "\n", start);
      const end = cr === -1 ? lf : lf === -1 ? cr : cr < lf ? cr : lf;
      if (end === -1) break;
      line(text, start, end);
      start = end + 1;
      if (end === cr) {
        if (start === text.length) skipLf = true;
        else if (StringPrototypeCharCodeAt(text, start) === LF) start++;
      }
    }
    if (start < text.length) pending = [StringPrototypeSlice(text, start)];
  };
}

/** For streams that grow as text (XHR `responseText`): feeds what is new since the last call. */
export function createTextFeed(onEvent: (event: SseEventSeen) => void): (whole: string) => void {
  const split = createSseSplitter(onEvent);
  let seen = 0;
  return (whole) => {
    if (whole.length <= seen) return;
    split(StringPrototypeSlice(whole, seen));
    seen = whole.length;
  };
}

/**
 * Reads a whole body (the tap's branch of a tee) chunk by chunk. Unlike `text()`, what arrived before a failure
 * is kept: a client that aborts its request right after reading the response (the SDKs' close()) errors the tap's
 * branch too, and the body it read must not be lost (Firefox fails `text()` there).
 */
export function readText(
  N: Natives,
  body: ReadableStream<Uint8Array> | null,
): Promise<{ text: string; error?: string }> {
  // Results without a prototype: resolving a promise with an object reads its `then`, which a page may have put
  // on Object.prototype.
  if (!body) return PromiseResolve({ __proto__: null, text: "" } as { text: string });
  const decoder = new N.TextDecoder();
  const stream = { __proto__: null, stream: true } as TextDecodeOptions;
  let text = "";
  const failed = (error: unknown) =>
    ({ __proto__: null, text: text + N.decode(decoder), error: failure(N, error) }) as { text: string; error?: string };
  // Chained by hand, not awaited: `await` reads a promise's `constructor`, which a page may have made a getter.
  return new PromiseCtor((resolve) => {
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      reader = N.getReader(body);
    } catch (error) {
      return resolve(failed(error));
    }
    const next = (): void => {
      PromisePrototypeThen(
        N.read(reader),
        (result) => {
          try {
            if (result.done) return resolve({ __proto__: null, text: text + N.decode(decoder) } as { text: string });
            text += N.decode(decoder, result.value, stream);
            next();
          } catch (error) {
            resolve(failed(error));
          }
        },
        (error) => resolve(failed(error)),
      );
    };
    next();
  });
}
