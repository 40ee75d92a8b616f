// URL-mode rules (rules.md §3.6); the clauses are 2025-11-25 and 2026-07-28 client/elicitation.mdx
// § "URL Mode Elicitation Requests" and § "Safe URL Handling".
import type { AskedWhere } from "../model/scope.ts";
import type { CheckContext } from "../ruleKit/context.ts";
import type { RuleId, RuleMeta } from "../ruleKit/types.ts";
import { secretValue } from "../../util/secrets.ts";
import { has, isAbsoluteUri, isEmail, isR2Plus, jsonType, ptr } from "../ruleKit/validate.ts";
import type { Era, Json } from "../ruleKit/validate.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "url-required-fields",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "URL mode missing `mode`, `message`, `url` (and `elicitationId` in 2025-11-25)",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-valid",
    severity: "error",
    severityNote: "error",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`url` is not an absolute URI",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-https",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`url` is not https (loopback: info)",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-no-sensitive-data",
    severity: "error",
    severityNote: "error (heuristic)",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "heuristic",
    title: "Credentials or PII in the URL",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-not-preauthenticated",
    severity: "error",
    severityNote: "error (heuristic)",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "heuristic",
    title: "Pre-authenticated or signed URL",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-elicitation-id-removed",
    severity: "warning",
    severityNote: "warning",
    revisions: "2026-07-28",
    violator: "server",
    detection: "exact",
    title: "`elicitationId` present (removed in 2026-07-28)",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-punycode",
    severity: "info",
    severityNote: "info",
    revisions: "2025-11-25, 2026-07-28",
    violator: "none",
    violatorNote: "(client UI)",
    detection: "exact",
    title: "Punycode or confusable host",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
];

/** The URL family on one EP: elicitationId removed (2026-07-28), and the URL-mode rules of a URL request or a -32042 entry. */
export function checkUrl(ep: Json, at: string, ctx: CheckContext, era: Era, where: AskedWhere, mode: string): void {
  // A -32042 in 2026-07-28 is already err-url-required-revision; its elicitationId is part of that mistake.
  if (era === "2026-07-28" && where !== "url-required-error" && ctx.on("url-elicitation-id-removed"))
    checkElicitationIdRemoved(ep, at, ctx);
  if (where === "url-required-error") {
    if (isR2Plus(era)) checkUrlParams(ep, at, ctx, era, true);
  } else if (mode === "url") checkUrlParams(ep, at, ctx, era, false);
}

export function checkUrlParams(ep: Json, at: string, ctx: CheckContext, era: Era, fromError: boolean): void {
  const { report, on } = ctx;
  // A -32042 entry's shape is err-url-required-shape's; reporting it again here would double every finding.
  if (!fromError && on("url-required-fields")) {
    const required = ["url", ...(era === "2025-11-25" ? ["elicitationId"] : [])];
    for (const key of required) {
      if (typeof ep[key] === "string") continue;
      report({
        rule: "url-required-fields",
        pointer: has(ep, key) ? ptr(at, key) : at,
        message: has(ep, key)
          ? `URL-mode ${key} must be a string but is ${jsonType(ep[key])}.`
          : `This URL-mode request has no ${key}${key === "elicitationId" ? ", which 2025-11-25 requires" : ""}.`,
      });
    }
  }
  const url = ep.url;
  if (typeof url !== "string") return;
  const at2 = ptr(at, "url");
  // The URL rules below read a valid URL only.
  if (!isAbsoluteUri(url)) {
    if (on("url-valid"))
      report({
        rule: "url-valid",
        pointer: at2,
        message: `url ${JSON.stringify(url.length > 80 ? url.slice(0, 80) + "…" : url)} is not an absolute URI (scheme, host, no spaces); the url MUST contain a valid URL.`,
      });
    return;
  }
  const checks = URL_CHECKS.filter(([rule]) => on(rule));
  if (checks.length === 0) return;
  const u = new URL(url);
  for (const [, check] of checks) check(u, at2, ctx);
}

/** 2026-07-28 changelog, Minor change 11: elicitationId was removed (servers correlate through requestState). */
export function checkElicitationIdRemoved(ep: Json, at: string, ctx: CheckContext): void {
  if (has(ep, "elicitationId"))
    ctx.report({
      rule: "url-elicitation-id-removed",
      pointer: ptr(at, "elicitationId"),
      message: "elicitationId was removed in 2026-07-28; carry your own correlation id in requestState instead.",
    });
}

const DANGEROUS = new Set(["javascript:", "data:", "file:", "vbscript:"]);
const isLoopback = (host: string): boolean =>
  host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";

// Server item 4: "SHOULD use HTTPS URLs for non-development environments"; clients "MUST handle URLs
// carefully to prevent users from unknowingly clicking malicious links" (hence error for script schemes).
function checkScheme(u: URL, at: string, ctx: CheckContext): void {
  if (u.protocol === "https:") return;
  if (DANGEROUS.has(u.protocol)) {
    ctx.report({
      rule: "url-https",
      severity: "error",
      pointer: at,
      message: `url uses the ${u.protocol} scheme, which can run code or read local data when opened; URL elicitation must use https.`,
    });
  } else if (u.protocol === "http:" && isLoopback(u.hostname)) {
    ctx.report({
      rule: "url-https",
      severity: "info",
      pointer: at,
      message: `url is plain http to ${u.hostname}; fine for local development, but use https anywhere else.`,
    });
  } else {
    ctx.report({
      rule: "url-https",
      pointer: at,
      message: `url uses ${u.protocol.slice(0, -1)}, not https; servers SHOULD use HTTPS URLs outside development.`,
    });
  }
}

