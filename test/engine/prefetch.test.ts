import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ask,
  captureBuilder,
  done,
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

// rules.md url-no-prefetch: the page requests a URL-mode elicitation's URL before the user consents. Seen in HAR
// captures, which hold the page's other requests (`page-request` records).

const SET_KEY = "https://mcp.example.com/ui/set_api_key";

/** A 2025-11-25 session whose tools/call 1 asks, on its stream, to open `url`. */
function legacyAsk(url = SET_KEY) {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", urlParams("e1", `${url}?session=k3`, "Set your API key")));
  return { b, h, x };
}

test("url-no-prefetch (2025-11-25): the URL is requested before any ElicitResult (catalogue example)", () => {
  const { b, h } = legacyAsk();
  const prefetch = b.pageRequest(SET_KEY);
  b.accepted(result(7, { action: "accept" }), h);
  const r = b.analyze();
  const f = expectFinding(r, "url-no-prefetch", { severity: "error", violator: "client", record: prefetch });
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(f.pointer, "");
  assert.match(f.message, /GET https:\/\/mcp\.example\.com\/ui\/set_api_key\) before the user answered/);
  assert.equal(findingsOf(r, "url-no-prefetch").length, 1);
});

test("url-no-prefetch: once per elicitation, and also after a decline", () => {
  const { b, h } = legacyAsk();
  b.accepted(result(7, { action: "decline" }), h);
  const first = b.pageRequest(SET_KEY, "HEAD");
  b.pageRequest(SET_KEY);
  const r = b.analyze();
  const f = expectFinding(r, "url-no-prefetch", { record: first });
  assert.match(f.message, /after the user answered "decline"/);
  assert.equal(findingsOf(r, "url-no-prefetch").length, 1);
});

test("url-no-prefetch: clean when the page opens the URL after the accept, and for other requests to the same server", () => {
  const { b, h, x } = legacyAsk();
  b.pageRequest("https://mcp.example.com/favicon.ico");
  b.pageRequest("https://mcp.example.com/ui/other");
  b.pageRequest("https://elsewhere.example.com/ui/set_api_key");
  b.accepted(result(7, { action: "accept" }), h);
  b.pageRequest(SET_KEY);
  b.sse(x, result(1, done(true)));
  b.end(x);
  expectNone(b.analyze(), "url-no-prefetch");
});

test("url-no-prefetch (2026-07-28): requested between the input_required result and the retry that accepts", () => {
  const H = modernHeaders("tools/call", "deploy");
  const b = captureBuilder();
  b.call(toolCall(1), result(1, irr({ key: ask({ mode: "url", url: SET_KEY, message: "Set your API key" }) }, "st1")), H);
  const prefetch = b.pageRequest(SET_KEY);
  b.call(toolCall(2, "deploy", {}, { inputResponses: { key: { action: "accept" } }, requestState: "st1" }), result(2, done()), H);
  const r = b.analyze();
  expectFinding(r, "url-no-prefetch", { severity: "error", record: prefetch, flow: r.flows[0]!.id });

  const clean = captureBuilder();
  clean.call(toolCall(1), result(1, irr({ key: ask({ mode: "url", url: SET_KEY, message: "Set your API key" }) }, "st1")), H);
  clean.call(toolCall(2, "deploy", {}, { inputResponses: { key: { action: "accept" } }, requestState: "st1" }), result(2, done()), H);
  clean.pageRequest(SET_KEY);
  expectNone(clean.analyze(), "url-no-prefetch");
});

test("url-no-prefetch: not for the entries of a -32042 error, where no answer travels on the wire", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  b.call(legacyToolCall(1), error(1, -32042, "URL elicitation required", { elicitations: [urlParams("e1", SET_KEY)] }), h);
  b.pageRequest(SET_KEY);
  expectNone(b.analyze(), "url-no-prefetch");
});
