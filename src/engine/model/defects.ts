// What a request got wrong, which later answers are judged by: the correlator keeps the defects on the request;
// the rules that judge the request itself (rules/revision.ts, rules/mrtr/) read the same functions.
import type { MessageRecord } from "../../capture/record.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import {
  inputMethod,
  type ClientRequest,
  type Envelope,
  type EnvelopeDefects,
  type MrtrLink,
  type RetryDefects,
} from "./scope.ts";

export function readEnvelope(params: Record<string, unknown>, record: MessageRecord): Envelope {
  const meta = params._meta;
  const postHeader = record.transport === "http" && record.method === "POST";
  return {
    noVersion: !isObject(meta) || typeof meta[META_PROTOCOL_VERSION] !== "string",
    noCaps: !isObject(meta) || !isObject(meta[META_CLIENT_CAPABILITIES]),
    postHeader,
    header: postHeader ? record.headers?.["mcp-protocol-version"] : undefined,
    metaVersion: isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined,
  };
}

/** The defects of an envelope, or undefined for a well-formed one. */
export function envelopeDefects(e: Envelope): EnvelopeDefects | undefined {
  const missingMeta = e.noVersion || e.noCaps;
  const headerMismatch =
    e.postHeader && e.header !== undefined && typeof e.metaVersion === "string" && e.header !== e.metaVersion;
  return missingMeta || headerMismatch ? { missingMeta, headerMismatch } : undefined;
}

/** Whether an inputResponses value is the result type of its input request's method. */
export const matchesInputType = (method: string | undefined, v: unknown): boolean => {
  if (!isObject(v)) return false;
  if (method === "elicitation/create") return "action" in v;
  if (method === "sampling/createMessage") return "role" in v && "content" in v && "model" in v;
  if (method === "roots/list") return Array.isArray(v.roots);
  return true;
};

export function retryDefects(req: ClientRequest, link: MrtrLink): RetryDefects {
  const params = req.params;
  const defects: RetryDefects = {
    missingKeys: false,
    extraKeys: false,
    malformed: false,
    tampered: false,
    declined: false,
  };
  if (link.hasState && params.requestState !== link.state) defects.tampered = "requestState" in params;
  const responses = params.inputResponses;
  if (responses !== undefined && !isObject(responses)) defects.malformed = true;
  const given = isObject(responses) ? responses : {};
  if (link.keys.some((k) => !(k in given))) defects.missingKeys = true;
  for (const [key, value] of Object.entries(given)) {
    const method = inputMethod(link, key);
    if (method === undefined) {
      defects.extraKeys = true;
      continue;
    }
    if (!matchesInputType(method, value)) defects.malformed = true;
    else if (method === "elicitation/create" && isObject(value) && typeof value.action === "string") {
      const action = value.action;
      if (action === "decline" || action === "cancel") defects.declined = true;
      if (!["accept", "decline", "cancel"].includes(action)) defects.malformed = true;
    }
  }
  return defects;
}
