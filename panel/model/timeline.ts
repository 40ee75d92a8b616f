import type { Flow } from "../../src/engine/index.ts";
import { flowEnd, viaText } from "./flowFacts.ts";

/** Height of a row of spans, in pixels; a lane is its rows and a gap. */
export const ROW_H = 14;
const LANE_GAP = 6;
const MAX_ROWS = 8;
/** Spans drawn at most; beyond that the narrowest go (they are under a pixel anyway). */
const MAX_SPANS = 1500;

export interface Placed {
  flow: Flow;
  /** Position in the store's flow list (the filter's answer is kept by position). */
  index: number;
  row: number;
  end: number;
}
export interface Lane {
  server: string;
  /** Which wire: `agent → ` for an agent backend's flows (mcp-elicit proxy), `page ← ` for asks an app relayed. */
  wire: string;
  /** What its first flow went through (a proxy, a host backend), for the lane's tooltip. */
  via: string | null;
  rows: number;
  placed: Placed[];
}

/** What is drawn: one flow's span, or a cluster of flows too close to tell apart at this zoom. */
export interface Mark {
  p: Placed;
  top: number;
  left: number;
  right: number;
  count: number;
  start: number;
  end: number;
}

/**
 * A lane per server, each flow in the first of the lane's rows that is free at its start (at most MAX_ROWS; past
 * them, the row that frees first), and the time the flows cover. Pending flows end at `now`.
 */
export function layOut(flows: readonly Flow[], now: number): { lanes: Lane[]; min: number; max: number } {
  const lanes = new Map<string, Lane & { ends: number[] }>();
  let min = Infinity;
  let max = -Infinity;
  for (let index = 0; index < flows.length; index++) {
    const flow = flows[index]!;
    const end = flowEnd(flow, now);
    if (flow.startedAt < min) min = flow.startedAt;
    if (end > max) max = end;
    // An agent backend's flows (mcp-elicit proxy) have a lane of their own, apart from the page's flows to the same server.
    const wire = flow.source === "backend" ? "agent → " : flow.kind === "relay" ? "page ← " : "";
    let lane = lanes.get(wire + flow.server);
    if (!lane)
      lanes.set(
        wire + flow.server,
        (lane = { server: flow.server, wire, via: viaText(flow), rows: 0, placed: [], ends: [] }),
      );
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
}

/**
 * Only what can be seen in the window `span` at `px` pixels per millisecond: spans in the window whose flows
 * `visible` keeps, and in each row, flows whose pixels touch merged into one cluster (10k flows across a few hundred
 * pixels would otherwise be thousands of elements). At most MAX_SPANS, the widest; the selected flow's span is
 * always drawn, even inside a cluster. Also each lane's top and the height of all lanes.
 */
export function marksIn(
  lanes: readonly Lane[],
  span: { start: number; end: number },
  px: number,
  visible: (index: number) => boolean,
  selected: string | null,
): { marks: Mark[]; laneTops: number[]; height: number } {
  const x = (t: number) => (t - span.start) * px;
  const marks: Mark[] = [];
  let laneTop = 0;
  const laneTops: number[] = [];
  let selectedMark: Mark | undefined;
  for (const lane of lanes) {
    laneTops.push(laneTop);
    const open: (Mark | undefined)[] = [];
    for (const p of lane.placed) {
      if (p.end < span.start || p.flow.startedAt > span.end || !visible(p.index)) continue;
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
    laneTop += lane.rows * ROW_H + LANE_GAP;
  }
  if (marks.length > MAX_SPANS) {
    marks.sort((a, b) => b.right - b.left - (a.right - a.left));
    marks.length = MAX_SPANS;
  }
  if (selectedMark && !marks.some((m) => m.count === 1 && m.p === selectedMark!.p)) marks.push(selectedMark);
  return { marks, laneTops, height: laneTop };
}

/** The axis's ticks over `start`..`end` for `width` pixels: about one per 90 pixels, at 1, 2 or 5 × 10ⁿ ms from `origin`. */
export function axisTicks(start: number, end: number, origin: number, width: number): number[] {
  const raw = (end - start) / Math.max(1, width / 90);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil((start - origin) / step) * step + origin; t <= end && ticks.length < 50; t += step)
    ticks.push(t);
  return ticks;
}