const norm = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");
const params = (u: URL): [string, string][] => [
  ...u.searchParams,
  ...(u.hash.includes("=") ? new URLSearchParams(u.hash.slice(1)) : []),
];

// Server item 1: "MUST NOT include sensitive information about the end-user, including credentials,
// personal identifiable information, etc., in the URL". OAuth state, client_id and elicitationId are benign.
const SENSITIVE = new Set([
  "password",
  "pass",
  "passwd",
  "pwd",
  "secret",
  "clientsecret",
  "token",
  "accesstoken",
  "idtoken",
  "refreshtoken",
  "apikey",
  "ssn",
  "email",
  "phone",
  "dob",
]);
const BENIGN = new Set(["state", "clientid", "elicitationid"]);
const highEntropy = (v: string): boolean =>
  v.length >= 20 && /[A-Za-z]/.test(v) && /\d/.test(v) && new Set(v).size >= 10;

function checkSensitive(u: URL, at: string, ctx: CheckContext): void {
  const reasons: string[] = [];
  if (u.username || u.password) reasons.push("user info (user:password@) before the host");
  for (const [name, value] of params(u)) {
    const n = norm(name);
    if (BENIGN.has(n) || !value) continue;
    const looks = isEmail(value) ? "an email address" : secretValue(value, { cards: false });
    if (SENSITIVE.has(n) || (n === "key" && highEntropy(value))) reasons.push(`parameter "${name}"`);
    else if (looks) reasons.push(`parameter "${name}" holding ${looks}`);
  }
  for (const segment of u.pathname.split("/")) {
    let s = segment;
    try {
      s = decodeURIComponent(segment);
    } catch {
      // keep it encoded
    }
    const looks = isEmail(s) ? "an email address" : secretValue(s, { cards: false });
    if (looks) reasons.push(`a path segment holding ${looks}`);
  }
  if (reasons.length)
    ctx.report({
      rule: "url-no-sensitive-data",
      pointer: at,
      message: `url carries sensitive data (${reasons.join(", ")}); URL elicitation must not put credentials or personal information in the URL.`,
    });
}

// Server item 2: "MUST NOT provide a URL which is pre-authenticated to access a protected resource".
const SIGNED = new Set(["xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogsignature", "xgoogcredential"]);
const MAGIC = new Set(["logintoken", "magic", "magiclink", "otp", "auth", "session", "sessionid", "sid"]);

function checkPreauthenticated(u: URL, at: string, ctx: CheckContext): void {
  const list = params(u);
  const names = new Set(list.map(([n]) => norm(n)));
  const reasons: string[] = [];
  for (const [name, value] of list) {
    const n = norm(name);
    if (SIGNED.has(n)) reasons.push(`a cloud signature parameter "${name}"`);
    else if (MAGIC.has(n) && value.length >= 8) reasons.push(`a login parameter "${name}"`);
    // An authorization code outside a callback lets whoever opens the link finish someone else's login.
    else if (n === "code" && value.length >= 16 && !/callback|redirect/i.test(u.pathname))
      reasons.push(`an authorization code parameter "${name}"`);
  }
  if (names.has("sig") && (names.has("se") || names.has("sp"))) reasons.push("an Azure SAS signature (sig with se/sp)");
  if (names.has("signature") && (names.has("keypairid") || names.has("expires")))
    reasons.push("a CloudFront signature");
  if (reasons.length)
    ctx.report({
      rule: "url-not-preauthenticated",
      pointer: at,
      message: `url looks pre-authenticated (${reasons.join(", ")}); URL elicitation must not hand out a link that already grants access to a protected resource.`,
    });
}

// Client items 5-6: highlight the domain against subdomain spoofing, warn on Punycode. WHATWG URL has
// already turned any non-ASCII host into xn-- labels.
// Only TLDs that are almost never ordinary subdomain labels (unlike "dev", "app").
const COMMON_TLD = new Set(["com", "net", "org", "io", "gov", "edu"]);

function checkHost(u: URL, at: string, ctx: CheckContext): void {
  const labels = u.hostname.split(".");
  const reasons: string[] = [];
  if (labels.some((l) => l.startsWith("xn--")))
    reasons.push("it has Punycode (xn--) labels that may imitate another domain");
  // "paypal.com.evil.example": a well-known TLD followed by more labels (but not "example.com.au").
  const inner = labels.findIndex(
    (l, i) =>
      i > 0 &&
      COMMON_TLD.has(l) &&
      (i < labels.length - 2 || (i === labels.length - 2 && (labels[i + 1]?.length ?? 0) > 2)),
  );
  if (inner > 0)
    reasons.push(
      `"${labels.slice(0, inner + 1).join(".")}" is only a subdomain of ${labels.slice(inner + 1).join(".")}`,
    );
  if (reasons.length)
    ctx.report({
      rule: "url-punycode",
      violator: "none",
      pointer: at,
      message: `The url host ${u.hostname} looks deceptive: ${reasons.join("; ")}; clients should show the real domain prominently.`,
    });
}

/** The checks of a valid URL, by rule, in the order their findings come. */
const URL_CHECKS: readonly [RuleId, (u: URL, at: string, ctx: CheckContext) => void][] = [
  ["url-https", checkScheme],
  ["url-no-sensitive-data", checkSensitive],
  ["url-not-preauthenticated", checkPreauthenticated],
  ["url-punycode", checkHost],
];
