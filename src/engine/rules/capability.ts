// Capability gating (rules.md §3.1): what the client declared, per session (2025-xx, initialize) or per
// request (2026-07-28, _meta clientCapabilities), and elicitations or answers that go beyond it.
import { hasUrlMode, isModern, META_CLIENT_CAPABILITIES, type Revision } from "../../protocol/revision.ts";
import { isEmptyObject, isObject } from "../../util/json.ts";
import { pointer } from "../../util/pointer.ts";
import { declaredModes, declaresElicitation } from "../caps.ts";
import type { Scope } from "../model/scope.ts";
import type { Report, RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "cap-client-shape",
    severity: "error",
    severityNote: "error / warning",
    revisions: "all",
    violator: "client",
    detection: "exact",
    title: "`elicitation`, `form` or `url` not an object; non-empty object with no mode",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "cap-elicitation-undeclared",
    severity: "error",
    severityNote: "error",
    revisions: "all",
    violator: "server",
    detection:
      "2025-06-18 and 2025-11-25: stateful (needs `initialize`). 2026-07-28: exact (the request and its response).",
    title: "Elicitation sent although CAPS has no `elicitation`",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "cap-mode-undeclared",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact (2026-07-28) or stateful (2025-11-25)",
    title: "Mode not declared (`{}` = form only; `{url:{}}` = URL only)",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "cap-per-request",
    severity: "error",
    severityNote: "error",
    revisions: "2026-07-28",
    violator: "server",
    detection: "stateful",
    title: "Capabilities carried over from an earlier request",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "cap-client-declares-per-request",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "client",
    detection: "stateful",
    title: "Answers elicitation but omits `elicitation` from this request's `_meta`",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "cap-client-rejects-undeclared-mode",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25",
    violator: "client",
    detection: "stateful",
    title: "Did not answer -32602 to an undeclared mode",
    section: "3.1",
    spec: { revision: null, path: "client/elicitation" },
  },
];

/** Where a 2026-07-28 request's clientCapabilities sit (RFC 6901: "/" in the key is "~1"). */
const CAPS_POINTER = pointer("params", "_meta", META_CLIENT_CAPABILITIES);

const kind = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;

/**
 * cap-client-shape: `elicitation`, `form` and `url` are objects (schema.ts ClientCapabilities); a non-empty
 * `elicitation` object must name a mode ("Clients declaring the elicitation capability MUST support at least one mode").
 * `at` points at the capabilities object.
 */
export function checkClientCapsShape(caps: unknown, at: string, revision: Revision | null, report: Report): void {
  if (!isObject(caps) || !("elicitation" in caps)) return;
  const decl = caps.elicitation;
  if (!isObject(decl)) {
    report({
      rule: "cap-client-shape",
      pointer: `${at}/elicitation`,
      message: `capabilities.elicitation is ${kind(decl)}; it must be an object.`,
    });
    return;
  }
  if (revision === "2025-06-18") return;
  for (const mode of ["form", "url"] as const) {
    if (mode in decl && !isObject(decl[mode])) {
      report({
        rule: "cap-client-shape",
        pointer: `${at}/elicitation/${mode}`,
        message: `capabilities.elicitation.${mode} is ${kind(decl[mode])}; it must be an object.`,
      });
    }
  }
  // The member list is made only for the message.
  if (!("form" in decl) && !("url" in decl) && !isEmptyObject(decl)) {
    const keys = Object.keys(decl);
    report({
      rule: "cap-client-shape",
      severity: "warning",
      pointer: `${at}/elicitation`,
      message: `capabilities.elicitation {${keys.join(", ")}} names neither form nor url, so it declares no mode; only an empty object means form.`,
    });
  }
}

/** cap-elicitation-undeclared and cap-mode-undeclared for one elicitation request (§3.1). */
export function checkModeDeclared(
  caps: unknown,
  capsAt: string,
  revision: Revision | null,
  mode: string,
  at: string,
  report: Report,
): void {
  const modes = declaredModes(caps, revision);
  if (modes.size === 0) {
    report({
      rule: "cap-elicitation-undeclared",
      pointer: at,
      message: `Server sent an elicitation although the client's capabilities (${capsAt}) declare no elicitation.`,
    });
  } else if (hasUrlMode(revision) && (mode === "form" || mode === "url") && !modes.has(mode)) {
    report({
      rule: "cap-mode-undeclared",
      pointer: at,
      message: `Server sent a ${mode}-mode elicitation but the client declared only ${[...modes].join(" and ")} mode.`,
    });
  }
}

export const capability: RuleModule = {
  meta,
  create({ report, on }) {
    /** 2026-07-28 scopes in which some request declared elicitation (cap-per-request). */
    const declared = new WeakSet<Scope>();
    return {
      clientRequest({ msg, req, modern, revision }) {
        if (req.method === "initialize") {
          const pv = req.params.protocolVersion;
          if (on("cap-client-shape"))
            checkClientCapsShape(
              req.params.capabilities,
              `${msg.at}/params/capabilities`,
              typeof pv === "string" ? pv : null,
              report,
            );
        } else if (modern) {
          if (req.caps !== undefined && on("cap-client-shape"))
            checkClientCapsShape(req.caps, `${msg.at}${CAPS_POINTER}`, revision, report);
          if (declaresElicitation(req.caps)) declared.add(msg.scope);
        }
      },
      elicitationAsked({ msg, where, req, revision, mode, pointer: p }) {
        if (!on("cap-elicitation-undeclared") && !on("cap-mode-undeclared") && !on("cap-per-request")) return;
        if (where === "server-request") {
          if (msg.scope.initializeSeen && !isModern(revision))
            checkModeDeclared(msg.scope.caps, "initialize params.capabilities", revision, mode, p, report);
        } else if (where === "input-request" && req) {
          checkModeDeclared(req.caps, "this request's _meta clientCapabilities", req.revision, mode, p, report);
          if (
            on("cap-per-request") &&
            !declaresElicitation(req.caps) &&
            declared.has(msg.scope) &&
            req.caps !== undefined
          ) {
            report({
              rule: "cap-per-request",
              pointer: p,
              message:
                "An earlier request declared elicitation but this one did not, yet the server elicits: capabilities must not be carried over.",
            });
          }
        }
      },
      elicitationAnswered({ kind, asked, revision, pointer: p }) {
        if (kind === "server-request" && asked?.undeclaredMode && revision === "2025-11-25") {
          report({
            rule: "cap-client-rejects-undeclared-mode",
            pointer: p,
            message: `Client answered a ${asked.mode}-mode elicitation it never declared with a result; it must answer -32602.`,
          });
        }
      },
      retryAnswered({ msg, req, flow, round }) {
        if (!on("cap-client-declares-per-request") || !flow) return;
        const modes = declaredModes(req.caps, req.revision);
        let lacking: string | undefined;
        for (const e of flow.elicitations) {
          if (e.round === round && !modes.has(e.mode)) {
            lacking = e.mode;
            break;
          }
        }
        if (lacking !== undefined || modes.size === 0) {
          report({
            rule: "cap-client-declares-per-request",
            pointer: `${msg.at}/params/_meta`,
            message:
              modes.size === 0
                ? "Retry answers an elicitation but its own _meta clientCapabilities omit elicitation."
                : `Retry answers a ${lacking}-mode elicitation but its clientCapabilities do not declare that mode.`,
          });
        }
      },
    };
  },
};
