import type { MessageRecord } from "../../capture/record.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../../protocol/revision.ts";
import { isObject } from "../pointer.ts";
import type { Report } from "./types.ts";

/**
 * rev-meta-required, rev-header-meta-mismatch, rev-header-missing for a 2026-07-28 request
 * (basic/index.mdx § "_meta"; streamable-http.mdx § "Protocol Version Header"). Returns true when the
 * request lacks required `_meta`, so that the server's answer can be judged too.
 */
export function checkModernRequestEnvelope(params: Record<string, unknown>, record: MessageRecord, at: string, report: Report): boolean {
  const meta = params._meta;
  const missing: string[] = [];
  if (!isObject(meta) || typeof meta[META_PROTOCOL_VERSION] !== "string") missing.push(META_PROTOCOL_VERSION);
  if (!isObject(meta) || !isObject(meta[META_CLIENT_CAPABILITIES])) missing.push(META_CLIENT_CAPABILITIES);
  if (missing.length) {
    report({
      rule: "rev-meta-required",
      violator: "client",
      pointer: isObject(meta) ? `${at}/params/_meta` : `${at}/params`,
      message: `2026-07-28 request lacks _meta ${missing.map((m) => `"${m}"`).join(" and ")}; every request must carry them.`,
    });
  }
  if (record.transport !== "http" || record.method !== "POST") return missing.length > 0;
  const header = record.headers?.["mcp-protocol-version"];
  const metaVersion = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  if (header === undefined) {
    report({ rule: "rev-header-missing", pointer: at || "", message: "POST has no MCP-Protocol-Version header; every 2026-07-28 POST must include it." });
  } else if (typeof metaVersion === "string" && header !== metaVersion) {
    report({
      rule: "rev-header-meta-mismatch",
      violator: "client",
      pointer: `${at}/params/_meta/${META_PROTOCOL_VERSION.replace(/\//g, "~1")}`,
      message: `MCP-Protocol-Version header "${header}" differs from _meta protocolVersion "${metaVersion}"; the server must answer 400 with -32020.`,
    });
  }
  return missing.length > 0;
}

/** rev-header-missing for 2025-06-18 / 2025-11-25: every HTTP request after initialize carries the header. */
export function checkLegacyHeader(record: MessageRecord, at: string, report: Report): void {
  if (record.transport !== "http" || record.headers?.["mcp-protocol-version"] !== undefined) return;
  report({ rule: "rev-header-missing", pointer: at, message: "HTTP request after initialize has no MCP-Protocol-Version header." });
}
