import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Elicitation, Flow } from "../../src/engine/index.ts";
import { atPointer, parseJson } from "./json.ts";
import { shown } from "./text.ts";

/**
 * How one question ended, as the flow list's Outcome column says it: the user's action (`accept`, `decline`,
 * `cancel`), `error -32601` when the client answered with a JSON-RPC error instead of asking anyone (use-mcp),
 * `completed` for a -32042 entry (no answer travels on the wire, only its completion), `waiting` while the flow is
 * open, `no answer` once it ended without one.
 */
export type Outcome =
  | { kind: "action"; action: string; text: string }
  | { kind: "error"; code: number | undefined; message: string | undefined; text: string }
  | { kind: "completed" | "waiting" | "none"; text: string };

/** The answer record of an error answer, for its code (the engine keeps only where the error is). */
export type RecordOf = (seq: number) => CaptureRecord | undefined;

/** An error answer: the engine points at the `error` member of the client's response. */
export const isErrorAnswer = (e: Elicitation): boolean =>
  e.action === null && e.answerPointer !== undefined && e.answerPointer.endsWith("/error");

const errors = new WeakMap<CaptureRecord, Map<string, { code: number | undefined; message: string | undefined }>>();

function errorOf(
  record: CaptureRecord | undefined,
  pointer: string,
): { code: number | undefined; message: string | undefined } {
  if (record?.kind !== "message") return { code: undefined, message: undefined };
  let known = errors.get(record);
  if (!known) errors.set(record, (known = new Map()));
  let hit = known.get(pointer);
  if (!hit) {
    const parsed = parseJson(record.text);
    const error = parsed.ok ? atPointer(parsed.value, pointer) : undefined;
    const e = typeof error === "object" && error !== null ? (error as { code?: unknown; message?: unknown }) : {};
    hit = {
      code: typeof e.code === "number" ? e.code : undefined,
      message: typeof e.message === "string" ? e.message : undefined,
    };
    known.set(pointer, hit);
  }
  return hit;
}

export function outcomeOf(e: Elicitation, flow: Flow, record: RecordOf): Outcome {
  if (e.action !== null) return { kind: "action", action: e.action, text: shown(e.action, 40) };
  if (isErrorAnswer(e)) {
    const { code, message } = errorOf(record(e.answerRecord!), e.answerPointer!);
    return { kind: "error", code, message, text: code === undefined ? "error" : `error ${code}` };
  }
  if (e.completed) return { kind: "completed", text: "completed" };
  return flow.status === "pending" ? { kind: "waiting", text: "waiting" } : { kind: "none", text: "no answer" };
}

/** A CSS class per outcome: the action's own (accept, decline, cancel), else the kind. */
export const outcomeClass = (o: Outcome): string =>
  o.kind === "action" ? `action ${/^[a-z]+$/.test(o.action) ? o.action : "other"}` : `outcome-${o.kind}`;

/**
 * The flow's outcomes in one cell: each question's in order, a run of equal ones counted (`accept ×3`), and the
 * class of the one that matters most (an error, then waiting, then a refusal, then the rest).
 */
export function flowOutcome(flow: Flow, record: RecordOf): { text: string; className: string; all: Outcome[] } {
  const all = flow.elicitations.map((e) => outcomeOf(e, flow, record));
  const parts: string[] = [];
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j]!.text === all[i]!.text) j++;
    parts.push(j - i > 1 ? `${all[i]!.text} ×${j - i}` : all[i]!.text);
    i = j;
  }
  const rank = (o: Outcome): number =>
    o.kind === "error" ? 4 : o.kind === "waiting" ? 3 : o.kind === "action" && o.action !== "accept" ? 2 : 1;
  let top: Outcome | undefined;
  for (const o of all) if (!top || rank(o) > rank(top)) top = o;
  return { text: parts.join(", "), className: top ? outcomeClass(top) : "", all };
}
