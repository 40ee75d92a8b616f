import type { Flow } from "./flow.ts";
import type { MrtrLink } from "./model/scope.ts";

/** What the engine keeps about a flow besides the flow itself: never part of its JSON. */
export interface FlowState {
  /** Whose turn it is since `since`: the time until the next transition goes to the server or the user. */
  phase: "server" | "user" | null;
  since: number;
  /** MRTR: the latest InputRequiredResult of the flow, the one a retry must answer. */
  link: MrtrLink | undefined;
  /** The engine push that last put the flow in a delta (-1: none yet). */
  changedAt: number;
}

/** Each flow's state, beside it: the flow itself stays the plain object its JSON shows. */
const states = new WeakMap<Flow, FlowState>();

export function attachState(flow: Flow, phase: FlowState["phase"], since: number): FlowState {
  const state: FlowState = { phase, since, link: undefined, changedAt: -1 };
  states.set(flow, state);
  return state;
}

export const stateOf = (flow: Flow): FlowState => states.get(flow)!;
