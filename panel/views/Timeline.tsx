import { useComputed, useSignal, useSignalEffect, type ReadonlySignal } from "@preact/signals";
import { memo } from "preact/compat";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Flow } from "../../src/engine/index.ts";
import { flowEnd, laneLabel, userIntervals, viaText } from "../model/flowFacts.ts";
import type { FlowStore } from "../state/store.ts";
import { duration, escapeInvisible, shown } from "../model/text.ts";

const ROW_H = 14;
/** The layout follows a stream of changes (a large import, a busy tab) at most this often; the list at once. */
const LAYOUT_MS = 300;
const MAX_ROWS = 8;
/** Spans drawn at most; beyond that the narrowest go (they are under a pixel anyway). */
const MAX_SPANS = 1500;

interface Placed {
  flow: Flow;
  /** Position in the store's flow list (the filter's answer is kept by position). */
  index: number;
  row: number;
  end: number;
}
interface Lane {
  server: string;
  /** What its first flow went through (a proxy, a host backend), for the lane's tooltip. */
  via: string | null;
  rows: number;
  placed: Placed[];
}

/** What is drawn: one flow's span, or a cluster of flows too close to tell apart at this zoom. */
interface Mark {
  p: Placed;
  top: number;
  left: number;
  right: number;
  count: number;
  start: number;
  end: number;
}

/** A view window over time, or "fit": follow the whole capture as it grows. */
type Window = { fit: true } | { fit: false; start: number; end: number };

/**
 * A lane per server; each flow a span from its first request to its end (pending flows grow with the clock), its
 * rounds as server segments and the time it waited on the user drawn apart (hatched). Wheel or +/- zooms around
 * the pointer, drag or arrow keys pan, 0 fits; clicking a span selects its flow.
 */
