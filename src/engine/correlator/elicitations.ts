// The questions of a flow: filing an elicitation when asked, its answer, and the elicitationIds a session issued.
import type { MessageRecord } from "../../capture/record.ts";
import type { Revision } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import { createElicitation, type Elicitation, type Flow } from "../flow.ts";
import type { Scope } from "../model/scope.ts";
import { indexUrls } from "./pageRequests.ts";
import type { State } from "./state.ts";

export function addElicitation(
  s: State,
  flow: Flow,
  key: string,
  ep: unknown,
  mode: string,
  record: MessageRecord,
  p: string,
  round: number,
): Elicitation {
  const params = isObject(ep) ? ep : {};
  const el = createElicitation(key, mode, params.message, round, record.seq, p, record.time);
  if ("requestedSchema" in params) el.schema = params.requestedSchema;
  if ("url" in params) {
    el.url = params.url;
    if (mode === "url" && typeof params.url === "string") {
      // Followed by the URL rules of HAR captures (url-no-prefetch, url-not-mcp-authorization).
      s.unindexed.push({ el, flow, url: params.url, at: undefined });
      if (s.pageRequestsSeen) indexUrls(s);
    }
  }
  if (typeof params.elicitationId === "string") el.elicitationId = params.elicitationId;
  flow.elicitations.push(el);
  if (record.source === "backend") s.relays.backendAsked(flow, el);
  return el;
}

/** The user's answer (an ElicitResult) to one elicitation. */
export function answer(el: Elicitation, er: unknown, seq: number, p: string, time: number): void {
  const action = isObject(er) && typeof er.action === "string" ? er.action : null;
  el.action = action;
  if (isObject(er) && "content" in er) {
    // Content normally comes before the answer's record and pointer; after an error answer it comes last.
    if (el.answerRecord !== undefined && el.content === undefined) delete el.content;
    el.content = er.content;
  }
  el.answerRecord = seq;
  el.answerPointer = p;
  el.answeredAt = time;
  // url-accept-is-consent: accept on a URL elicitation means consent, not completion.
  if (el.mode !== "url") el.completed = action !== null;
}

const ownerKey = (scope: Scope, id: string): string => `${scope.server}\u0000${id}`;

/** Files the elicitationId an elicitation carries, in its scope and for its server (completions look it up). */
export function registerElicitationId(
  s: State,
  scope: Scope,
  flow: Flow,
  revision: Revision | null,
  index: number,
  ep: Record<string, unknown>,
  p: string,
  record: MessageRecord,
): void {
  const id = ep.elicitationId;
  if (typeof id !== "string") return;
  const prior = scope.elicitationIds?.get(id);
  s.emit("elicitationIdIssued", { flow, revision, ep, pointer: p, prior });
  (scope.elicitationIds ??= new Map()).set(id, { url: ep.url, message: ep.message, flow, index, record: record.seq });
  s.elicitationIdOwners.set(ownerKey(scope, id), scope);
}

/** The session of the same server that issued an elicitationId, if any. */
export const ownerOf = (s: State, scope: Scope, id: string): Scope | undefined =>
  s.elicitationIdOwners.get(ownerKey(scope, id));
