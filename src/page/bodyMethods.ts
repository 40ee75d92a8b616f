import type { Entry, WatchState } from "./bodyTypes.ts";
import {
  PromisePrototypeThen,
  ReflectApply,
  Uint8ArrayCtor,
  WeakMapPrototypeHas,
  WeakMapPrototypeSet,
} from "./primordials.ts";

/**
 * The Response methods that read a watched body whole (`text()`, `arrayBuffer()`, `bytes()`, `blob()`: the result
 * is seen before the page gets it), and `clone()`, after which both bodies are watched (bodyWatch.ts). `json()` and
 * `formData()` are left alone: an event stream is neither.
 */
export function hookBodyMethods(state: WatchState): void {
  const { N, wrap } = state;
  const RP = state.win.Response.prototype;

  /**
   * Whether a body method will reject at once (not a Response, or its body used or locked): the browser then makes
   * its error under our trap, so the page gets it through `wrap.rejecting`, stripped.
   */
  const unreadable = (response: unknown): boolean => {
    try {
      const body = N.responseBody(response);
      return N.responseBodyUsed(response) || (body !== null && N.streamLocked(body));
    } catch {
      return true;
    }
  };
  const watchedEntry = (response: unknown): Entry | undefined =>
    response !== null && typeof response === "object" && WeakMapPrototypeHas(state.responses, response)
      ? state.entryOf(N.responseBody(response))
      : undefined;

  const whole = (key: string, seen: (entry: Entry, value: unknown) => void): void => {
    wrap.method(RP, key, (target, self, args) => {
      if (unreadable(self)) return wrap.rejecting(target, self, args);
      const entry = watchedEntry(self);
      const promise = ReflectApply(target, self, args) as Promise<unknown>;
      if (!entry) return promise;
      return PromisePrototypeThen(
        promise,
        (value) => {
          try {
            seen(entry, value);
          } catch {
            // Never into the page.
          }
          return value;
        },
        (error) => {
          state.finish(entry.feed, "error", error);
          throw wrap.strip(error);
        },
      );
    });
  };
  const done = (entry: Entry, bytes: unknown): void => {
    state.observe(entry, bytes);
    state.finish(entry.feed, "done");
  };
  whole("text", (entry, text) => {
    state.observeText(entry, text as string);
    state.finish(entry.feed, "done");
  });
  whole("arrayBuffer", (entry, buffer) => done(entry, new Uint8ArrayCtor(buffer as ArrayBuffer)));
  whole("bytes", done);
  whole("blob", (entry, blob) => {
    const text = (value: string): void => {
      state.observeText(entry, value);
      state.finish(entry.feed, "done");
    };
    PromisePrototypeThen(N.blobText(blob as Blob), text, () => state.finish(entry.feed, "done"));
  });

  wrap.method(RP, "clone", (target, self, args) => {
    const entry = watchedEntry(self);
    const before = entry ? N.responseBody(self) : null;
    const copy = wrap.invoke(target, self, args) as Response;
    if (entry) {
      const after = N.responseBody(self);
      const other = N.responseBody(copy);
      if (after && other && after !== before) {
        state.track(after, entry.feed, entry.offset);
        state.track(other, entry.feed, entry.offset);
        state.retire(entry);
        WeakMapPrototypeSet(state.responses, copy, true);
      }
    }
    return copy;
  });
}