export const Timeline = memo(function Timeline({ store, now: clock }: { store: FlowStore; now: ReadonlySignal<number> }) {
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
  const layout = useComputed(() => {
    const flows = laidOut.value;
    const t = now.value;
    const lanes = new Map<string, Lane & { ends: number[] }>();
    let min = Infinity;
    let max = -Infinity;
    for (let index = 0; index < flows.length; index++) {
      const flow = flows[index]!;
      const end = flowEnd(flow, t);
      if (flow.startedAt < min) min = flow.startedAt;
      if (end > max) max = end;
      let lane = lanes.get(flow.server);
      if (!lane) lanes.set(flow.server, (lane = { server: flow.server, via: viaText(flow), rows: 0, placed: [], ends: [] }));
      const ends = lane.ends;
      let row = -1;
      for (let r = 0; r < ends.length; r++) {
        if (ends[r]! <= flow.startedAt) {
          row = r;
          break;
        }
      }
      if (row < 0 && ends.length < MAX_ROWS) row = ends.length;
      if (row < 0) {
        row = 0;
        for (let r = 1; r < ends.length; r++) if (ends[r]! < ends[row]!) row = r;
      }
      ends[row] = Math.max(ends[row] ?? -Infinity, end);
      if (row + 1 > lane.rows) lane.rows = row + 1;
      lane.placed.push({ flow, index, row, end });
    }
    if (max - min < 1) max = min + 1;
    return { lanes: [...lanes.values()], min, max };
  });
  // The filter decides which spans show: at once after a pause, at most every LAYOUT_MS while flows stream in.
  void useThrottled(store.visibleFlows, LAYOUT_MS).value;
  const { lanes, min, max } = layout.value;
  const w = win.value;
  const span = w.fit ? { start: min - (max - min) * 0.01, end: max + (max - min) * 0.01 } : { start: w.start, end: w.end };
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
  // Only what can be seen: spans in the window, and in each row, flows whose pixels touch merged into one cluster
  // (10k flows across a few hundred pixels would otherwise be thousands of elements); a click on a cluster zooms in.
  const marks: Mark[] = [];
  let laneTop = 0;
  const laneTops: number[] = [];
  let selectedMark: Mark | undefined;
  for (const lane of lanes) {
    laneTops.push(laneTop);
    const open: (Mark | undefined)[] = [];
    for (const p of lane.placed) {
      if (p.end < span.start || p.flow.startedAt > span.end || !store.isVisibleAt(p.index)) continue;
      const left = x(p.flow.startedAt);
      const right = Math.max(left + 2, x(p.end));
      const top = laneTop + p.row * ROW_H;
      if (p.flow.id === selected) selectedMark = { p, top, left, right, count: 1, start: p.flow.startedAt, end: p.end };
      const c = open[p.row];
      if (c && left <= c.right + 0.5) {
        c.right = Math.max(c.right, right);
        c.end = Math.max(c.end, p.end);
        c.count++;
        continue;
      }
      if (c) marks.push(c);
      open[p.row] = { p, top, left, right, count: 1, start: p.flow.startedAt, end: p.end };
    }
    for (const c of open) if (c) marks.push(c);
    laneTop += lane.rows * ROW_H + 6;
  }
  if (marks.length > MAX_SPANS) {
    marks.sort((a, b) => b.right - b.left - (a.right - a.left));
    marks.length = MAX_SPANS;
  }
  // The selection stands out even inside a cluster.
  if (selectedMark && !marks.some((m) => m.count === 1 && m.p === selectedMark!.p)) marks.push(selectedMark);

  if (lanes.length === 0) return <p class="empty timeline-empty">The timeline draws each flow as a span per server lane once flows arrive.</p>;

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
          {duration(span.end - span.start)} shown · <span class="key server">server</span> <span class="key user">user</span>
        </span>
      </div>
      <div class="tl-body">
        <div class="tl-lanes" aria-hidden="true">
          {lanes.map((lane, i) => (
            <div key={lane.server} class="tl-lane-label" style={{ top: `${laneTops[i]! + 14}px`, height: `${lane.rows * ROW_H}px` }} title={lane.via ? `${escapeInvisible(lane.server)}\n${lane.via}` : escapeInvisible(lane.server)}>
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
          <div class="tl-spans" style={{ height: `${laneTop}px` }}>
            {marks.map((m) => {
              const wpx = m.right - m.left;
              if (m.count > 1)
                return (
                  <div
                    key={`c:${m.p.flow.id}`}
                    class="tl-cluster"
                    style={{ left: `${m.left}px`, width: `${wpx}px`, top: `${m.top}px` }}
                    title={`${m.count} flows — click to zoom in`}
                    onClick={() => {
                      const pad = (m.end - m.start) * 0.05 + 1;
                      win.value = { fit: false, start: m.start - pad, end: m.end + pad };
                    }}
                  />
                );
              const f = m.p.flow;
              const detailed = wpx >= 6;
              return (
                <div
                  key={f.id}
                  data-span={f.id}
                  class={`tl-span ${f.status}${f.id === selected ? " selected" : ""}`}
                  style={{ left: `${m.left}px`, width: `${wpx}px`, top: `${m.top}px` }}
                  title={`${f.id} ${shown(f.method, 60)} ${shown(f.target ?? "", 80)}: ${f.status}, user ${duration(f.userMs)}, server ${duration(f.serverMs)}`}
                  onClick={() => store.select(f.id)}
                >
                  {detailed &&
                    f.rounds.map((r) => {
                      const end = r.answeredAt ?? (f.status === "pending" ? now.value : r.sentAt);
                      return <span key={`r${r.index}`} class="seg server" style={{ left: `${x(r.sentAt) - m.left}px`, width: `${Math.max(1, (end - r.sentAt) * px)}px` }} />;
                    })}
                  {detailed &&
                    userIntervals(f, now.value).map((u, i) => (
                      <span key={`u${i}`} class="seg user" style={{ left: `${x(u.start) - m.left}px`, width: `${Math.max(1, (u.end - u.start) * px)}px` }} />
                    ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
});

/** A signal that follows `source`, at most once per `ms` (the first change at once, the last one always). */
function useThrottled<T>(source: ReadonlySignal<T>, ms: number): ReadonlySignal<T> {
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
      s.timer ??= setTimeout(() => {
        s.timer = undefined;
        s.last = performance.now();
        out.value = source.peek();
      }, Math.max(0, wait));
  });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return out;
}

function Axis({ start, end, origin, width }: { start: number; end: number; origin: number; width: number }) {
  const len = end - start;
  const raw = len / Math.max(1, width / 90);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil((start - origin) / step) * step + origin; t <= end && ticks.length < 50; t += step) ticks.push(t);
  return (
    <div class="tl-axis" aria-hidden="true">
      {ticks.map((t) => (
        <span key={t} class="tick" style={{ left: `${((t - start) / len) * width}px` }}>
          +{duration(t - origin)}
        </span>
      ))}
    </div>
  );
}
