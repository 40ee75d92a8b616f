// What the correlator tells the rules: one fact per thing that happened (a request sent, an elicitation asked,
// answered, completed, retried, a stream ended…). The correlator builds flows and never judges; every finding is
// raised by a rule module (src/engine/rules/) listening to these facts. A fact names the flow and revision its
// findings belong to and, when it is not the record in hand, the record that holds the evidence.
import type { PageRequestRecord } from "../capture/record.ts";
import type { Revision } from "../protocol/revision.ts";
import type { Exchange, MessageContext } from "./model/exchange.ts";
import type { Elicitation, Flow, Relay } from "./flow.ts";
import type {
  AskedWhere,
  ClientRequest,
  EnvelopeDefects,
  MrtrLink,
  RetryDefects,
  Scope,
  ServerElicitation,
} from "./model/scope.ts";

interface About {
  flow: Flow | null;
  revision: Revision | null;
  /** The record holding the evidence, when not the record in hand. */
  record?: number;
}

export interface Facts {
  /** The client sent a request (any method). `modern`: judged as 2026-07-28. */
  clientRequest: About & {
    msg: MessageContext;
    req: ClientRequest;
    modern: boolean;
    envelope: EnvelopeDefects | undefined;
  };
  /**
   * The client answered a server request by JSON-RPC id (`asked`: the open elicitation/create it answers; `knownId`:
   * the server sent a request of that id; `lostStream`: a HAR lost the body of one of the server's streams).
   */
  clientResponse: About & {
    msg: MessageContext;
    id: unknown;
    asked: ServerElicitation | undefined;
    repeated: { record: number; flow: Flow } | undefined;
    knownId: boolean;
    lostStream: boolean;
  };
  /** A client message with an id that answers an open elicitation but has both or neither of result and error. */
  malformedAnswer: About & { msg: MessageContext; id: unknown; hasResult: boolean };
  /** The client sent a notification. `completionFlow`: the flow of the elicitationId a completion names. */
  clientNotification: About & { msg: MessageContext; method: string; completionFlow: Flow | null };
  /** An elicitation was asked: elicitation/create params, a -32042 entry, or an inputRequests entry. */
  elicitationAsked: About & {
    msg: MessageContext;
    ep: unknown;
    pointer: string;
    mode: string;
    where: AskedWhere;
    req: ClientRequest | undefined;
  };
  /** An elicitation carried an elicitationId (`prior`: where the scope saw it before). */
  elicitationIdIssued: About & {
    ep: Record<string, unknown>;
    pointer: string;
    prior: { url: unknown; message: unknown; record: number } | undefined;
  };
  /** An elicitation was answered: a JSON-RPC result (server-request), an inputResponses entry (mrtr) or the fallback tool's arguments. */
  elicitationAnswered: About & {
    msg: MessageContext;
    kind: "server-request" | "mrtr" | "fallback-tool";
    er: unknown;
    ep: unknown;
    pointer: string;
    asked: ServerElicitation | undefined;
  };
  /** A client's ElicitResult POST and the HTTP status that answered it (`record`: the POST). */
  elicitResultAck: About & { exchange: Exchange; record: number };
  /** The server sent a request (`kind`: another method, a replay of one it sent, or a new elicitation/create). */
  serverRequest: About & {
    msg: MessageContext;
    id: unknown;
    method: string;
    kind: "other-method" | "replay" | "elicitation";
    modern: boolean;
    origin: ClientRequest | undefined;
    /** The earlier server request of this id in the scope. */
    prior: { exchange: string | undefined; text: string; record: number; flow: Flow | null } | undefined;
    /** Where it travelled; a GET stream that resumes a POST stream counts as that POST stream. */
    stream: string;
  };
  /** An elicitation/create is now open; `open`: how many of the scope's are. */
  serverElicitationOpened: About & { pointer: string; idPointer: string; open: number };
  /** The server answered a client request (not initialize). */
  serverResponse: About & {
    msg: MessageContext;
    req: ClientRequest;
    result: Record<string, unknown> | undefined;
    error: Record<string, unknown> | undefined;
    modern: boolean;
  };
  /** An InputRequiredResult (a round of MRTR). */
  inputRequired: About & { msg: MessageContext; req: ClientRequest; result: Record<string, unknown> };
  /** The elicitations of one InputRequiredResult were filed (`asked`: how many elicitation/create entries). */
  roundAsked: About & { pointer: string; asked: number };
  /** A -32042 URLElicitationRequiredError. `caps`: the session's capabilities once initialize was seen. */
  urlRequired: About & { msg: MessageContext; req: ClientRequest; error: Record<string, unknown>; caps: unknown };
  /** A request retried after -32042. */
  urlRetry: About & { msg: MessageContext; req: ClientRequest; idReused: boolean };
  /**
   * A request that carries inputResponses or requestState. `link`: the InputRequiredResult it answers, when found.
   * `kind`: not a retryable method, no IRR for it, another request's state, or a retry of its chain.
   */
  retry: About & {
    msg: MessageContext;
    req: ClientRequest;
    kind: "not-retryable" | "unlinked" | "other-request" | "linked";
    link: MrtrLink | undefined;
    /** Unlinked: the record of an earlier result of the same request that had no resultType. */
    noResultType: number | undefined;
    /** Linked: another in-flight request that presents the same link. */
    parallel: ClientRequest | undefined;
    idReused: boolean;
    defects: RetryDefects | undefined;
  };
  /** A retry's inputResponses answered elicitations of the round before (`round`: that round). */
  retryAnswered: About & { msg: MessageContext; req: ClientRequest; round: number };
  /** A flow completed with a result. */
  flowCompleted: About & { msg: MessageContext; req: ClientRequest; result: Record<string, unknown>; scope: Scope };
  /** A flow ended with an error answer. */
  flowFailed: About & { msg: MessageContext; req: ClientRequest; error: Record<string, unknown> };
  /**
   * notifications/elicitation/complete from the server. `id`: its usable elicitationId (undefined when the
   * notification is outside 2025-11-25 or lacks one); `known`: the flow that issued it in this session;
   * `otherSession`: the flow of another session of the same server that issued it; `repeated`: completed before.
   */
  completion: About & {
    msg: MessageContext;
    params: unknown;
    id: string | undefined;
    known: Flow | undefined;
    otherSession: Flow | null | undefined;
    repeated: boolean;
  };
  /** A URL-mode elicitation was filed under its URL's origin + path (HAR captures with page requests). */
  urlElicitation: About & { entry: UrlElicitation };
  /** A page request of a HAR capture (not MCP), before it is matched with URL elicitations. */
  pageRequest: About & { page: PageRequestRecord; entries: ReadonlyMap<string, readonly UrlElicitation[]> };
  /** A backend elicitation was joined with the page's relayed ask for it (correlator/relay.ts). */
  relayJoined: About & { el: Elicitation; relay: Relay };
  /** The agent answered the server, and the user had answered in the page: both answers are known. */
  relayForwarded: About & { el: Elicitation; relay: Relay };
  /** The page's answer never reached the server: the agent answered before it, or the flow ended without it. */
  relayLost: About & { el: Elicitation; relay: Relay; why: "answered-before" | "never-forwarded" };
  /** The agent answered an elicitation the page (watched) never received. */
  relayUnshown: About & { el: Elicitation };
  /** The page requested a relayed URL-mode ask's URL before the user accepted it in the page. */
  relayUrlOpened: About & { page: PageRequestRecord; entry: UrlElicitation; at: string };
  /** The page requested a URL elicitation's URL before the user accepted it. */
  urlFetched: About & { page: PageRequestRecord; entry: UrlElicitation; at: string };
}

/** A URL-mode elicitation as the URL rules follow it. */
export interface UrlElicitation {
  el: Elicitation;
  flow: Flow;
  url: string;
  /** Origin + path of its URL, once indexed (undefined before, or for a URL that is not http(s)). */
  at: string | undefined;
}

export type FactName = keyof Facts;
export type Emit = <F extends FactName>(name: F, fact: Facts[F]) => void;
