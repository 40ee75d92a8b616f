import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ask,
  captureBuilder,
  error,
  expectFinding,
  expectNone,
  findingsOf,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";

// rules.md url-not-mcp-authorization: a URL elicitation whose URL is the authorization endpoint of the MCP server's
// own authorization server, as the page learned it from the server's Protected Resource Metadata and that
// authorization server's metadata (HAR imports keep those fields on page-request records).

const AUTHORIZE = "https://auth.mcp.example.com/authorize";
const signIn = `${AUTHORIZE}?client_id=c1&resource=${encodeURIComponent("http://127.0.0.1:3000/mcp")}`;

/** The page fetches the MCP server's PRM and its authorization server's metadata (captureBuilder's server is 127.0.0.1:3000). */
function discovery(b: ReturnType<typeof captureBuilder>, resource = "http://127.0.0.1:3000/mcp"): void {
  b.pageRequest("http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", "GET", { resource, authorizationServers: ["https://auth.mcp.example.com"] });
  b.pageRequest("https://auth.mcp.example.com/.well-known/oauth-authorization-server", "GET", { issuer: "https://auth.mcp.example.com/", authorizationEndpoint: AUTHORIZE });
}

test("url-not-mcp-authorization (2025-11-25): the server elicits its own authorization endpoint (catalogue example)", () => {
  const b = captureBuilder();
  discovery(b);
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", urlParams("e1", signIn, "Sign in to continue")));
  const r = b.analyze();
  const f = expectFinding(r, "url-not-mcp-authorization", { severity: "warning", violator: "server", pointer: "/params/url" });
  assert.equal(f.flow, r.flows[0]!.id);
  assert.match(f.message, /authorization endpoint of https:\/\/auth\.mcp\.example\.com/);
});

test("url-not-mcp-authorization: metadata fetched after the elicitation still counts, once; -32042 entries and MRTR too", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(1), error(1, -32042, "URL elicitation required", { elicitations: [urlParams("e1", signIn)] }), h);
  discovery(b);
  discovery(b);
  const r = b.analyze();
  expectFinding(r, "url-not-mcp-authorization", { pointer: "/error/data/elicitations/0/url" });
  assert.equal(findingsOf(r, "url-not-mcp-authorization").length, 1);

  const m = captureBuilder();
  discovery(m);
  m.call(toolCall(1), result(1, irr({ auth: ask({ mode: "url", url: signIn, message: "Sign in" }) }, "st")), modernHeaders("tools/call", "deploy"));
  expectFinding(m.analyze(), "url-not-mcp-authorization", { pointer: "/result/inputRequests/auth/params/url" });
});

test("url-not-mcp-authorization: clean for a third party's sign-in, another resource's server, or no metadata", () => {
  const third = captureBuilder();
  discovery(third);
  const h = legacySession(third);
  const x = streamCall(third, legacyToolCall(1), h);
  third.sse(x, request(7, "elicitation/create", urlParams("e1", "https://github.com/login/oauth/authorize?client_id=abc", "Connect GitHub")));
  expectNone(third.analyze(), "url-not-mcp-authorization");

  const other = captureBuilder();
  discovery(other, "https://other.example.com/mcp");
  const h2 = legacySession(other);
  const y = streamCall(other, legacyToolCall(1), h2);
  other.sse(y, request(7, "elicitation/create", urlParams("e1", signIn)));
  expectNone(other.analyze(), "url-not-mcp-authorization");

  const none = captureBuilder();
  const h3 = legacySession(none);
  const z = streamCall(none, legacyToolCall(1), h3);
  none.sse(z, request(7, "elicitation/create", urlParams("e1", signIn)));
  expectNone(none.analyze(), "url-not-mcp-authorization");
});
