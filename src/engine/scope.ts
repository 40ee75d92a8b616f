import type { Revision } from "../protocol/revision.ts";
import type { Flow } from "./flow.ts";

/** A client request the engine saw go out and has not yet seen answered. */
export interface ClientRequest {
  id: unknown;
  idKey: string;
  method: string;
  params: Record<string, unknown>;
  record: number;
  exchange: string | undefined;
  time: number;
  revision: Revision | null;
  /** 2026-07-28: this request's own `_meta` clientCapabilities (undefined when absent). */
  caps: unknown;
  /** Tool or prompt name, or resource URI. */
  target: string | null;
  /** method + target + canonical arguments: links retries when no state does. */
  tuple: string;
  flow?: Flow;
  /** Set once the response was seen (the record seq). */
  answered?: number;
  /** MRTR: how this request relates to an earlier InputRequiredResult. */
  retryOf?: MrtrLink;
  retryDefects?: { missingKeys: boolean; extraKeys: boolean; malformed: boolean; tampered: boolean; declined: boolean };
}

/** An `elicitation/create` the server sent (2025-xx) and the client has not answered. */
export interface ServerElicitation {
  idKey: string;
  params: unknown;
  mode: string;
  record: number;
  exchange: string | undefined;
  text: string;
  flow: Flow;
  index: number;
  undeclaredMode: boolean;
}

/** The latest InputRequiredResult of an MRTR chain, waiting for its retry. */
export interface MrtrLink {
  flow: Flow;
  request: ClientRequest;
  /** The IRR's requestState (any JSON type; rules check it is a string). */
  state: unknown;
  hasState: boolean;
  keys: string[];
  /** key → input request method. */
  methods: Map<string, string>;
  record: number;
  /** Retries already seen for this link (a second one is a replay or a parallel reuse). */
  retries: number;
}

/**
 * A scope is where JSON-RPC ids live: a server endpoint, the client talking to it, and (2025-xx) the
 * Mcp-Session-Id. 2026-07-28 traffic has no session, so its scope is endpoint + client.
 */
export interface Scope {
  key: string;
  server: string;
  client: string;
  sessionId: string;
  /** Negotiated revision (InitializeResult.protocolVersion). */
  revision: Revision | null;
  /** initialize params.capabilities. */
  caps: unknown;
  initialized: boolean;
  initializeSeen: boolean;
  clientRequests: Map<string, ClientRequest>;
  usedClientIds: Set<string>;
  serverRequestIds: Map<string, { exchange: string | undefined; text: string; record: number }>;
  openElicitations: Map<string, ServerElicitation>;
  answeredElicitations: Map<string, number>;
  /** elicitationId → where it was issued. */
  elicitationIds: Map<string, { url: unknown; message: unknown; flow: Flow; index: number; record: number }>;
  completedIds: Set<string>;
  /** -32042 flows waiting for their retry, by request tuple. */
  awaitingRetry: Map<string, Flow>;
  mrtrByState: Map<string, MrtrLink>;
  mrtrByTuple: Map<string, MrtrLink>;
  /** Results that had no resultType (2026-07-28), by tuple: a later "retry" treats them as incomplete. */
  noResultType: Map<string, number>;
  /** 2026-07-28: requests that declared elicitation, for cap-per-request. */
  declaredElicitation: boolean;
  /** requestState values a server completed with, for mrtr-state-replay. */
  completedStates: Map<string, number>;
  flows: Flow[];
}

export function createScope(server: string, client: string, sessionId: string): Scope {
  return {
    key: `${server}\u0000${client}\u0000${sessionId}`,
    server,
    client,
    sessionId,
    revision: null,
    caps: undefined,
    initialized: false,
    initializeSeen: false,
    clientRequests: new Map(),
    usedClientIds: new Set(),
    serverRequestIds: new Map(),
    openElicitations: new Map(),
    answeredElicitations: new Map(),
    elicitationIds: new Map(),
    completedIds: new Set(),
    awaitingRetry: new Map(),
    mrtrByState: new Map(),
    mrtrByTuple: new Map(),
    noResultType: new Map(),
    declaredElicitation: false,
    completedStates: new Map(),
    flows: [],
  };
}
