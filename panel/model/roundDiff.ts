import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Flow, Round } from "../../src/engine/index.ts";
import { parseJson } from "./json.ts";
import { isObject } from "../../src/util/json.ts";

/** One difference between two rounds' requests. */
export interface Change {
  pointer: string;
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

export type Echo =
  | { kind: "exact" }
  | { kind: "none" } // the server sent no requestState and none came back
  | { kind: "missing"; sent: unknown } // the server sent one; the retry did not carry it
  | { kind: "unsolicited"; echoed: unknown } // the retry carries a state the server never sent
  | { kind: "changed"; sent: unknown; echoed: unknown };

export interface RoundStep {
  /** The round whose request is compared with the previous round's. */
  round: Round;
  previous: Round;
  changes: Change[];
  echo: Echo;
  /** Keys of inputResponses the retry carried. */
  answered: string[];
  /** False when either request could not be read (not JSON, truncated, missing). */
  readable: boolean;
}

/** The JSON-RPC request a round sent: in a batch, the member with the round's id. */
export function requestOf(
  record: CaptureRecord | undefined,
  id: Round["requestId"],
): Record<string, unknown> | undefined {
  if (record?.kind !== "message") return undefined;
  const parsed = parseJson(record.text);
  if (!parsed.ok) return undefined;
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const found =
    items.find((m) => isObject(m) && typeof m.method === "string" && (id === null || m.id === id)) ??
    items.find((m) => isObject(m) && typeof m.method === "string");
  return isObject(found) ? found : undefined;
}

const token = (part: string | number): string => String(part).replace(/~/g, "~0").replace(/\//g, "~1");

/** A request with what legitimately changes between rounds removed: the JSON-RPC id, inputResponses, requestState. */
function comparable(request: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = request;
  if (isObject(rest.params)) {
    const { inputResponses: _i, requestState: _s, ...params } = rest.params;
    rest.params = params;
  }
  return rest;
}

export function diff(before: unknown, after: unknown, at = "", out: Change[] = []): Change[] {
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      const p = `${at}/${token(key)}`;
      if (!(key in after)) out.push({ pointer: p, kind: "removed", before: before[key] });
      else diff(before[key], after[key], p, out);
    }
    for (const key of Object.keys(after))
      if (!(key in before)) out.push({ pointer: `${at}/${token(key)}`, kind: "added", after: after[key] });
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => diff(item, after[i], `${at}/${i}`, out));
    return out;
  }
  if (!same(before, after)) out.push({ pointer: at, kind: "changed", before, after });
  return out;
}

/** Deep equality with member order ignored (JSON value semantics). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
  }
  return false;
}

function echoOf(sent: unknown, echoed: unknown): Echo {
  if (sent === undefined && echoed === undefined) return { kind: "none" };
  if (sent === undefined) return { kind: "unsolicited", echoed };
  if (echoed === undefined) return { kind: "missing", sent };
  // "Exactly": a string state must come back byte for byte; anything else as the same JSON value.
  return same(sent, echoed) ? { kind: "exact" } : { kind: "changed", sent, echoed };
}

/**
 * What changed between consecutive rounds of a flow besides `inputResponses` and `requestState`, and whether the
 * state the server handed out came back exactly (2026-07-28 multi round-trip requests; also -32042 retries).
 */
export function roundSteps(flow: Flow, record: (seq: number) => CaptureRecord | undefined): RoundStep[] {
  const steps: RoundStep[] = [];
  for (let i = 1; i < flow.rounds.length; i++) {
    const previous = flow.rounds[i - 1]!;
    const round = flow.rounds[i]!;
    const a = requestOf(record(previous.requestRecord), previous.requestId);
    const b = requestOf(record(round.requestRecord), round.requestId);
    const responses =
      isObject(b?.params) && isObject(b.params.inputResponses) ? Object.keys(b.params.inputResponses) : [];
    steps.push({
      round,
      previous,
      changes: a && b ? diff(comparable(a), comparable(b)) : [],
      echo: echoOf(previous.requestState, round.echoedState),
      answered: responses,
      readable: a !== undefined && b !== undefined,
    });
  }
  return steps;
}
