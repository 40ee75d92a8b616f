// The revision-level rules of 2026-07-28 requests and of HTTP requests after initialize (rules.md §1.4):
// the `_meta` every modern request carries, the MCP-Protocol-Version header, and the server's answer to a
// request that lacked them.
import type { MessageRecord } from "../../capture/record.ts";
import { isModern, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import { readEnvelope } from "../model/defects.ts";
import type { EnvelopeDefects } from "../model/scope.ts";
import type { Report, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "rev-meta-required",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "client",
    violatorNote: "client (+server if not rejected)",
    detection: "exact",
    title: "Request lacks `_meta` protocolVersion or clientCapabilities; server must answer -32602 with HTTP 400",
    section: "1.4",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
  {
    id: "rev-header-meta-mismatch",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28 HTTP",
    violator: "client",
    violatorNote: "client (+server)",
    detection: "exact",
    title: "`MCP-Protocol-Version` header ≠ `_meta` version; server must answer 400 with -32020",
    section: "1.4",
    spec: { revision: "2026-07-28", path: "basic/transports/streamable-http" },
  },
  {
    id: "rev-header-missing",
    severity: "error",
    severityNote: "error",
    revisions: "2025-06-18, 2025-11-25, 2026-07-28 (HTTP)",
    violator: "client",
    detection: "exact (HTTP only)",
    title: "`MCP-Protocol-Version` header missing",
    section: "1.4",
    spec: { revision: "2026-07-28", path: "basic/transports/streamable-http" },
  },
];

/** rev-meta-required, rev-header-meta-mismatch, rev-header-missing for a 2026-07-28 request (basic/index.mdx § "_meta"; streamable-http.mdx § "Protocol Version Header"). */
function checkModernRequest(params: Record<string, unknown>, record: MessageRecord, at: string, report: Report): void {
  const e = readEnvelope(params, record);
  const meta = params._meta;
  const missing: string[] = [];
  if (e.noVersion) missing.push(META_PROTOCOL_VERSION);
  if (e.noCaps) missing.push(META_CLIENT_CAPABILITIES);
  if (missing.length) {
    report({
      rule: "rev-meta-required",
      violator: "client",
      pointer: isObject(meta) ? `${at}/params/_meta` : `${at}/params`,
      message: `2026-07-28 request lacks _meta ${missing.map((m) => `"${m}"`).join(" and ")}; every request must carry them.`,
    });
  }
  if (!e.postHeader) return;
  if (e.header === undefined) {
    report({
      rule: "rev-header-missing",
      pointer: at || "",
      message: "POST has no MCP-Protocol-Version header; every 2026-07-28 POST must include it.",
    });
  } else if (typeof e.metaVersion === "string" && e.header !== e.metaVersion) {
    report({
      rule: "rev-header-meta-mismatch",
      violator: "client",
      pointer: `${at}/params/_meta/${META_PROTOCOL_VERSION.replace(/\//g, "~1")}`,
      message: `MCP-Protocol-Version header "${e.header}" differs from _meta protocolVersion "${e.metaVersion}"; the server must answer 400 with -32020.`,
    });
  }
}

/**
 * The server's half of rev-meta-required (-32602, HTTP 400) and rev-header-meta-mismatch (-32020, HTTP 400):
 * a malformed request must be rejected with that code and status, not answered normally.
 * `code` is undefined for a result; `status` is the HTTP status of the exchange that carried the answer.
 */
function checkEnvelopeAnswer(
  defects: EnvelopeDefects,
  code: unknown,
  status: number | undefined,
  at: string,
  report: Report,
): void {
  const judge = (rule: "rev-meta-required" | "rev-header-meta-mismatch", expected: number, what: string) => {
    if (code === undefined) {
      report({
        rule,
        violator: "server",
        pointer: `${at}/result`,
        message: `Server answered a request that ${what} normally; it must reject it with ${expected} (HTTP 400).`,
      });
    } else if (code !== expected || (status !== undefined && status !== 400)) {
      const got = [
        code !== expected ? `error ${String(code)}` : "",
        status !== undefined && status !== 400 ? `HTTP ${status}` : "",
      ]
        .filter(Boolean)
        .join(" and ");
      report({
        rule,
        violator: "server",
        pointer: `${at}/error/code`,
        message: `Server rejected a request that ${what} with ${got}; it must answer ${expected} with HTTP 400.`,
      });
    }
  };
  if (defects.missingMeta) judge("rev-meta-required", -32602, "lacked the required _meta");
  if (defects.headerMismatch)
    judge("rev-header-meta-mismatch", -32020, "had a MCP-Protocol-Version header different from _meta");
}

/** rev-header-missing for 2025-06-18 / 2025-11-25: every HTTP request after initialize carries the header. */
function checkLegacyHeader(record: MessageRecord, at: string, report: Report): void {
  // An enveloped message's headers were the host's request's, not an MCP POST's (stream "envelope").
  if (
    record.transport !== "http" ||
    record.stream === "envelope" ||
    record.headers?.["mcp-protocol-version"] !== undefined
  )
    return;
  report({
    rule: "rev-header-missing",
    pointer: at,
    message: "HTTP request after initialize has no MCP-Protocol-Version header.",
  });
}

export const revision: RuleModule = {
  meta,
  create: ({ report }) => ({
    clientRequest({ msg, req, modern }) {
      if (req.method === "initialize") return;
      if (modern) checkModernRequest(req.params, msg.record, msg.at, report);
      else if (msg.scope.initializeSeen) checkLegacyHeader(msg.record, msg.at, report);
    },
    clientResponse({ msg }) {
      if (msg.scope.initializeSeen && !isModern(msg.scope.revision)) checkLegacyHeader(msg.record, msg.at, report);
    },
    clientNotification({ msg }) {
      // transports.mdx § "Protocol Version Header": every HTTP request after initialize, notifications included.
      if (msg.scope.initializeSeen && !isModern(msg.scope.revision)) checkLegacyHeader(msg.record, msg.at, report);
    },
    serverResponse({ msg, req, error }) {
      if (req.envelope)
        checkEnvelopeAnswer(
          req.envelope,
          error === undefined ? undefined : error.code,
          msg.exchange?.status,
          msg.at,
          report,
        );
    },
  }),
};
