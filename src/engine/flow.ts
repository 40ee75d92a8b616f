import type { Revision } from "../protocol/revision.ts";

export type FlowKind = "server-request" | "url-required-error" | "mrtr" | "fallback-tool";
export type FlowStatus = "pending" | "complete" | "error" | "abandoned";
export type ElicitationMode = "form" | "url" | (string & {});
export type ElicitAction = "accept" | "decline" | "cancel" | (string & {});

/** One question the server asked inside a flow. */
export interface Elicitation {
  /** MRTR: the `inputRequests` key. server-request: the server's JSON-RPC id. -32042: the elicitationId. fallback: elicitId. */
  key: string;
  mode: ElicitationMode;
  message: unknown;
  /** `requestedSchema` (form mode). */
  schema?: unknown;
  url?: unknown;
  elicitationId?: string;
  /** null where no answer travels on the wire (the entries of a -32042 error) or none was seen yet. */
  action: ElicitAction | null;
  content?: unknown;
  /** URL mode: completion seen (notification or successful retry). Form mode: an answer was sent. Accept alone never completes a URL elicitation. */
  completed: boolean;
  /** 1-based round in which it was asked. */
  round: number;
  /** Record (seq) and JSON pointer of the question and of the answer. */
  askRecord: number;
  askPointer: string;
  answerRecord?: number;
  answerPointer?: string;
  askedAt: number;
  answeredAt?: number;
}

/** One time the client sent the originating request. */
export interface Round {
  index: number;
  requestId: string | number | null;
  requestRecord: number;
  sentAt: number;
  responseRecord?: number;
  answeredAt?: number;
  /** "input_required", "complete", "error", or null while pending. */
  outcome: "input_required" | "complete" | "error" | null;
  requestState?: unknown;
  /** The state echoed by the request of this round (MRTR retries). */
  echoedState?: unknown;
}

export interface Flow {
  id: string;
  kind: FlowKind;
  revision: Revision | null;
  /** Originating method: tools/call, prompts/get, resources/read, … */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string | null;
  /** Endpoint URL (origin + path) of the server: the upstream when a proxy or host backend names it. */
  server: string;
  /** The proxy or host backend the flow went through (origin + path), and the envelope adapter (record.ts). */
  via?: string;
  envelope?: string;
  session: string;
  /**
   * What the flow's ties rest on that the capture does not show: `get-stream`, an elicitation on the standalone GET
   * stream (which names no request) tied to the one client request in flight then.
   */
  inferred?: "get-stream";
  elicitations: Elicitation[];
  rounds: Round[];
  status: FlowStatus;
  startedAt: number;
  endedAt?: number;
  /** Time the server spent (request sent → server's answer or question), summed over rounds. */
  serverMs: number;
  /** Time spent waiting on the user (question → answer or retry), summed over rounds. */
  userMs: number;
  /** Every record that belongs to the flow, in order. */
  records: number[];
}

// Factories that write every member up front, undefined until known: one place says what a round and an elicitation
// hold, in the order their JSON shows the members (JSON skips those still undefined).

export function createRound(index: number, requestId: Round["requestId"], requestRecord: number, sentAt: number, echoedState?: unknown): Round {
  return { index, requestId, requestRecord, sentAt, outcome: null, echoedState, responseRecord: undefined, answeredAt: undefined, requestState: undefined };
}

export function createElicitation(key: string, mode: ElicitationMode, message: unknown, round: number, askRecord: number, askPointer: string, askedAt: number): Elicitation {
  return {
    key,
    mode,
    message,
    action: null,
    completed: false,
    round,
    askRecord,
    askPointer,
    askedAt,
    schema: undefined,
    url: undefined,
    elicitationId: undefined,
    content: undefined,
    answerRecord: undefined,
    answerPointer: undefined,
    answeredAt: undefined,
  };
}
