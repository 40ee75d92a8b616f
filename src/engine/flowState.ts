import type { Flow } from "./flow.ts";
import type { MrtrLink } from "./scope.ts";

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

/**
 * The state rides on the flow under a symbol, not enumerable: JSON, Object.keys, spreads, structuredClone
 * and deepStrictEqual do not see it. Maps keyed by flow (one per kind of state, as before) cost an identity
 * hash per flow and tables as large as the capture, grown and rehashed as it went.
 */
const STATE = Symbol("engine flow state");

export function attachState(flow: Flow, phase: FlowState["phase"], since: number): FlowState {
  const state: FlowState = { phase, since, link: undefined, changedAt: -1 };
  Object.defineProperty(flow, STATE, { value: state });
  return state;
}

export const stateOf = (flow: Flow): FlowState => (flow as Flow & { [STATE]: FlowState })[STATE];
