import type { CaptureRecord } from "../record.ts";
import { createStreamPlacer, type HarStream, type StreamPlacer } from "./order.ts";
import type { Held } from "./timeQueue.ts";

/**
 * What the streaming window (horizon.ts) keeps of one endpoint of one page: the engine correlates a message only
 * with messages of its own endpoint and client (its scope, src/engine/scope.ts), and placing SSE events (order.ts)
 * only looks within a scope too, so two lanes never need each other's order. A lane can therefore be settled and
 * let go on its own, and a lane whose records were let go knows how far it got (`handedOn`).
 */
export interface Lane {
  key: string;
  /** Placing state of this lane's scopes; made with the lane's first message. */
  placer: StreamPlacer | undefined;
  /** Its records waiting in the window's queue. */
  held: Set<Held<Lane>>;
  /** Its SSE streams not placed yet. */
  open: HarStream[];
  /** Placed streams kept a while as the context of others (order.ts); GET streams with server requests among them. */
  recent: HarStream[];
  asking: Set<HarStream>;
  /** Exchanges done with, for the placer to forget. */
  done: string[];
  /** The latest time of a record handed on. */
  handedOn: number;
  /** About what the lane holds (bytes): its records, events not placed yet, its own state. */
  cost: number;
  /** Entries read when it last had one (how long it has been idle). */
  touched: number;
}

/** What a lane costs beside its records: its maps and lists. */
export const LANE_COST = 2048;

/** About what a held record costs (bytes): the object, its headers, and its text. */
export const sizeOf = (r: CaptureRecord): number => 400 + (r.kind === "message" ? r.text.length : 0);

/** The lane of a record: its client and its URL without query or fragment (the engine's endpoint). */
export function laneKey(r: CaptureRecord): string {
  const url = r.url ?? "";
  const cut = url.search(/[?#]/);
  return `${r.client ?? ""}\u0000${cut < 0 ? url : url.slice(0, cut)}`;
}

export function createLane(key: string, handedOn: number): Lane {
  return {
    key,
    placer: undefined,
    held: new Set(),
    open: [],
    recent: [],
    asking: new Set(),
    done: [],
    handedOn,
    cost: LANE_COST,
    touched: 0,
  };
}

export const placerOf = (lane: Lane): StreamPlacer => (lane.placer ??= createStreamPlacer());
