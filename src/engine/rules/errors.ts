// Error codes (rules.md §3.9): -32042 (2025-11-25 URL elicitation required) and its retry, -32021 (2026-07-28
// missing client capability), and the codes that should have been one of them.
import type { Revision } from "../../protocol/revision.ts";
import { isModern } from "../../protocol/revision.ts";
import { isObject } from "../../util/json.ts";
import { declaredModes, declaresElicitation } from "../caps.ts";
import type { Report, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "err-url-required-revision",
    severity: "error",
    severityNote: "error / info",
    revisions: "2025-06-18 (info), 2026-07-28 (error)",
    violator: "server",
    detection: "exact",
    title: "-32042 outside 2025-11-25",
    section: "3.9",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "err-url-required-shape",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "server",
    detection: "exact",
    title: "`data.elicitations` missing or empty; an entry not URL mode or lacking `elicitationId`",
    section: "3.9",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "err-url-required-capability",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "-32042 sent to a client without URL mode",
    section: "3.9",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "err-url-required-retry-new-id",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "client",
    detection: "stateful",
    title: "Retry after -32042 reuses the failed request's id",
    section: "3.9",
    spec: { revision: "2025-11-25", path: "client/elicitation" },
  },
  {
    id: "err-missing-cap-shape",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "-32021 without an object `data.requiredCapabilities`, or not HTTP 400",
    section: "3.9",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
  {
    id: "err-missing-cap-misuse",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "-32021 naming a capability that was declared",
    section: "3.9",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
  {
    id: "err-missing-cap-expected",
    severity: "warning",
    severityNote: "warning (heuristic)",
    revisions: "2026-07-28",
    violator: "server",
    detection: "heuristic",
    title: "Missing elicitation signalled with a code other than -32021",
    section: "3.9",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
  {
    id: "err-legacy-range",
    severity: "info",
    severityNote: "info",
    revisions: "2026-07-28",
    violator: "either",
    detection: "exact",
    title: "Legacy-range codes such as -32003 near elicitation",
    section: "3.9",
    spec: { revision: "2026-07-28", path: "basic/index" },
  },
];

/** err-url-required-revision and err-url-required-shape for a -32042 error (2025-11-25 § "URL Elicitation Required Error"). */
export function checkUrlRequiredError(
  error: Record<string, unknown>,
  at: string,
  revision: Revision | null,
  caps: unknown,
  report: Report,
): void {
  if (revision !== null && revision !== "2025-11-25") {
    const modern = isModern(revision);
    report({
      rule: "err-url-required-revision",
      severity: modern ? "error" : "info",
      pointer: `${at}/error/code`,
      message: modern
        ? "-32042 answered a 2026-07-28 request; this revision must not emit it (use an InputRequiredResult)."
        : `-32042 is not defined in ${revision}; it exists only in 2025-11-25.`,
    });
  }
  const data = error.data;
  const list = isObject(data) ? data.elicitations : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    report({
      rule: "err-url-required-shape",
      pointer: isObject(data) ? `${at}/error/data` : `${at}/error`,
      message: !isObject(data)
        ? "-32042 error has no data object with elicitations."
        : !Array.isArray(list)
          ? "-32042 error.data.elicitations is not an array."
          : "-32042 error.data.elicitations is empty; it must list the required elicitations.",
    });
    return;
  }
  list.forEach((e, i) => {
    const p = `${at}/error/data/elicitations/${i}`;
    if (!isObject(e))
      return report({
        rule: "err-url-required-shape",
        pointer: p,
        message: `-32042 elicitations[${i}] is not an object.`,
      });
    if (e.mode !== "url")
      report({
        rule: "err-url-required-shape",
        pointer: `${p}/mode`,
        message: `-32042 elicitations[${i}] has mode ${JSON.stringify(e.mode)}; every entry must be URL mode.`,
      });
    const lacking = ["elicitationId", "url", "message"].filter((k) => typeof e[k] !== "string");
    if (lacking.length)
      report({
        rule: "err-url-required-shape",
        pointer: p,
        message: `-32042 elicitations[${i}] lacks ${lacking.join(", ")}.`,
      });
  });
  if (revision === "2025-11-25" && caps !== undefined && !declaredModes(caps, revision).has("url")) {
    report({
      rule: "err-url-required-capability",
      pointer: `${at}/error/code`,
      message: "-32042 sent to a client that did not declare URL-mode elicitation.",
    });
  }
}

/** err-missing-cap-shape and err-missing-cap-misuse for -32021 (2026-07-28 basic/index.mdx § "_meta"). */
export function checkMissingCapError(
  error: Record<string, unknown>,
  at: string,
  status: number | undefined,
  requestCaps: unknown,
  report: Report,
): void {
  const data = error.data;
  const required = isObject(data) ? data.requiredCapabilities : undefined;
  if (!isObject(required)) {
    report({
      rule: "err-missing-cap-shape",
      pointer: isObject(data) ? `${at}/error/data/requiredCapabilities` : `${at}/error`,
      message: `-32021 error.data.requiredCapabilities is ${required === undefined ? "missing" : Array.isArray(required) ? "an array" : typeof required}; it must be a ClientCapabilities object such as {"elicitation":{}}.`,
    });
  }
  if (status !== undefined && status !== 400) {
    report({
      rule: "err-missing-cap-shape",
      pointer: `${at}/error/code`,
      message: `-32021 came with HTTP ${status}; it must come with 400 Bad Request.`,
    });
  }
  if (
    !isObject(required) ||
    !isObject(required.elicitation) ||
    !isObject(requestCaps) ||
    !isObject(requestCaps.elicitation)
  )
    return;
  const needed = Object.keys(required.elicitation);
  const declared = declaredModes(requestCaps, "2026-07-28");
  const misuse = needed.length === 0 ? declared.has("form") : needed.every((m) => declared.has(m));
  if (misuse) {
    report({
      rule: "err-missing-cap-misuse",
      pointer: `${at}/error/data/requiredCapabilities/elicitation`,
      message: "-32021 names elicitation capabilities the request did declare.",
    });
  }
}

const MENTIONS_ELICITATION = /elicit|capabilit|user input/i;

/**
 * err-missing-cap-expected (heuristic): a 2026-07-28 request without elicitation rejected with another code
 * whose text talks about elicitation; err-legacy-range: -32000…-32019 near elicitation.
 */
export function checkOtherModernError(
  error: Record<string, unknown>,
  at: string,
  requestDeclaredElicitation: boolean,
  inElicitationFlow: boolean,
  report: Report,
): void {
  const code = error.code;
  const text = `${typeof error.message === "string" ? error.message : ""} ${JSON.stringify(error.data ?? "")}`;
  const mentions = MENTIONS_ELICITATION.test(text);
  if (!requestDeclaredElicitation && mentions && typeof code === "number" && code !== -32021) {
    report({
      rule: "err-missing-cap-expected",
      pointer: `${at}/error/code`,
      message: `Missing elicitation capability signalled with ${code}; 2026-07-28 servers must use -32021 with data.requiredCapabilities.`,
    });
  }
  if (typeof code === "number" && code <= -32000 && code >= -32019 && (mentions || inElicitationFlow)) {
    report({
      rule: "err-legacy-range",
      pointer: `${at}/error/code`,
      message: `Error code ${code} is in the legacy -32000…-32019 range${code === -32003 ? " (the pre-release number of MissingRequiredClientCapability, now -32021)" : ""}; receivers must not assume its meaning.`,
    });
  }
}

/** err-missing-cap-expected, the CallToolResult variant: `isError: true` whose text blames a missing elicitation capability. */
export function checkToolErrorResult(
  result: Record<string, unknown>,
  at: string,
  requestDeclaredElicitation: boolean,
  report: Report,
): void {
  if (result.isError !== true || requestDeclaredElicitation) return;
  if (!MENTIONS_ELICITATION.test(JSON.stringify(result.content ?? "") + JSON.stringify(result.structuredContent ?? "")))
    return;
  report({
    rule: "err-missing-cap-expected",
    pointer: `${at}/result/isError`,
    message:
      "Missing elicitation capability signalled with a tool error result; 2026-07-28 servers must use -32021 with data.requiredCapabilities.",
  });
}

export const errors: RuleModule = {
  meta,
  create: ({ report }) => ({
    serverResponse({ msg, req, flow, result, error, modern }) {
      const { at, exchange } = msg;
      if (result) {
        if (modern && req.method === "tools/call")
          checkToolErrorResult(result, at, declaresElicitation(req.caps), report);
        return;
      }
      const code = error!.code;
      if (code === -32042) return;
      if (code === -32021 && modern) checkMissingCapError(error!, at, exchange?.status, req.caps, report);
      if (modern) checkOtherModernError(error!, at, declaresElicitation(req.caps), flow !== null, report);
    },
    urlRequired({ msg, error, revision, caps }) {
      checkUrlRequiredError(error, msg.at, revision, caps, report);
    },
    urlRetry({ msg, req, idReused }) {
      if (idReused)
        report({
          rule: "err-url-required-retry-new-id",
          pointer: `${msg.at}/id`,
          message: `Retry after -32042 reuses the failed request's id ${JSON.stringify(req.id)}.`,
        });
    },
  }),
};
