// The client's side of MRTR (mrtr.mdx § "Client Requirements"): a retry against the InputRequiredResult it answers,
// and requestState or inputResponses where no retry of that request belongs.
import type { MessageRecord } from "../../../capture/record.ts";
import { MRTR_METHODS } from "../../../protocol/mrtr.ts";
import { META_PROTOCOL_VERSION } from "../../../protocol/revision.ts";
import { isObject } from "../../../util/json.ts";
import { join } from "../../../util/pointer.ts";
import { matchesInputType } from "../../model/defects.ts";
import { inputMethod, type ClientRequest, type MrtrLink } from "../../model/scope.ts";
import type { Report } from "../../ruleKit/types.ts";

/** Client-side checks of an MRTR retry against the IRR it answers (mrtr.mdx § "Client Requirements"). */
export function checkRetry(
  req: ClientRequest,
  link: MrtrLink,
  record: MessageRecord,
  at: string,
  idReused: boolean,
  report: Report,
): void {
  const params = req.params;
  if (idReused) {
    report({
      rule: "mrtr-retry-new-id",
      pointer: `${at}/id`,
      message: `Retry reuses JSON-RPC id ${JSON.stringify(req.id)} of the request that received the InputRequiredResult (or one still in flight).`,
    });
  }
  const orig = link.request;
  if (req.method !== orig.method || req.target !== orig.target || req.tuple !== orig.tuple) {
    const what =
      req.method !== orig.method
        ? "method"
        : req.target !== orig.target
          ? req.method === "resources/read"
            ? "uri"
            : "name"
          : "arguments";
    report({
      rule: "mrtr-retry-same-request",
      pointer: what === "method" ? `${at}/method` : `${at}/params/${what}`,
      message: `Retry changes ${what} of the original ${orig.method} request (record ${orig.record}).`,
    });
  }
  if ("requestState" in params) {
    if (typeof params.requestState !== "string") {
      report({
        rule: "mrtr-request-state-string",
        violator: "client",
        pointer: `${at}/params/requestState`,
        message: "Retry's requestState is not a string.",
      });
    }
    if (!link.hasState) {
      report({
        rule: "mrtr-no-invented-state",
        pointer: `${at}/params/requestState`,
        message: "Retry sends requestState although the InputRequiredResult gave none.",
      });
    }
  }
  if (link.hasState && params.requestState !== link.state) {
    report({
      rule: "mrtr-echo-request-state",
      pointer: "requestState" in params ? `${at}/params/requestState` : `${at}/params`,
      message:
        "requestState" in params
          ? `Retry's requestState differs from the one the InputRequiredResult (record ${link.record}) gave; it must be echoed byte for byte.`
          : `Retry omits the requestState the InputRequiredResult (record ${link.record}) gave.`,
    });
  }
  const responses = params.inputResponses;
  const given = isObject(responses) ? responses : {};
  const missing = link.keys.filter((k) => !(k in given));
  if (missing.length) {
    report({
      rule: "mrtr-fulfil-before-retry",
      pointer: isObject(responses) ? `${at}/params/inputResponses` : `${at}/params`,
      message: `Retry lacks inputResponses for ${missing.map((k) => `"${k}"`).join(", ")}; a declined or cancelled ask still needs an entry.`,
    });
  }
  for (const [key, value] of Object.entries(given)) {
    const method = inputMethod(link, key);
    const p = (): string => join(`${at}/params/inputResponses`, key);
    if (method === undefined) {
      report({
        rule: "mrtr-input-responses-extra-keys",
        pointer: p(),
        message: `inputResponses key "${key}" was not requested by the latest InputRequiredResult.`,
      });
      continue;
    }
    if (!matchesInputType(method, value)) {
      const wrapped = isObject(value) && ("result" in value || "jsonrpc" in value);
      report({
        rule: "mrtr-response-type-match",
        pointer: p(),
        message: `inputResponses.${key} is not a ${method === "elicitation/create" ? "ElicitResult" : method === "roots/list" ? "ListRootsResult" : "CreateMessageResult"}${wrapped ? " (it is wrapped in a JSON-RPC response)" : ""}.`,
      });
    }
  }
  if (record.transport === "http" && record.method === "POST") checkRetryHeaders(req, record, at, report);
}

/** mrtr-retry-headers: a retry is a fresh POST and needs its own standard headers (streamable-http.mdx § "Standard Request Headers"). */
function checkRetryHeaders(req: ClientRequest, record: MessageRecord, at: string, report: Report): void {
  const h = record.headers ?? {};
  const meta = req.params._meta;
  const version = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  const problems: string[] = [];
  if (h["mcp-protocol-version"] === undefined) problems.push("MCP-Protocol-Version is missing");
  else if (typeof version === "string" && h["mcp-protocol-version"] !== version)
    problems.push(`MCP-Protocol-Version "${h["mcp-protocol-version"]}" ≠ _meta "${version}"`);
  if (h["mcp-method"] === undefined) problems.push("Mcp-Method is missing");
  else if (h["mcp-method"] !== req.method)
    problems.push(`Mcp-Method "${h["mcp-method"]}" ≠ body method "${req.method}"`);
  if (MRTR_METHODS.has(req.method) && req.target !== null) {
    if (h["mcp-name"] === undefined) problems.push("Mcp-Name is missing");
    else if (h["mcp-name"] !== req.target) problems.push(`Mcp-Name "${h["mcp-name"]}" ≠ body "${req.target}"`);
  }
  if (problems.length)
    report({ rule: "mrtr-retry-headers", pointer: at, message: `Retry POST headers: ${problems.join("; ")}.` });
}
