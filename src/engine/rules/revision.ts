import type { MessageRecord } from "../../capture/record.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../../protocol/revision.ts";
import { isObject } from "../pointer.ts";
import type { Report } from "./types.ts";

/** What a 2026-07-28 request got wrong in its envelope; the server's answer to it is judged against this. */
export interface EnvelopeDefects {
  /** rev-meta-required: `_meta` lacks protocolVersion or clientCapabilities. */
  missingMeta: boolean;
  /** rev-header-meta-mismatch: the MCP-Protocol-Version header differs from `_meta`. */
  headerMismatch: boolean;
}

const WELL_FORMED: EnvelopeDefects = Object.freeze({ missingMeta: false, headerMismatch: false });

/**
 * rev-meta-required, rev-header-meta-mismatch, rev-header-missing for a 2026-07-28 request
 * (basic/index.mdx § "_meta"; streamable-http.mdx § "Protocol Version Header").
 */
export function checkModernRequestEnvelope(params: Record<string, unknown>, record: MessageRecord, at: string, report: Report): EnvelopeDefects {
  const meta = params._meta;
  const noVersion = !isObject(meta) || typeof meta[META_PROTOCOL_VERSION] !== "string";
  const noCaps = !isObject(meta) || !isObject(meta[META_CLIENT_CAPABILITIES]);
  const missingMeta = noVersion || noCaps;
  const postHeader = record.transport === "http" && record.method === "POST";
  const header = postHeader ? record.headers?.["mcp-protocol-version"] : undefined;
  const metaVersion = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  // Nearly every request is well formed: answer it without allocating.
  if (!missingMeta && (!postHeader || (header !== undefined && (typeof metaVersion !== "string" || header === metaVersion)))) return WELL_FORMED;
  const missing: string[] = [];
  const defects: EnvelopeDefects = { missingMeta: false, headerMismatch: false };
  if (noVersion) missing.push(META_PROTOCOL_VERSION);
  if (noCaps) missing.push(META_CLIENT_CAPABILITIES);
  if (missing.length) {
    defects.missingMeta = true;
    report({
      rule: "rev-meta-required",
      violator: "client",
      pointer: isObject(meta) ? `${at}/params/_meta` : `${at}/params`,
      message: `2026-07-28 request lacks _meta ${missing.map((m) => `"${m}"`).join(" and ")}; every request must carry them.`,
    });
  }
  if (!postHeader) return defects;
  if (header === undefined) {
    report({ rule: "rev-header-missing", pointer: at || "", message: "POST has no MCP-Protocol-Version header; every 2026-07-28 POST must include it." });
  } else if (typeof metaVersion === "string" && header !== metaVersion) {
    defects.headerMismatch = true;
    report({
      rule: "rev-header-meta-mismatch",
      violator: "client",
      pointer: `${at}/params/_meta/${META_PROTOCOL_VERSION.replace(/\//g, "~1")}`,
      message: `MCP-Protocol-Version header "${header}" differs from _meta protocolVersion "${metaVersion}"; the server must answer 400 with -32020.`,
    });
  }
  return defects;
}

/**
 * The server's half of rev-meta-required (-32602, HTTP 400) and rev-header-meta-mismatch (-32020, HTTP 400):
 * a malformed request must be rejected with that code and status, not answered normally.
 * `code` is undefined for a result; `status` is the HTTP status of the exchange that carried the answer.
 */
export function checkEnvelopeAnswer(defects: EnvelopeDefects, code: unknown, status: number | undefined, at: string, report: Report): void {
  const judge = (rule: "rev-meta-required" | "rev-header-meta-mismatch", expected: number, what: string) => {
    if (code === undefined) {
      report({ rule, violator: "server", pointer: `${at}/result`, message: `Server answered a request that ${what} normally; it must reject it with ${expected} (HTTP 400).` });
    } else if (code !== expected || (status !== undefined && status !== 400)) {
      const got = [code !== expected ? `error ${String(code)}` : "", status !== undefined && status !== 400 ? `HTTP ${status}` : ""].filter(Boolean).join(" and ");
      report({ rule, violator: "server", pointer: `${at}/error/code`, message: `Server rejected a request that ${what} with ${got}; it must answer ${expected} with HTTP 400.` });
    }
  };
  if (defects.missingMeta) judge("rev-meta-required", -32602, "lacked the required _meta");
  if (defects.headerMismatch) judge("rev-header-meta-mismatch", -32020, "had a MCP-Protocol-Version header different from _meta");
}

/** rev-header-missing for 2025-06-18 / 2025-11-25: every HTTP request after initialize carries the header. */
export function checkLegacyHeader(record: MessageRecord, at: string, report: Report): void {
  // An enveloped message's headers were the host's request's, not an MCP POST's (stream "envelope").
  if (record.transport !== "http" || record.stream === "envelope" || record.headers?.["mcp-protocol-version"] !== undefined) return;
  report({ rule: "rev-header-missing", pointer: at, message: "HTTP request after initialize has no MCP-Protocol-Version header." });
}
