import type { WatchState } from "./bodyTypes.ts";
import {
  ReflectApply,
  ReflectGetPrototypeOf,
  WeakMapCtor,
  WeakMapPrototypeDelete,
  WeakMapPrototypeGet,
  WeakMapPrototypeHas,
  WeakMapPrototypeSet,
} from "./primordials.ts";

/**
 * The page's reads of a watched body through readers and async iterators (bodyWatch.ts): `getReader()` maps the
 * reader to the body, each `read()` result is seen before the page gets it, `releaseLock()` unmaps it, `cancel()`
 * (reader or stream) and an iterator's `return()` cancel; `tee()` watches both branches. Every other stream goes
 * straight to the browser.
 */
export function hookReaders(state: WatchState): void {
  const { N, wrap, entryOf } = state;
  const readers = new WeakMapCtor<object, unknown>();
  /** Async iterators: their entry, and whether `return()` cancels (no options were given: no `preventCancel`). */
  const iterators = new WeakMapCtor<object, unknown>();
  /** Readers the page released: their `read()` and `cancel()` reject at once (wrap.rejecting strips the error). */
  const released = new WeakMapCtor<object, true>();
  const isObject = (value: unknown): value is object => value !== null && typeof value === "object";
  const isReleased = (reader: unknown): boolean => isObject(reader) && WeakMapPrototypeHas(released, reader);
  const readerEntry = (reader: unknown) =>
    isObject(reader) ? (WeakMapPrototypeGet(readers, reader) as ReturnType<typeof entryOf>) : undefined;

  const RS = N.streamProto;
  wrap.method(RS, "getReader", (target, self, args) => {
    const reader = wrap.invoke(target, self, args) as object;
    const entry = entryOf(self);
    if (entry) WeakMapPrototypeSet(readers, reader, entry);
    return reader;
  });

  const protos = [N.readerProto, N.byobProto];
  for (let i = 0; i < protos.length; i++) {
    wrap.method(protos[i], "read", (target, self, args) => {
      if (isReleased(self)) return wrap.rejecting(target, self, args);
      const entry = readerEntry(self);
      const promise = ReflectApply(target, self, args) as Promise<unknown>;
      return entry && !entry.feed.ended ? state.derive(promise, entry, self as object, readers) : promise;
    });
    wrap.method(protos[i], "releaseLock", (target, self, args) => {
      const result = wrap.invoke(target, self, args);
      if (isObject(self)) {
        WeakMapPrototypeDelete(readers, self);
        WeakMapPrototypeSet(released, self, true);
      }
      return result;
    });
    wrap.method(protos[i], "cancel", (target, self, args) => {
      if (isReleased(self)) return wrap.rejecting(target, self, args);
      const entry = readerEntry(self);
      const result = ReflectApply(target, self, args);
      if (entry && !entry.feed.ended) state.cancelled(entry);
      return result;
    });
  }

  wrap.method(RS, "cancel", (target, self, args) => {
    if (state.lockedOrNot(self)) return wrap.rejecting(target, self, args);
    const entry = entryOf(self);
    const result = ReflectApply(target, self, args);
    if (entry) state.cancelled(entry);
    return result;
  });

  wrap.method(RS, "tee", (target, self, args) => {
    const branches = wrap.invoke(target, self, args) as [ReadableStream, ReadableStream];
    const entry = entryOf(self);
    if (entry) {
      state.track(branches[0], entry.feed, entry.offset);
      state.track(branches[1], entry.feed, entry.offset);
      state.retire(entry);
    }
    return branches;
  });

  // `values` and `@@asyncIterator` are one function: one Proxy for both keys keeps them equal.
  const values = wrap.methods(RS, ["values", Symbol.asyncIterator], (target, self, args) => {
    const iterator = wrap.invoke(target, self, args) as object;
    const entry = entryOf(self);
    if (entry) WeakMapPrototypeSet(iterators, iterator, [entry, args.length === 0 || args[0] === undefined]);
    return iterator;
  });
  if (!values) return;
  type Seen = [NonNullable<ReturnType<typeof entryOf>>, boolean];
  const seenOf = (iterator: unknown): Seen | undefined =>
    isObject(iterator) ? (WeakMapPrototypeGet(iterators, iterator) as Seen | undefined) : undefined;
  const iteratorProto = ReflectGetPrototypeOf(ReflectApply(values, new state.win.ReadableStream(), [])) as object;
  wrap.method(iteratorProto, "next", (target, self, args) => {
    const seen = seenOf(self);
    const promise = ReflectApply(target, self, args) as Promise<unknown>;
    return seen && !seen[0].feed.ended ? state.derive(promise, seen[0], self as object, iterators) : promise;
  });
  wrap.method(iteratorProto, "return", (target, self, args) => {
    const seen = seenOf(self);
    const result = ReflectApply(target, self, args);
    if (seen) {
      WeakMapPrototypeDelete(iterators, self as object);
      if (seen[1] && !seen[0].feed.ended) state.cancelled(seen[0]);
    }
    return result;
  });
}
