import type { Revision } from "../protocol/revision.ts";

/** `relay`: an elicitation an app relayed to its page, not (yet) joined with the agent backend's MCP wire. */
export type FlowKind = "server-request" | "url-required-error" | "mrtr" | "fallback-tool" | "relay";
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
  /** The page's side of an elicitation an agent backend relayed to its page (a hosted agent). */
  relay?: Relay;
}

/**
 * An ask an app relayed to its page in its own shape, and the page's answer (src/engine/correlator/relay.ts). On a
 * backend flow it is the page's side of that flow's elicitation: server → agent → page → user → agent → server.
 */
export interface Relay {
  /** The app's shape (the envelope after `relay:`): `data-elicitation`, `mcp_elicitation`, `json`. */
  shape: string;
  /** The id the app gave the ask (or its answer), when it gave one. */
  id?: string;
  /** Where the page got it: the app's URL (or origin, for window messages). */
  url?: string;
  /** The params as the page received them. */
  params: Record<string, unknown>;
  askRecord: number;
  askedAt: number;
  /** The page's answer: what the user gave. */
  action?: ElicitAction;
  content?: unknown;
  answerRecord?: number;
  answeredAt?: number;
  /** How the page's ask was tied to the backend's: the id they share, message and schema, message alone, or order. */
  joinedBy?: "id" | "message+schema" | "message" | "order";
  /** The join is a guess: by order only, or one of several asks that looked the same. */
  inferred?: boolean;
  /** Relay latencies: the page got the ask this long after the agent did; the server got the answer this long after the page gave it. */
  askMs?: number;
  answerMs?: number;
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
  /** `backend`: seen on an agent backend's MCP wire (`mcp-elicit proxy`); absent: the page's own. */
  source?: "backend";
  /** A `relay` flow later joined with the backend flow of this id (shown as that flow; kept so ids stay stable). */
  joinedInto?: string;
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

export function createRound(
  index: number,
  requestId: Round["requestId"],
  requestRecord: number,
  sentAt: number,
  echoedState?: unknown,
): Round {
  return {
    index,
    requestId,
    requestRecord,
    sentAt,
    outcome: null,
    echoedState,
    responseRecord: undefined,
    answeredAt: undefined,
    requestState: undefined,
  };
}

export function createElicitation(
  key: string,
  mode: ElicitationMode,
  message: unknown,
  round: number,
  askRecord: number,
  askPointer: string,
  askedAt: number,
): Elicitation {
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
