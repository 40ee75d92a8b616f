import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../src/engine/index.ts";
import { aiSdkAnswer, aiSdkAsk, backendFlow, byTime, cfFrame, message, run, schema } from "../engine/relayFixtures.ts";

const accept = { action: "accept", content: { confirm: true, region: "eu" } };
const relayFindings = (findings: readonly Finding[]) => findings.filter((f) => f.rule.startsWith("relay-"));
const only = (findings: readonly Finding[], rule: string): Finding => {
  const found = relayFindings(findings);
  assert.deepEqual(found.map((f) => f.rule), [rule], JSON.stringify(found, null, 1));
  return found[0]!;
};

test("valid: a faithful agent relays the ask unchanged and forwards the user's answer", () => {
  for (const answer of [accept, { action: "decline" }, { action: "cancel" }]) {
    const { findings } = run(byTime([...backendFlow(1000, answer), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", answer)]));
    assert.deepEqual(relayFindings(findings), []);
  }
});

test("relay-ask-not-shown: the agent answered an ask the page (with relays seen) never got", () => {
  const drafts = byTime([
    ...backendFlow(1000, accept, { id: 0 }),
    aiSdkAsk(1030, "e1"),
    aiSdkAnswer(1900, "e1", accept),
    ...backendFlow(3000, { action: "accept", content: { confirm: true } }, { id: 1, message: "Delete the old release?" }),
  ]);
  const f = only(run(drafts).findings, "relay-ask-not-shown");
  assert.equal(f.severity, "warning");
  assert.match(f.message, /Delete the old release/);
});

test("relay-ask-not-shown: the live page counts as watched before any relay; a backend capture alone says nothing", () => {
  const swallowed = backendFlow(1000, { action: "decline" });
  only(run(swallowed, { pageWatched: true }).findings, "relay-ask-not-shown");
  assert.deepEqual(relayFindings(run(swallowed).findings), []);
});

test("relay-answer-altered: another action is an error; changed content a warning", () => {
  const action = only(run(byTime([...backendFlow(1000, accept), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", { action: "decline" })])).findings, "relay-answer-altered");
  assert.equal(action.severity, "error");
  assert.match(action.message, /"decline" in the page.*"accept"/);
  const content = only(
    run(byTime([...backendFlow(1000, { action: "accept", content: { confirm: true, region: "us" } }), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", accept)])).findings,
    "relay-answer-altered",
  );
  assert.equal(content.severity, "warning");
  assert.match(content.message, /"region" "eu" became "us"/);
  assert.equal(content.pointer, "/result/content");
});

test("relay-answer-lost: the agent answered the server before the user answered in the page", () => {
  const f = only(run(byTime([...backendFlow(1000, { action: "cancel" }), aiSdkAsk(1030, "e1"), aiSdkAnswer(5000, "e1", accept)])).findings, "relay-answer-lost");
  assert.match(f.message, /before the user answered/);
});

test("relay-answer-lost: the server's flow ended with the user's answer never forwarded", () => {
  const drafts = byTime([...backendFlow(1000, accept, { answered: false }), aiSdkAsk(1030, "e1"), aiSdkAnswer(1900, "e1", { action: "decline" })]);
  // The server gives up on the elicitation and answers the tools/call with an error.
  drafts.push({ ...drafts[0]!, time: 9000, exchange: "backend:c0", direction: "s2c", stream: "post-sse", headers: undefined, text: JSON.stringify({ jsonrpc: "2.0", id: 10, error: { code: -32001, message: "Request timed out" } }) } as never);
  only(run(drafts).findings, "relay-answer-lost");
});

test("relay-schema-dropped: a missing field, a required flag and a constraint lost on the way", () => {
  const relayed = { type: "object", properties: { confirm: { type: "boolean" } } };
  const f = only(run(byTime([...backendFlow(1000, accept), aiSdkAsk(1030, "e1", { mode: "form", message, requestedSchema: relayed }), aiSdkAnswer(1900, "e1", accept)])).findings, "relay-schema-dropped");
  assert.match(f.message, /field "region" is missing/);
  assert.match(f.message, /field "confirm" is no longer required/);
  const enumLost = { ...schema, properties: { ...schema.properties, region: { type: "string" } } };
  const g = only(run(byTime([...backendFlow(1000, accept), cfFrame(1030, "s2c", { type: "mcp_elicitation", id: "q", params: { message, requestedSchema: enumLost } })])).findings, "relay-schema-dropped");
  assert.match(g.message, /"region" lost enum \["eu","us"\]/);
});

test("relay-url-opened-unasked: the page fetched a relayed URL before the user accepted; after accepting it may", () => {
  const url = "https://pay.example.com/checkout";
  const ep = { mode: "url", message: "Pay to continue", url, elicitationId: "el-1" };
  const backend = (t: number) => {
    const drafts = backendFlow(t, { action: "accept" });
    drafts[1] = { ...drafts[1]!, text: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: ep }) } as never;
    return drafts;
  };
  const page = (t: number) => ({ kind: "page-request", time: t, transport: "http", url, client: "page_1", method: "GET" }) as never;
  const ask = cfFrame(1030, "s2c", { type: "mcp_elicitation", id: "el-1", params: ep });
  const early = run(byTime([...backend(1000), ask, page(1040), cfFrame(1500, "c2s", { type: "elicitation_response", id: "el-1", result: { action: "accept" } })]));
  const f = only(early.findings, "relay-url-opened-unasked");
  assert.equal(f.severity, "error");
  assert.deepEqual(early.findings.filter((x) => x.rule === "url-no-prefetch"), []);
  const late = run(byTime([...backend(1000), ask, cfFrame(1500, "c2s", { type: "elicitation_response", id: "el-1", result: { action: "accept" } }), page(1600)]));
  assert.deepEqual(relayFindings(late.findings), []);
});
