import { useComputed, useSignal, type ReadonlySignal } from "@preact/signals";
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import { laneLabel } from "../model/flowFacts.ts";
import { axisTicks, layOut, marksIn, ROW_H } from "../model/timeline.ts";
import type { FlowStore } from "../state/store.ts";
import { duration, escapeInvisible } from "../model/text.ts";
import { TimelineMark } from "./TimelineMark.tsx";
import { useThrottled } from "./useThrottled.ts";

/** The layout follows a stream of changes (a large import, a busy tab) at most this often; the list at once. */
const LAYOUT_MS = 300;

/** A view window over time, or "fit": follow the whole capture as it grows. */
type Window = { fit: true } | { fit: false; start: number; end: number };

/**
 * A lane per server; each flow a span from its first request to its end (pending flows grow with the clock), its
 * rounds as server segments and the time it waited on the user drawn apart (hatched). Wheel or +/- zooms around
 * the pointer, drag or arrow keys pan, 0 fits; clicking a span selects its flow.
 */
export const Timeline = memo(function Timeline({
  store,
  now: clock,
}: {
  store: FlowStore;
  now: ReadonlySignal<number>;
}) {
  // A file's clock is its last record, which moves with every slice of an import: laid out at the layout's pace.
  const now = useThrottled(clock, LAYOUT_MS);
  const box = useRef<HTMLDivElement>(null);
  const width = useSignal(600);
  const win = useSignal<Window>({ fit: true });
  const drag = useRef<{ x: number; start: number; end: number } | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => (width.value = Math.max(100, el.clientWidth));
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : undefined;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  // Placed over every flow, not only the filtered ones: spans keep their place while the filter changes, and a
  // keystroke costs no re-layout.
  const laidOut = useThrottled(store.flows, LAYOUT_MS);
  // Lanes and tooltips name each flow's server as its other views do: masked unless the flow is revealed.
  const layout = useComputed(() => {
    void store.revealed.value;
    return layOut(
      laidOut.value.map((f) => store.view(f).flow),
      now.value,
    );
  });
  // The filter decides which spans show: at once after a pause, at most every LAYOUT_MS while flows stream in.
  void useThrottled(store.visibleFlows, LAYOUT_MS).value;
  const { lanes, min, max } = layout.value;
  const w = win.value;
  const span = w.fit
    ? { start: min - (max - min) * 0.01, end: max + (max - min) * 0.01 }
    : { start: w.start, end: w.end };
  const px = width.value / Math.max(1e-6, span.end - span.start);
  const x = (t: number) => (t - span.start) * px;

  const zoom = (factor: number, at = width.value / 2) => {
    const t = span.start + at / px;
    const len = Math.max(0.5, (span.end - span.start) * factor);
    const start = t - (at / width.value) * len;
    win.value = { fit: false, start, end: start + len };
  };
  const pan = (dx: number) => {
    const dt = dx / px;
    win.value = { fit: false, start: span.start + dt, end: span.end + dt };
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const step = width.value / 10;
    const map: Record<string, () => void> = {
      "+": () => zoom(0.5),
      "=": () => zoom(0.5),
      "-": () => zoom(2),
      "0": () => (win.value = { fit: true }),
      ArrowLeft: () => pan(-step),
      ArrowRight: () => pan(step),
    };
    const act = map[event.key];
    if (!act || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    act();
  };

  const selected = store.selectedFlowId.value;
  // Only what can be seen; a click on a cluster zooms in.
  const { marks, laneTops, height } = marksIn(lanes, span, px, store.isVisibleAt, selected);

  if (lanes.length === 0)
    return (
      <p class="empty timeline-empty">The timeline draws each flow as a span per server lane once flows arrive.</p>
    );

  return (
    <div class="timeline" role="group" aria-label="Timeline">
      <div class="tl-bar">
        <button type="button" onClick={() => zoom(0.5)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoom(2)} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={() => (win.value = { fit: true })} aria-pressed={w.fit} aria-label="Fit">
          Fit
        </button>
        <span class="tl-range">
          {duration(span.end - span.start)} shown · <span class="key server">server</span>{" "}
          <span class="key user">user</span>
        </span>
      </div>
      <div class="tl-body">
        <div class="tl-lanes" aria-hidden="true">
          {lanes.map((lane, i) => (
            <div
              key={lane.wire + lane.server}
              class="tl-lane-label"
              style={{ top: `${laneTops[i]! + 14}px`, height: `${lane.rows * ROW_H}px` }}
              title={`${lane.wire}${escapeInvisible(lane.server)}${lane.via ? `\n${lane.via}` : ""}`}
            >
              {lane.wire}
              {laneLabel(lane.server)}
            </div>
          ))}
        </div>
        <div
          ref={box}
          class="tl-canvas"
          tabIndex={0}
          aria-label="Timeline: + and - zoom, arrows pan, 0 fits"
          onKeyDown={onKeyDown}
          onWheel={(e) => {
            e.preventDefault();
            const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
            if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan(e.shiftKey ? e.deltaY : e.deltaX);
            else zoom(e.deltaY > 0 ? 1.25 : 0.8, e.clientX - rect.left);
          }}
          onPointerDown={(e) => {
            if ((e.target as HTMLElement).closest("[data-span]")) return;
            drag.current = { x: e.clientX, start: span.start, end: span.end };
            (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
          }}
          onPointerMove={(e) => {
            const d = drag.current;
            if (!d) return;
            const dt = (d.x - e.clientX) / px;
            win.value = { fit: false, start: d.start + dt, end: d.end + dt };
          }}
          onPointerUp={() => (drag.current = null)}
        >
          <Axis start={span.start} end={span.end} origin={min} width={width.value} />
          <div class="tl-spans" style={{ height: `${height}px` }}>
            {marks.map((m) => (
              <TimelineMark
                key={m.count > 1 ? `c:${m.p.flow.id}` : m.p.flow.id}
                mark={m}
                x={x}
                px={px}
                now={now.value}
                selected={m.p.flow.id === selected}
                onZoom={(start, end) => (win.value = { fit: false, start, end })}
                onSelect={store.select}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
});

function Axis({ start, end, origin, width }: { start: number; end: number; origin: number; width: number }) {
  const len = end - start;
  return (
    <div class="tl-axis" aria-hidden="true">
      {axisTicks(start, end, origin, width).map((t) => (
        <span key={t} class="tick" style={{ left: `${((t - start) / len) * width}px` }}>
          +{duration(t - origin)}
        </span>
      ))}
    </div>
  );
}
