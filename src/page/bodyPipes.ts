import type { Entry, WatchState } from "./bodyTypes.ts";
import { PromisePrototypeThen, ReflectApply, uncurry } from "./primordials.ts";

/**
 * `pipeTo()` and `pipeThrough()` of a watched body (bodyWatch.ts), the SDK clients' way in
 * (`body.pipeThrough(new TextDecoderStream())`): the browser pipes internally, so the tap puts a pass-through
 * TransformStream between the body and the page's destination and sees the chunks that cross it. One more chunk may
 * be buffered; cancel, abort and errors propagate through it; its `flush` ends the record before the page's side
 * sees the end. With options the page's pipe is left alone (`preventCancel` would mean something else through a
 * pass-through): not recorded.
 */
export function hookPipes(state: WatchState): void {
  const { N, wrap, entryOf } = state;
  const enqueue = uncurry(state.win.TransformStreamDefaultController.prototype.enqueue) as (
    controller: TransformStreamDefaultController,
    chunk: unknown,
  ) => void;

  /** The pass-through; `start` pipes the body into it once the page's side is set up. */
  const passThrough = (entry: Entry) => {
    const transform = new N.TransformStream({
      __proto__: null,
      transform(chunk: unknown, controller: TransformStreamDefaultController) {
        try {
          state.observe(entry, chunk);
        } catch {
          // Never into the page.
        }
        enqueue(controller, chunk);
      },
      flush() {
        state.finish(entry.feed, "done");
      },
    } as Transformer);
    return {
      readable: N.transformReadable(transform),
      start(source: unknown): void {
        const pipe = N.pipeTo(source as ReadableStream, N.transformWritable(transform));
        PromisePrototypeThen(pipe, undefined, (error) => state.finish(entry.feed, "error", error));
      },
    };
  };
  const noOptions = (args: unknown[]): boolean => args.length <= 1 || args[1] === undefined;
  const isUnlockedWritable = (dest: unknown): boolean => {
    try {
      return N.writableLocked?.(dest) === false;
    } catch {
      return false;
    }
  };

  wrap.method(N.streamProto, "pipeThrough", (target, self, args) => {
    const entry = entryOf(self);
    if (!entry || !noOptions(args) || state.lockedOrNot(self)) return wrap.invoke(target, self, args);
    const through = passThrough(entry);
    const result = wrap.invoke(target, through.readable, args);
    through.start(self);
    return result;
  });

  wrap.method(N.streamProto, "pipeTo", (target, self, args) => {
    if (state.lockedOrNot(self) || !isUnlockedWritable(args[0])) return wrap.rejecting(target, self, args);
    const entry = entryOf(self);
    if (!entry || !noOptions(args)) return ReflectApply(target, self, args);
    const through = passThrough(entry);
    const result = ReflectApply(target, through.readable, args);
    through.start(self);
    return result;
  });
}
