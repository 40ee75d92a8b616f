import { test } from "node:test";
import assert from "node:assert/strict";
import { expectNone, expectOne, of, params, urlEp } from "./harness.ts";

const R3 = "/result/inputRequests/q/params";
const r3 = (url: string, extra: Record<string, unknown> = {}) => params({ mode: "url", message: "Please connect your billing account to continue", url, ...extra }, "2026-07-28", "input-request", R3);

test("url-required-fields: catalogue example (2025-11-25 without elicitationId)", () => {
  const ep = { mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account to continue" };
  expectOne(params(ep), "url-required-fields", "error", "/params");
  expectOne(params({ mode: "url", message: "Connect your account to continue", elicitationId: "e1" }), "url-required-fields", "error", "/params");
  expectOne(params({ ...ep, elicitationId: 7 }), "url-required-fields", "error", "/params/elicitationId");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "url-required-fields");
  expectNone(r3("https://mcp.example.com/connect"), "url-required-fields");
  expectNone(params(ep, null), "url-required-fields");
  expectNone(params(ep, "2025-06-18"), "url-required-fields");
});

test("url-required-fields: a -32042 entry's shape is left to err-url-required-shape", () => {
  expectNone(params({ mode: "url", url: "https://mcp.example.com/connect", message: "Connect your account" }, "2025-11-25", "url-required-error", "/error/data/elicitations/0"), "url-required-fields");
});

test("url-valid: catalogue example (relative path), whitespace, missing scheme", () => {
  expectOne(params(urlEp("/connect?x=1")), "url-valid", "error", "/params/url");
  expectOne(params(urlEp("https://mcp.example.com/a b")), "url-valid", "error", "/params/url");
  expectOne(params(urlEp("mcp.example.com/connect")), "url-valid", "error", "/params/url");
  expectOne(params(urlEp("https:mcp.example.com")), "url-valid", "error", "/params/url");
  expectOne(params(urlEp("/connect"), "2025-11-25", "url-required-error", "/error/data/elicitations/0"), "url-valid", "error", "/error/data/elicitations/0/url");
  expectNone(params(urlEp("https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000")), "url-valid");
});

test("url-https: catalogue example (http) is a warning, loopback info, script schemes error", () => {
  expectOne(params(urlEp("http://billing.example.com/connect")), "url-https", "warning", "/params/url");
  expectOne(params(urlEp("http://localhost:3000/connect")), "url-https", "info", "/params/url");
  expectOne(params(urlEp("http://127.0.0.1/connect")), "url-https", "info", "/params/url");
  expectOne(params(urlEp("http://[::1]:8080/connect")), "url-https", "info", "/params/url");
  expectOne(params(urlEp("javascript:alert(1)")), "url-https", "error", "/params/url");
  expectOne(params(urlEp("data:text/html,hi")), "url-https", "error", "/params/url");
  expectOne(params(urlEp("file:///etc/passwd")), "url-https", "error", "/params/url");
  expectOne(r3("vbscript:msgbox"), "url-https", "error", `${R3}/url`);
  expectNone(params(urlEp("https://billing.example.com/connect")), "url-https");
});

test("url-no-sensitive-data: catalogue example (email and api_key), never repeating values", () => {
  const f = expectOne(params(urlEp("https://mcp.example.com/connect?email=ada%40example.com&api_key=sk-123")), "url-no-sensitive-data", "error", "/params/url");
  assert.match(f.message, /"email".*"api_key"/);
  assert.ok(!f.message.includes("ada"), f.message);
  expectOne(params(urlEp("https://ada:hunter2@mcp.example.com/connect")), "url-no-sensitive-data", "error", "/params/url");
  expectOne(params(urlEp("https://mcp.example.com/connect#access_token=abc")), "url-no-sensitive-data", "error", "/params/url");
  expectOne(params(urlEp("https://mcp.example.com/u/ada@example.com/settings")), "url-no-sensitive-data", "error", "/params/url");
  expectOne(params(urlEp("https://mcp.example.com/c?ref=ghp_abcdefghijklmnopqrstuvwxyz0123456789")), "url-no-sensitive-data", "error", "/params/url");
});

