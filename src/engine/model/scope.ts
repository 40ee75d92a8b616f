import type { Revision } from "../../protocol/revision.ts";
import type { Flow } from "../flow.ts";

/** Where an elicitation request's params sit: elicitation/create params, a -32042 entry, an inputRequests entry. */
export type AskedWhere = "server-request" | "url-required-error" | "input-request";

/** A 2026-07-28 request's envelope: its `_meta` fields and, on an HTTP POST, its MCP-Protocol-Version header. */
export interface Envelope {
  noVersion: boolean;
  noCaps: boolean;
  /** An HTTP POST: the header is required. */
  postHeader: boolean;
  header: string | undefined;
  metaVersion: unknown;
}

/** What a 2026-07-28 request got wrong in its envelope; the server's answer to it is judged against this. */
export interface EnvelopeDefects {
  /** rev-meta-required: `_meta` lacks protocolVersion or clientCapabilities. */
  missingMeta: boolean;
  /** rev-header-meta-mismatch: the MCP-Protocol-Version header differs from `_meta`. */
  headerMismatch: boolean;
}

/** What a retry got wrong, for the rules that judge the server's answer to it (mrtr.mdx § "Error Handling"). */
export interface RetryDefects {
  missingKeys: boolean;
  extraKeys: boolean;
  malformed: boolean;
  tampered: boolean;
  declined: boolean;
}

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
  /** method + target + canonical arguments: links retries when no state does (correlator `tupleOf`, on first use). */
  tuple: string | undefined;
  flow: Flow | undefined;
  /** Set once the response was seen (the record seq). */
  answered: number | undefined;
  /** MRTR: how this request relates to an earlier InputRequiredResult. */
  retryOf: MrtrLink | undefined;
  retryDefects: RetryDefects | undefined;
  /** 2026-07-28: what its envelope got wrong, for judging the server's answer (rules/revision.ts). */
  envelope: EnvelopeDefects | undefined;
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

/** What a retry is compared with: the request that received the InputRequiredResult. */
export type RequestSummary = Pick<ClientRequest, "method" | "target" | "record" | "idKey"> & { tuple: string };

/** The latest InputRequiredResult of an MRTR chain, waiting for its retry. */
export interface MrtrLink {
  flow: Flow;
  /** A summary, not the request itself: a link lives as long as its flow, and the request holds its whole params. */
  request: RequestSummary;
  /** The IRR's requestState (any JSON type; rules check it is a string). */
  state: unknown;
  hasState: boolean;
  keys: string[];
  /** The IRR's inputRequests (key → {method, params}); `inputMethod` reads a key's method from it. */
  inputRequests: Record<string, unknown>;
  record: number;
  /** Retries already seen for this link (a second one is a replay or a parallel reuse). */
  retries: number;
}

/** The last SSE event of a POST stream, for resumption with Last-Event-ID (correlator `resume`). */
export interface StreamEvent {
  scope: Scope;
  /** The POST exchange id the stream answers. */
  exchange: string;
  /** The ids of the requests the stream carries: the exchange's own list, which may still grow. */
  requestIds: string[];
  eventId: string;
}

/**
 * A scope is where JSON-RPC ids live: a server endpoint, the client talking to it, and (2025-xx) the
 * Mcp-Session-Id. 2026-07-28 traffic has no session, so its scope is endpoint + client.
 *
 * Most scopes only ever see requests and their answers, so every other table is created on first write: a capture
 * holds thousands of scopes (docs/benchmarks.md, "Why the engine is shaped so").
 */
export interface Scope {
  server: string;
  client: string;
  sessionId: string;
  /** Negotiated revision (InitializeResult.protocolVersion). */
  revision: Revision | null;
  /** initialize params.capabilities. */
  caps: unknown;
  initialized: boolean;
  initializeSeen: boolean;
  /** In flight, by id key. */
  clientRequests: Map<string, ClientRequest | undefined>;
  serverRequestIds?: Map<string, { exchange: string | undefined; text: string; record: number; flow: Flow | null }>;
  /** Unanswered, by id key. */
  openElicitations?: Map<string, ServerElicitation | undefined>;
  answeredElicitations?: Map<string, { record: number; flow: Flow }>;
  /** elicitationId → where it was issued. */
  elicitationIds?: Map<string, { url: unknown; message: unknown; flow: Flow; index: number; record: number }>;
  completedIds?: Set<string>;
  /** -32042 flows waiting for their retry, by request tuple. */
  awaitingRetry?: Map<string, Flow>;
  mrtrByState?: Map<string, MrtrLink>;
  mrtrByTuple?: Map<string, MrtrLink>;
  /** Results that had no resultType (2026-07-28), by tuple: a later "retry" treats them as incomplete. */
  noResultType?: Map<string, number>;
  /** Requests whose stream ended without their response, by id: a resumed stream may still answer them. */
  abandoned?: Map<string, ClientRequest>;
  /** Last SSE event id of each POST stream in this scope → that stream, for resumption with Last-Event-ID. */
  streamEvents?: Map<string, StreamEvent>;
  /** The fallback-tool flows (FrontMCP), which the fallback tool's answer looks up by elicitId. */
  fallbackFlows?: Flow[];
}

/** The method of the link's input request `key`, when it is a request object with a string method. */
export function inputMethod(link: MrtrLink, key: string): string | undefined {
  const ir = link.inputRequests;
  if (!Object.prototype.hasOwnProperty.call(ir, key)) return undefined;
  const entry = ir[key];
  return typeof entry === "object" &&
    entry !== null &&
    !Array.isArray(entry) &&
    typeof (entry as { method?: unknown }).method === "string"
    ? (entry as { method: string }).method
    : undefined;
}
