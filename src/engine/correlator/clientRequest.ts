// A client request: its revision, its record in the scope, and which flow kind it continues (an MRTR retry,
// a retry after -32042, an answer through FrontMCP's fallback tool).
import { isModern, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, type Revision } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import type { MessageContext } from "../model/exchange.ts";
import { addRequestId } from "./exchanges.ts";
import type { ClientRequest } from "../model/scope.ts";
import { envelopeDefects, readEnvelope } from "../model/defects.ts";
import { FALLBACK_TOOL, onFallbackAnswer } from "./fallback.ts";
import { onRetry } from "./mrtr.ts";
import { EMPTY, idKey, tupleOf, type State } from "./state.ts";
import { onUrlRetry } from "./urlRequired.ts";

export function onClientRequest(s: State, ctx: MessageContext, id: unknown, method: string, rawParams: unknown): void {
  const { record, scope, exchange } = ctx;
  const params = isObject(rawParams) ? rawParams : EMPTY;
  // The request's revision: its own _meta (2026-07-28: then it is modern whatever the value), the session's,
  // the header's, or 2026-07-28 when it carries what only that revision has. `_meta` is read once here.
  const meta = isObject(params._meta) ? params._meta : undefined;
  const pv = meta === undefined ? undefined : meta[META_PROTOCOL_VERSION];
  let revision: Revision | null = null;
  let modern = false;
  if (typeof pv === "string") {
    revision = pv;
    modern = true;
  } else if (scope.revision) {
    revision = scope.revision;
    modern = isModern(revision);
  } else {
    const header = record.headers?.["mcp-protocol-version"];
    if (header) {
      revision = header;
      modern = isModern(header);
    } else if (
      record.headers?.["mcp-method"] !== undefined ||
      params.inputResponses !== undefined ||
      params.requestState !== undefined
    ) {
      revision = "2026-07-28";
      modern = true;
    }
  }
  const target = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : null;
  const key = idKey(id);
  const inFlight = scope.clientRequests.get(key);
  const req: ClientRequest = {
    id,
    idKey: key,
    method,
    params,
    record: record.seq,
    exchange: exchange?.id,
    time: record.time,
    revision,
    caps: modern && meta !== undefined ? meta[META_CLIENT_CAPABILITIES] : undefined,
    target,
    tuple: undefined,
    flow: undefined,
    answered: undefined,
    retryOf: undefined,
    retryDefects: undefined,
    envelope: undefined,
  };
  scope.clientRequests.set(key, req);
  if (exchange) {
    addRequestId(exchange, key);
    if (revision !== null) exchange.revision = revision;
  }
  if (method === "initialize") scope.initializeSeen = true;
  else if (modern) {
    // A request without the required _meta declares nothing (the server must reject it).
    req.envelope = envelopeDefects(readEnvelope(params, record));
    if (req.envelope?.missingMeta) req.caps = undefined;
  }
  s.emit("clientRequest", { flow: null, revision, msg: ctx, req, modern, envelope: req.envelope });

  if (params.inputResponses !== undefined || params.requestState !== undefined)
    onRetry(s, ctx, req, inFlight !== undefined);
  else if (scope.awaitingRetry?.has(tupleOf(req))) onUrlRetry(s, ctx, req, scope.awaitingRetry!.get(tupleOf(req))!);
  else if (method === "tools/call" && target === FALLBACK_TOOL) onFallbackAnswer(s, ctx, req);
}