test("url-no-sensitive-data: OAuth state, client_id, elicitationId and short keys are benign", () => {
  expectNone(params(urlEp("https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000&state=a8f3b2c9d1e0f7a6b5c4&client_id=abc123")), "url-no-sensitive-data");
  expectNone(params(urlEp("https://mcp.example.com/docs?key=intro")), "url-no-sensitive-data");
  expectNone(params(urlEp("https://mcp.example.com/ui/set_api_key")), "url-no-sensitive-data");
});

test("url-not-preauthenticated: catalogue example (S3 signed URL), Azure SAS, magic links, codes", () => {
  expectOne(params(urlEp("https://files.example.com/report.pdf?X-Amz-Signature=ab12&X-Amz-Credential=AKIA...")), "url-not-preauthenticated", "error", "/params/url");
  expectOne(params(urlEp("https://acct.blob.core.windows.net/c/f.pdf?sp=r&se=2026-01-01&sig=abc%3D")), "url-not-preauthenticated", "error", "/params/url");
  expectOne(params(urlEp("https://app.example.com/login?magic=9f8e7d6c5b4a")), "url-not-preauthenticated", "error", "/params/url");
  expectOne(r3("https://app.example.com/finish?code=SplxlOBeZQQYbYS6WxSbIA"), "url-not-preauthenticated", "error", `${R3}/url`);
  expectNone(params(urlEp("https://mcp.example.com/oauth/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz")), "url-not-preauthenticated");
  expectNone(params(urlEp("https://shop.example.com/redeem?code=SUMMER")), "url-not-preauthenticated");
  expectNone(params(urlEp("https://mcp.example.com/connect?session=1")), "url-not-preauthenticated");
});

test("url-elicitation-id-removed: catalogue example (2026-07-28 input request with elicitationId)", () => {
  const irr = { mode: "url", url: "https://billing.example/connect?state=abc123", message: "Sign in", elicitationId: "billing-abc123" };
  const at = "/result/inputRequests/elicitation-1/params";
  expectOne(params(irr, "2026-07-28", "input-request", at), "url-elicitation-id-removed", "warning", `${at}/elicitationId`);
  expectNone(params(irr, "2025-11-25"), "url-elicitation-id-removed");
  expectNone(params(irr, null), "url-elicitation-id-removed");
  expectNone(r3("https://billing.example/connect?state=abc123"), "url-elicitation-id-removed");
});

test("url-punycode: catalogue example (xn--), deceptive subdomain; violator none", () => {
  const f = expectOne(params(urlEp("https://xn--pypal-4ve.com/login")), "url-punycode", "info", "/params/url");
  assert.equal(f.violator, "none");
  expectOne(params(urlEp("https://paypal.com.evil.example/login")), "url-punycode", "info", "/params/url");
  expectOne(params(urlEp("https://pаypal.com/login")), "url-punycode", "info", "/params/url");
  expectNone(params(urlEp("https://mcp.example.com/connect")), "url-punycode");
  expectNone(params(urlEp("https://shop.example.com.au/connect")), "url-punycode");
  expectNone(params(urlEp("https://api.dev.example.com/connect")), "url-punycode");
});

test("URL rules do not apply in 2025-06-18", () => {
  const found = params({ mode: "url", message: "Go", url: "http://user:pw@xn--pypal-4ve.com/?X-Amz-Signature=1" }, "2025-06-18");
  assert.deepEqual(found.filter((f) => f.rule.startsWith("url-")), []);
});

test("a -32042 entry gets the URL rules", () => {
  const at = "/error/data/elicitations/0";
  const found = params(urlEp("http://mcp.example.com/connect?token=abc"), "2025-11-25", "url-required-error", at);
  expectOne(found, "url-https", "warning", `${at}/url`);
  expectOne(found, "url-no-sensitive-data", "error", `${at}/url`);
  assert.deepEqual(of(found, "req-cross-mode-fields"), []);
});
