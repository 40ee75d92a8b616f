import type { Flow } from "../../src/engine/index.ts";
import type { RelayFault } from "./faults.ts";
import type { Turn } from "./scenario.ts";

/** An agent under test: faithful, or making one relay fault. */
export type Route = "faithful" | RelayFault;

/** A flow as the tests compare it: the tool called and the elicitations' actions in order. */
export interface Outcome {
  target: string;
  actions: (string | null)[];
}

/** The tool calls among the engine's flows, with their outcomes. */
export function backendOutcomes(flows: readonly Flow[]): Outcome[] {
  return flows
    .filter((f) => f.method === "tools/call")
    .map((f) => ({ target: f.target ?? "", actions: f.elicitations.map((e) => e.action) }));
}

/**
 * What each server says it was answered, from its own tool result as the page showed it (`confirm: decline`,
 * `registered: accept {…}`, `sign-in: linked` after an accepted URL): the witness the backend flows are held to.
 */
export function expectedOutcomes(turns: readonly Turn[], said: readonly string[]): Outcome[] {
  return turns.map((turn, i) => {
    const text = said[i] ?? "";
    const action = /sign-in: linked$/.test(text) ? "accept" : /: (accept|decline|cancel)\b/.exec(text)?.[1];
    if (!action) throw new Error(`turn ${i + 1}: the server's result names no action: ${text}`);
    return { target: turn.tool, actions: [action] };
  });
}
