import { useSignal, useSignalEffect, type ReadonlySignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";

/**
 * A signal that follows `source`, at most once per `ms` (the first change at once, the last one always): a view that
 * costs a layout follows a stream of changes (a large import, a busy tab) at its own pace.
 */
export function useThrottled<T>(source: ReadonlySignal<T>, ms: number): ReadonlySignal<T> {
  const out = useSignal(source.peek());
  const state = useRef({ last: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined });
  useSignalEffect(() => {
    const value = source.value;
    const s = state.current;
    const wait = s.last + ms - performance.now();
    if (wait <= 0 && s.timer === undefined) {
      s.last = performance.now();
      out.value = value;
    } else
      s.timer ??= setTimeout(
        () => {
          s.timer = undefined;
          s.last = performance.now();
          out.value = source.peek();
        },
        Math.max(0, wait),
      );
  });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return out;
}
