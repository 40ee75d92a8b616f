import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/url.ts";
import type { RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import { asked, epPointer, ruleTester, type AskedAt, type Case, type InvalidCase } from "./ruleTester.ts";

const AT = epPointer["server-request"];
const ERR = epPointer["url-required-error"];
/** A URL EP (2025-11-25 shape, with elicitationId). */
const urlEp = (url: string, extra: Record<string, unknown> = {}) => ({
  mode: "url",
  message: "Please connect your billing account to continue",
  url,
  elicitationId: "550e8400-e29b-41d4-a716-446655440000",
  ...extra,
});
/** The same without elicitationId, as a 2026-07-28 input request. */
const r3 = (url: string) => ({ mode: "url", message: "Please connect your billing account to continue", url });
const input: AskedAt = { where: "input-request" };

/** An invalid case: `ep` asked as `at` says, with one finding at `pointer` (relative to the EP; default its url). */
const one = (
  name: string,
  ep: unknown,
  rule: RuleId,
  severity: Severity,
  at: AskedAt = {},
  pointer = "/url",
): InvalidCase => ({
  name: `${rule}: ${name}`,
  capture: asked(ep, at),
  findings: [{ rule, severity, pointer: epPointer[at.where ?? "server-request"] + pointer }],
});
const clean = (name: string, ep: unknown, at: AskedAt = {}): Case => ({ name, capture: asked(ep, at) });

const noId = { mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account to continue" };
const withId = {
  mode: "url",
  url: "https://billing.example/connect?state=abc123",
  message: "Sign in to billing",
  elicitationId: "billing-abc123",
};

const valid: Case[] = [
  clean("a URL request with its elicitationId", urlEp("https://mcp.example.com/connect")),
  clean("a 2026-07-28 URL request without elicitationId", r3("https://mcp.example.com/connect"), input),
  clean("url-required-fields: no elicitationId outside a known session", noId, { revision: null }),
  clean("url-required-fields: a -32042 entry's shape is left to err-url-required-shape", noId, {
    where: "url-required-error",
  }),
  clean(
    "a URL that names its elicitation",
    urlEp("https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000"),
  ),
  clean(
    "OAuth state, client_id and elicitationId are benign",
    urlEp(
      "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000&state=a8f3b2c9d1e0f7a6b5c4&client_id=abc123",
    ),
  ),
  clean("a short key", urlEp("https://mcp.example.com/docs?key=intro")),
  clean("a path that names an API key page", urlEp("https://mcp.example.com/ui/set_api_key")),
  clean(
    "an OAuth callback's code",
    urlEp("https://mcp.example.com/oauth/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz"),
  ),
  clean("a coupon code", urlEp("https://shop.example.com/redeem?code=SUMMER")),
  clean("a session number", urlEp("https://mcp.example.com/connect?session=1")),
  clean("url-elicitation-id-removed: an elicitationId in 2025-11-25", withId),
  clean("url-elicitation-id-removed: an elicitationId outside a known session", withId, { revision: null }),
  clean("a public suffix of two labels", urlEp("https://shop.example.com.au/connect")),
  clean("a deep subdomain", urlEp("https://api.dev.example.com/connect")),
  clean(
    "no URL rule applies in 2025-06-18",
    { mode: "url", message: "Go to the page", url: "http://user:pw@xn--pypal-4ve.com/?X-Amz-Signature=1" },
    { revision: "2025-06-18" },
  ),
];

const invalid: InvalidCase[] = [
  one("catalogue example (2025-11-25 without elicitationId)", noId, "url-required-fields", "error", {}, ""),
  one(
    "no url",
    { mode: "url", message: "Connect your account to continue", elicitationId: "e1" },
    "url-required-fields",
    "error",
    {},
    "",
  ),
  one(
    "an elicitationId that is not a string",
    { ...noId, elicitationId: 7 },
    "url-required-fields",
    "error",
    {},
    "/elicitationId",
  ),
  one("catalogue example (relative path)", urlEp("/connect?x=1"), "url-valid", "error"),
  one("whitespace", urlEp("https://mcp.example.com/a b"), "url-valid", "error"),
  one("missing scheme", urlEp("mcp.example.com/connect"), "url-valid", "error"),
  one("no slashes after the scheme", urlEp("https:mcp.example.com"), "url-valid", "error"),
  one("in a -32042 entry", urlEp("/connect"), "url-valid", "error", { where: "url-required-error" }),
  one("catalogue example (http)", urlEp("http://billing.example.com/connect"), "url-https", "warning"),
  one("http on localhost is info", urlEp("http://localhost:3000/connect"), "url-https", "info"),
  one("http on 127.0.0.1 is info", urlEp("http://127.0.0.1/connect"), "url-https", "info"),
  one("http on [::1] is info", urlEp("http://[::1]:8080/connect"), "url-https", "info"),
  one("javascript:", urlEp("javascript:alert(1)"), "url-https", "error"),
  one("data:", urlEp("data:text/html,hi"), "url-https", "error"),
  one("file:", urlEp("file:///etc/passwd"), "url-https", "error"),
  one("vbscript: in 2026-07-28", r3("vbscript:msgbox"), "url-https", "error", input),
  {
    ...one(
      "catalogue example (email and api_key), never repeating values",
      urlEp("https://mcp.example.com/connect?email=ada%40example.com&api_key=sk-123"),
      "url-no-sensitive-data",
      "error",
    ),
    also: ({ findings }) => {
      assert.match(findings[0]!.message, /"email".*"api_key"/);
      assert.ok(!findings[0]!.message.includes("ada"), findings[0]!.message);
    },
  },
  one(
    "credentials in the authority",
    urlEp("https://ada:hunter2@mcp.example.com/connect"),
    "url-no-sensitive-data",
    "error",
  ),
  one(
    "a token in the fragment",
    urlEp("https://mcp.example.com/connect#access_token=abc"),
    "url-no-sensitive-data",
    "error",
  ),
  one(
    "an email address in the path",
    urlEp("https://mcp.example.com/u/ada@example.com/settings"),
    "url-no-sensitive-data",
    "error",
  ),
  one(
    "a GitHub token",
    urlEp("https://mcp.example.com/c?ref=ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    "url-no-sensitive-data",
    "error",
  ),
  one(
    "catalogue example (S3 signed URL)",
    urlEp("https://files.example.com/report.pdf?X-Amz-Signature=ab12&X-Amz-Credential=AKIA..."),
    "url-not-preauthenticated",
    "error",
  ),
  one(
    "Azure SAS",
    urlEp("https://acct.blob.core.windows.net/c/f.pdf?sp=r&se=2026-01-01&sig=abc%3D"),
    "url-not-preauthenticated",
    "error",
  ),
  one("a magic link", urlEp("https://app.example.com/login?magic=9f8e7d6c5b4a"), "url-not-preauthenticated", "error"),
  one(
    "an authorization code (2026-07-28)",
    r3("https://app.example.com/finish?code=SplxlOBeZQQYbYS6WxSbIA"),
    "url-not-preauthenticated",
    "error",
    input,
  ),
  one(
    "catalogue example (2026-07-28 input request with elicitationId)",
    withId,
    "url-elicitation-id-removed",
    "warning",
    input,
    "/elicitationId",
  ),
  {
    ...one("catalogue example (xn--)", urlEp("https://xn--pypal-4ve.com/login"), "url-punycode", "info"),
    findings: [{ rule: "url-punycode", severity: "info", pointer: `${AT}/url`, violator: "none" }],
  },
  one("a deceptive subdomain", urlEp("https://paypal.com.evil.example/login"), "url-punycode", "info"),
  one("a Cyrillic a", urlEp("https://pаypal.com/login"), "url-punycode", "info"),
  {
    name: "a -32042 entry gets the URL rules",
    capture: asked(urlEp("http://mcp.example.com/connect?token=abc"), { where: "url-required-error" }),
    findings: [
      { rule: "url-https", severity: "warning", pointer: `${ERR}/url` },
      { rule: "url-no-sensitive-data", severity: "error", pointer: `${ERR}/url` },
    ],
  },
];

ruleTester("url", meta, { valid, invalid });
