import assert from "node:assert/strict";
import type { Draft } from "../../src/capture/envelopes/index.ts";
import { analyze } from "../../src/engine/index.ts";
import type { RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import { meta } from "../../src/engine/rules/relay.ts";
import {
  aiSdkAnswer,
  aiSdkAsk,
  backendFlow,
  byTime,
  cfFrame,
  message,
  relayRecords,
  schema,
} from "../engine/relayFixtures.ts";
import { type Expected, type Outcome, ruleTester } from "./ruleTester.ts";

// A hosted agent's capture: the backend's wire (records with source "backend") and the page's relay messages,
// through the envelope stage, numbered in time order. The join itself (flows, latencies, guesses) is tested in
// test/engine/relayJoin.test.ts.
const capture = (drafts: Draft[]) => relayRecords(byTime(drafts));
const accept = { action: "accept", content: { confirm: true, region: "eu" } };

/**
 * One elicitation relayed faithfully, the page answering `page` and the agent `answer`: records 0 tools/call and
 * 1 elicitation/create (backend), 2 the relayed ask and 3 the user's answer (page), 4 the agent's answer, 5 the result.
 */
const relayed = (answer: unknown, page: unknown = answer): Draft[] => [
  ...backendFlow(1000, answer),
  aiSdkAsk(1030, "e1"),
  aiSdkAnswer(1900, "e1", page),
];

/** A finding of the agent's (every relay rule's violator is the client) on record `record`. */
const byAgent = (rule: RuleId, severity: Severity, pointer: string, record: number): Expected => ({
  rule,
  severity,
  pointer,
  record,
  violator: "client",
});

const theMessage =
  (...patterns: RegExp[]) =>
  ({ findings }: Outcome) => {
    for (const pattern of patterns) assert.match(findings[0]!.message, pattern);
  };

const url = "https://pay.example.com/checkout";
const urlAsk = { mode: "url", message: "Pay to continue", url, elicitationId: "el-1" };
/** The backend's wire of a URL-mode elicitation the agent accepted. */
const urlBackend = (): Draft[] => {
  const drafts = backendFlow(1000, { action: "accept" });
  const create = { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: urlAsk };
  drafts[1] = { ...drafts[1]!, text: JSON.stringify(create) } as Draft;
  return drafts;
};
const urlRelayed = cfFrame(1030, "s2c", { type: "mcp_elicitation", id: "el-1", params: urlAsk });
const urlAccepted = cfFrame(1500, "c2s", { type: "elicitation_response", id: "el-1", result: { action: "accept" } });
/** The page fetching the relayed URL itself. */
const pageOpens = (time: number) =>
  ({ kind: "page-request", time, transport: "http", url, client: "page_1", method: "GET" }) as Draft;

/** The server gives up on an elicitation never answered and answers the tools/call with an error. */
const gaveUp = (drafts: Draft[]): Draft[] => {
  const error = { jsonrpc: "2.0", id: 10, error: { code: -32001, message: "Request timed out" } };
  const end = { time: 9000, exchange: "backend:c0", direction: "s2c", stream: "post-sse", headers: undefined };
  return [...drafts, { ...drafts[0]!, ...end, text: JSON.stringify(error) } as Draft];
};

ruleTester("relay", meta, {
  valid: [
    ...["accept", "decline", "cancel"].map((action) => ({
      name: `a faithful agent relays the ask unchanged and forwards the user's ${action}`,
      capture: capture(relayed(action === "accept" ? accept : { action })),
    })),
    {
      name: "a backend capture alone (no page watched, no relay seen) says nothing of an ask not shown",
      capture: capture(backendFlow(1000, { action: "decline" })),
    },
    {
      name: "the page may open a relayed URL once the user accepted",
      capture: capture([...urlBackend(), urlRelayed, urlAccepted, pageOpens(1600)]),
    },
  ],
  invalid: [
    {
      name: "relay-ask-not-shown: the agent answered an ask the page (with relays seen) never got",
      capture: capture([
        ...relayed(accept),
        ...backendFlow(
          3000,
          { action: "accept", content: { confirm: true } },
          { id: 1, message: "Delete the old release?" },
        ),
      ]),
      // Record 8: the agent's answer to the second elicitation (records 6–9).
      findings: [byAgent("relay-ask-not-shown", "warning", "/result", 8)],
      also: theMessage(/Delete the old release/),
    },
    {
      name: "relay-ask-not-shown: the live page counts as watched before any relay",
      capture: capture(backendFlow(1000, { action: "decline" })),
      options: { pageWatched: true },
      findings: [byAgent("relay-ask-not-shown", "warning", "/result", 2)], // the agent's answer
    },
    {
      name: "relay-answer-altered: another action than the user's is an error",
      capture: capture(relayed(accept, { action: "decline" })),
      findings: [byAgent("relay-answer-altered", "error", "/result", 4)],
      also: theMessage(/"decline" in the page.*"accept"/),
    },
    {
      name: "relay-answer-altered: changed content is a warning",
      capture: capture(relayed({ action: "accept", content: { confirm: true, region: "us" } }, accept)),
      findings: [byAgent("relay-answer-altered", "warning", "/result/content", 4)],
      also: theMessage(/"region" "eu" became "us"/),
    },
    {
      name: "relay-answer-lost: the agent answered the server before the user answered in the page",
      capture: capture([
        ...backendFlow(1000, { action: "cancel" }),
        aiSdkAsk(1030, "e1"),
        aiSdkAnswer(5000, "e1", accept),
      ]),
      findings: [byAgent("relay-answer-lost", "warning", "/result", 5)], // the user's answer, last
      also: theMessage(/before the user answered/),
    },
    {
      name: "relay-answer-lost: the server's flow ended with the user's answer never forwarded",
      capture: capture(
        gaveUp([
          ...backendFlow(1000, accept, { answered: false }),
          aiSdkAsk(1030, "e1"),
          aiSdkAnswer(1900, "e1", { action: "decline" }),
        ]),
      ),
      findings: [byAgent("relay-answer-lost", "warning", "/result", 3)], // the user's answer
      also: theMessage(/the server's flow ended without it/),
    },
    {
      name: "relay-schema-dropped: a missing field and a required flag lost on the way",
      capture: capture([
        ...backendFlow(1000, accept),
        aiSdkAsk(1030, "e1", {
          mode: "form",
          message,
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
        }),
        aiSdkAnswer(1900, "e1", accept),
      ]),
      findings: [byAgent("relay-schema-dropped", "warning", "/params/requestedSchema", 2)], // the relayed ask
      also: theMessage(/field "region" is missing/, /field "confirm" is no longer required/),
    },
    {
      name: "relay-schema-dropped: a constraint (an enum) lost in a Cloudflare agent's relay",
      capture: capture([
        ...backendFlow(1000, accept),
        cfFrame(1030, "s2c", {
          type: "mcp_elicitation",
          id: "q",
          params: {
            message,
            requestedSchema: { ...schema, properties: { ...schema.properties, region: { type: "string" } } },
          },
        }),
      ]),
      findings: [byAgent("relay-schema-dropped", "warning", "/params/requestedSchema", 2)],
      also: theMessage(/"region" lost enum \["eu","us"\]/),
    },
    {
      name: "relay-url-opened-unasked: the page fetched a relayed URL before the user accepted",
      capture: capture([...urlBackend(), urlRelayed, pageOpens(1040), urlAccepted]),
      findings: [byAgent("relay-url-opened-unasked", "error", "", 3)], // the page's request
      // The URL is the agent's to open, not the page's own ask: with every rule on, url-no-prefetch stays quiet.
      also: ({ records }) => {
        assert.deepEqual(
          analyze(records).findings.filter((f) => f.rule === "url-no-prefetch"),
          [],
        );
      },
    },
  ],
});
