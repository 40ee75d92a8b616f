// URL-mode elicitations followed across a flow: url-elicitation-id-unique, and the two rules only a HAR can show,
// which read the page's other requests (`page-request` records): url-no-prefetch (the page requests the URL before
// the user consents) and url-not-mcp-authorization (the URL is the authorization endpoint of the MCP server's own
// authorization server, as the page learned it from the Protected Resource Metadata and that server's metadata).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/urlFlow.ts";
import {
  ask,
  done,
  error,
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
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const H = modernHeaders("tools/call", "deploy");
const SET_KEY = "https://mcp.example.com/ui/set_api_key";
const AUTHORIZE = "https://auth.mcp.example.com/authorize";
const signIn = `${AUTHORIZE}?client_id=c1&resource=${encodeURIComponent("http://127.0.0.1:3000/mcp")}`;
const sameFlow = ({
  findings,
  flows,
}: {
  findings: readonly { flow: string | null }[];
  flows: readonly { id: string }[];
}) => assert.equal(findings[0]!.flow, flows[0]!.id);

/** A 2025-11-25 session whose tools/call 1 asks, on its stream, to open `url`; `then` follows. */
const legacyAsk = (url: string, then: (b: Builder, h: Record<string, string>, x: string) => void) => (b: Builder) => {
  const h = legacySession(b) as Record<string, string>;
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", urlParams("e1", url, "Set your API key")));
  then(b, h, x);
};
/** The page fetches the MCP server's PRM and its authorization server's metadata (the builder's server is 127.0.0.1:3000). */
const discovery = (b: Builder, resource = "http://127.0.0.1:3000/mcp"): void => {
  b.pageRequest("http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", "GET", {
    resource,
    authorizationServers: ["https://auth.mcp.example.com"],
  });
  b.pageRequest("https://auth.mcp.example.com/.well-known/oauth-authorization-server", "GET", {
    issuer: "https://auth.mcp.example.com/",
    authorizationEndpoint: AUTHORIZE,
  });
};
/** A 2026-07-28 round asking to open SET_KEY, its retry accepting, and a page request before or after the retry. */
const modernPrefetch = (before: boolean) => (b: Builder) => {
  b.call(
    toolCall(1),
    result(1, irr({ key: ask({ mode: "url", url: SET_KEY, message: "Set your API key" }) }, "st1")),
    H,
  );
  if (before) prefetched = b.pageRequest(SET_KEY);
  b.call(
    toolCall(2, "deploy", {}, { inputResponses: { key: { action: "accept" } }, requestState: "st1" }),
    result(2, done()),
    H,
  );
  if (!before) b.pageRequest(SET_KEY);
};
let prefetched = -1;

const valid: Case[] = [
  {
    name: "url-elicitation-id-unique: the same elicitationId re-sent for the same URL",
    capture: (b) => {
      const h = legacySession(b);
      b.call(legacyToolCall(2), error(2, -32042, "Need input", { elicitations: [urlParams("e1")] }), h);
      b.call(legacyToolCall(3), error(3, -32042, "Need input", { elicitations: [urlParams("e1")] }), h);
    },
  },
  {
    name: "url-no-prefetch: the page opens the URL after the accept; other requests to the same server",
    capture: legacyAsk(`${SET_KEY}?session=k3`, (b, h, x) => {
      b.pageRequest("https://mcp.example.com/favicon.ico");
      b.pageRequest("https://mcp.example.com/ui/other");
      b.pageRequest("https://elsewhere.example.com/ui/set_api_key");
      b.accepted(result(7, { action: "accept" }), h);
      b.pageRequest(SET_KEY);
      b.sse(x, result(1, done(true)));
      b.end(x);
    }),
  },
  { name: "url-no-prefetch (2026-07-28): requested after the retry that accepts", capture: modernPrefetch(false) },
  {
    name: "url-no-prefetch: not for the entries of a -32042 error, where no answer travels on the wire",
    capture: (b) => {
      const h = legacySession(b);
      b.call(
        legacyToolCall(1),
        error(1, -32042, "URL elicitation required", { elicitations: [urlParams("e1", SET_KEY)] }),
        h,
      );
      b.pageRequest(SET_KEY);
    },
  },
  {
    name: "url-not-mcp-authorization: a third party's sign-in",
    capture: (b) => {
      discovery(b);
      legacyAsk("https://github.com/login/oauth/authorize?client_id=abc", () => {})(b);
    },
  },
  {
    name: "url-not-mcp-authorization: another resource's authorization server",
    capture: (b) => {
      discovery(b, "https://other.example.com/mcp");
      legacyAsk(signIn, () => {})(b);
    },
  },
  { name: "url-not-mcp-authorization: no metadata", capture: legacyAsk(signIn, () => {}) },
];

const invalid: InvalidCase[] = [
  {
    name: "url-elicitation-id-unique: one elicitationId for two different URL elicitations",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(0, "elicitation/create", urlParams("e1", "https://a.example/x")));
      b.accepted(result(0, { action: "accept" }), h);
      b.sse(x, request(1, "elicitation/create", urlParams("e1", "https://b.example/y")));
    },
    findings: [
      { rule: "url-elicitation-id-unique", severity: "warning", pointer: "/params/elicitationId", violator: "server" },
    ],
    also: sameFlow,
  },
  {
    name: "url-no-prefetch (2025-11-25): the URL is requested before any ElicitResult (catalogue example)",
    capture: legacyAsk(`${SET_KEY}?session=k3`, (b, h) => {
      prefetched = b.pageRequest(SET_KEY);
      b.accepted(result(7, { action: "accept" }), h);
    }),
    findings: [{ rule: "url-no-prefetch", severity: "error", pointer: "", violator: "client" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.findings[0]!.record, prefetched);
      assert.match(
        outcome.findings[0]!.message,
        /GET https:\/\/mcp\.example\.com\/ui\/set_api_key\) before the user answered/,
      );
    },
  },
  {
    name: "url-no-prefetch: once per elicitation, and also after a decline",
    capture: legacyAsk(`${SET_KEY}?session=k3`, (b, h) => {
      b.accepted(result(7, { action: "decline" }), h);
      prefetched = b.pageRequest(SET_KEY, "HEAD");
      b.pageRequest(SET_KEY);
    }),
    findings: [{ rule: "url-no-prefetch", severity: "error", pointer: "" }],
    also: ({ findings }) => {
      assert.equal(findings[0]!.record, prefetched);
      assert.match(findings[0]!.message, /after the user answered "decline"/);
    },
  },
  {
    name: "url-no-prefetch (2026-07-28): requested between the input_required result and the retry that accepts",
    capture: modernPrefetch(true),
    findings: [{ rule: "url-no-prefetch", severity: "error", pointer: "" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.findings[0]!.record, prefetched);
    },
  },
  {
    name: "url-not-mcp-authorization (2025-11-25): the server elicits its own authorization endpoint (catalogue example)",
    capture: (b) => {
      discovery(b);
      legacyAsk(signIn, () => {})(b);
    },
    findings: [{ rule: "url-not-mcp-authorization", severity: "warning", pointer: "/params/url", violator: "server" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.match(outcome.findings[0]!.message, /authorization endpoint of https:\/\/auth\.mcp\.example\.com/);
    },
  },
  {
    name: "url-not-mcp-authorization: metadata fetched after a -32042 entry still counts, once",
    capture: (b) => {
      const h = legacySession(b);
      b.call(
        legacyToolCall(1),
        error(1, -32042, "URL elicitation required", { elicitations: [urlParams("e1", signIn)] }),
        h,
      );
      discovery(b);
      discovery(b);
    },
    findings: [{ rule: "url-not-mcp-authorization", severity: "warning", pointer: "/error/data/elicitations/0/url" }],
  },
  {
    name: "url-not-mcp-authorization: in an MRTR input request",
    capture: (b) => {
      discovery(b);
      b.call(toolCall(1), result(1, irr({ auth: ask({ mode: "url", url: signIn, message: "Sign in" }) }, "st")), H);
    },
    findings: [
      { rule: "url-not-mcp-authorization", severity: "warning", pointer: "/result/inputRequests/auth/params/url" },
    ],
  },
];

ruleTester("urlFlow", meta, { valid, invalid });
