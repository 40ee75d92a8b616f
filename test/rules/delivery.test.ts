// rules.md §3.2 Delivery and association.
import assert from "node:assert/strict";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { meta } from "../../src/engine/rules/delivery.ts";
import {
  ask,
  done,
  form,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
} from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const H = modernHeaders("tools/call", "deploy");
const nameForm = {
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: { n: { type: "string" } } },
};
const starsForm = {
  message: "Rate us",
  requestedSchema: { type: "object", properties: { stars: { type: "integer" } } },
};
const connect = { mode: "url", elicitationId: "e9", url: "https://mcp.example.com/connect", message: "Connect GitHub" };
const sameFlow = ({
  findings,
  flows,
}: {
  findings: readonly { flow: string | null }[];
  flows: readonly { id: string }[];
}) => assert.equal(findings[0]!.flow, flows[0]!.id);

/** A 2026-07-28 tools/call whose POST stream carries elicitation/create as a JSON-RPC request. */
const serverRequest = (b: Builder) => {
  const x = b.post(toolCall(1), H);
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, request("srv-1", "elicitation/create", nameForm));
};
/** elicitation/create on the POST stream after that POST's response. */
const afterResponse = (b: Builder) => {
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(9), h);
  b.sse(x, result(9, { content: [{ type: "text", text: "done" }] }));
  b.sse(x, request(14, "elicitation/create", starsForm));
};
/** elicitation/create on the standalone GET stream. */
const onGet = (b: Builder) => {
  const h = legacySession(b);
  b.sse(b.get(h), request(1, "elicitation/create", connect), "get-sse", h);
};
/** stdio: elicitation/create while no client request is outstanding. */
const stdio = (b: Builder) => {
  let seq = 0;
  const line = (direction: "c2s" | "s2c", m: unknown): CaptureRecord => ({
    v: 1,
    seq,
    time: 1_000 + 10 * seq++,
    transport: "stdio",
    url: "node server.js",
    kind: "message",
    direction,
    stream: "stdio",
    text: JSON.stringify(m),
  });
  b.records.push(
    line(
      "c2s",
      request(0, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "c", version: "1" },
      }),
    ),
    line(
      "s2c",
      result(0, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } }),
    ),
    line("c2s", { jsonrpc: "2.0", method: "notifications/initialized" }),
    line("c2s", legacyToolCall(1)),
    line("s2c", request(0, "elicitation/create", form())),
    line("c2s", result(0, { action: "accept", content: { ok: true } })),
    line("s2c", result(1, done(true))),
    line("s2c", request(1, "elicitation/create", starsForm)),
  );
};
/** A session with elicitation id 7 outstanding on the stream of tools/call 1; `then` follows. */
const outstanding7 = (then: (b: Builder, h: Record<string, string>, x: string) => void) => (b: Builder) => {
  const h = legacySession(b) as Record<string, string>;
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(7, "elicitation/create", form()));
  then(b, h, x);
};
/** A client's answer whose question may have been on a GET stream that ended without events. */
const lost = (asHar: boolean) => (b: Builder) => {
  const h = legacySession(b);
  const get = b.get(h);
  b.end(get, "abort");
  b.accepted(result(3, { action: "accept", content: { ok: true } }), h);
  // HAR imports name the entry of every record; a live capture's GET stream that ended without events carried none.
  if (asHar) b.records.forEach((r, i) => (r.entry = i));
};

const valid: Case[] = [
  {
    name: "del-r3-no-server-requests: the same question as an InputRequiredResult",
    capture: (b) => b.call(toolCall(1), result(1, irr({ n: ask(nameForm) })), H),
  },
  {
    name: "del-r3-no-client-responses: the answer in inputResponses of a retry",
    capture: (b) => {
      b.call(toolCall(1), result(1, irr({ n: ask(nameForm) })), H);
      b.call(
        toolCall(2, "deploy", {}, { inputResponses: { n: { action: "accept", content: { n: "Ada" } } } }),
        result(2, done()),
        H,
      );
    },
  },
  {
    name: "del-r12-related-request: an elicitation before the tools/call response",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(9), h);
      b.sse(x, request(14, "elicitation/create", starsForm));
      b.accepted(result(14, { action: "accept", content: { stars: 5 } }), h);
      b.sse(x, result(9, done(true)));
      b.end(x);
    },
  },
  {
    name: "del-r12-standalone-stream: on the POST stream, strict",
    options: { strict2260: true },
    capture: (b) => {
      const h = legacySession(b);
      b.sse(streamCall(b, legacyToolCall(1), h), request(1, "elicitation/create", form()));
    },
  },
  {
    // transports.mdx § "Resumability and Redelivery": the client resumes with GET + Last-Event-ID; the server replays.
    name: "del-r12-single-stream: a replay on a stream resumed with Last-Event-ID",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      const e = request(4, "elicitation/create", form());
      b.sse(x, e, "post-sse");
      b.end(x, "network");
      const resumed = { ...h, "last-event-id": "ev-1" };
      b.sse(b.get(resumed), e, "get-sse", resumed);
    },
  },
  {
    name: "del-r12-request-id-unique: ids 3 and 4",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(3, "elicitation/create", form()));
      b.accepted(result(3, { action: "accept", content: { ok: true } }), h);
      b.sse(x, request(4, "elicitation/create", form({ n: { type: "string" } })));
    },
  },
  {
    name: "del-r12-response-correlation: one answer to the outstanding id",
    capture: outstanding7((b, h, x) => {
      b.accepted(result(7, { action: "accept", content: { ok: true } }), h);
      b.sse(x, result(1, done(true)));
      b.end(x);
    }),
  },
  {
    name: "del-r12-response-202: 202 Accepted with no body",
    capture: outstanding7((b, h) => b.accepted(result(7, { action: "decline" }), h)),
  },
  {
    name: "del-r12-response-correlation: not for an answer whose question a HAR may have lost with a GET stream's body",
    capture: lost(true),
  },
];

const invalid: InvalidCase[] = [
  {
    name: "del-r3-no-server-requests: a 2026-07-28 server sends elicitation/create as a JSON-RPC request (catalogue example)",
    capture: serverRequest,
    findings: [
      { rule: "del-r3-no-server-requests", severity: "error", pointer: "/method", violator: "server", record: 2 },
    ],
    also: (outcome) => {
      assert.equal(outcome.flows.length, 1);
      sameFlow(outcome);
    },
  },
  {
    name: "del-r3-no-client-responses: a 2026-07-28 client POSTs an ElicitResult as a JSON-RPC response (catalogue example)",
    capture: (b) => {
      serverRequest(b);
      b.accepted(result("srv-1", { action: "accept", content: { n: "Ada" } }), {
        "mcp-protocol-version": "2026-07-28",
      });
    },
    findings: [
      { rule: "del-r3-no-server-requests", severity: "error", pointer: "/method" },
      { rule: "del-r3-no-client-responses", severity: "error", pointer: "", violator: "client", record: 3 },
    ],
    also: ({ findings, flows }) => assert.equal(findings[1]!.flow, flows[0]!.id),
  },
  {
    name: "del-r12-related-request: elicitation/create on the POST stream after that POST's response (catalogue example)",
    capture: afterResponse,
    findings: [{ rule: "del-r12-related-request", severity: "warning", pointer: "/method", violator: "server" }],
    also: ({ findings, flows }) =>
      assert.equal(findings[0]!.flow, flows.find((fl) => fl.elicitations.some((e) => e.key === "14"))!.id),
  },
  {
    name: "del-r12-related-request: an error under the strict SEP-2260 profile",
    capture: afterResponse,
    options: { strict2260: true },
    findings: [{ rule: "del-r12-related-request", severity: "error", pointer: "/method" }],
  },
  {
    name: "del-r12-related-request: elicitation/create on the stream of tools/list (no user input needed)",
    capture: (b) => {
      const h = legacySession(b);
      b.sse(streamCall(b, request(2, "tools/list", {}), h), request(3, "elicitation/create", form()));
    },
    findings: [{ rule: "del-r12-related-request", severity: "warning", pointer: "/method" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.flows[0]!.method, "tools/list");
    },
  },
  {
    name: "del-r12-related-request: on stdio, elicitation/create while no client request is outstanding",
    capture: stdio,
    findings: [{ rule: "del-r12-related-request", severity: "warning", pointer: "/method", record: 7 }],
    also: ({ findings, flows }) => {
      assert.deepEqual(
        flows.map((f) => [f.method, f.status]),
        [
          ["tools/call", "complete"],
          ["(none)", "pending"],
        ],
      );
      assert.equal(findings[0]!.flow, flows[1]!.id);
    },
  },
  {
    name: "del-r12-standalone-stream: elicitation/create on the GET stream is info",
    capture: onGet,
    findings: [{ rule: "del-r12-standalone-stream", severity: "info", pointer: "/method", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "del-r12-standalone-stream: an error under strict SEP-2260",
    capture: onGet,
    options: { strict2260: true },
    findings: [{ rule: "del-r12-standalone-stream", severity: "error", pointer: "/method" }],
  },
  {
    name: "del-r12-single-stream: the same elicitation/create broadcast on a POST stream and the GET stream",
    capture: (b) => {
      const h = legacySession(b);
      const g = b.get(h);
      const x = streamCall(b, legacyToolCall(1), h);
      const e = request(4, "elicitation/create", {
        message: "Name?",
        requestedSchema: { type: "object", properties: { n: { type: "string" } } },
      });
      b.sse(x, e);
      b.sse(g, e, "get-sse", h);
    },
    findings: [{ rule: "del-r12-single-stream", severity: "error", pointer: "/id", violator: "server" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.flows.length, 1);
      assert.equal(outcome.flows[0]!.elicitations.length, 1);
    },
  },
  {
    name: "del-r12-request-id-unique: an elicitation/create id reused in the session (catalogue example)",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(
        x,
        request(3, "elicitation/create", {
          message: "A?",
          requestedSchema: { type: "object", properties: { a: { type: "string" } } },
        }),
      );
      b.accepted(result(3, { action: "accept", content: { a: "x" } }), h);
      b.sse(
        x,
        request(3, "elicitation/create", {
          message: "B?",
          requestedSchema: { type: "object", properties: { b: { type: "string" } } },
        }),
      );
    },
    findings: [{ rule: "del-r12-request-id-unique", severity: "error", pointer: "/id", violator: "server" }],
    also: sameFlow,
  },
  {
    name: "del-r12-request-id-unique: a null id",
    capture: (b) => {
      const h = legacySession(b);
      b.sse(streamCall(b, legacyToolCall(1), h), request(null, "elicitation/create", form()));
    },
    findings: [{ rule: "del-r12-request-id-unique", severity: "error", pointer: "/id" }],
    also: sameFlow,
  },
  {
    name: "del-r12-response-correlation: the response id matches no outstanding elicitation (catalogue example)",
    capture: outstanding7((b, h) => b.accepted(result(8, { action: "cancel" }), h)),
    findings: [{ rule: "del-r12-response-correlation", severity: "error", pointer: "/id", violator: "client" }],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "del-r12-response-correlation: the same elicitation answered twice",
    capture: outstanding7((b, h) => {
      b.accepted(result(7, { action: "accept", content: { ok: true } }), h);
      b.accepted(result(7, { action: "cancel" }), h);
    }),
    findings: [{ rule: "del-r12-response-correlation", severity: "error", pointer: "/id" }],
    also: (outcome) => {
      sameFlow(outcome);
      assert.equal(outcome.flows[0]!.elicitations[0]!.action, "accept");
    },
  },
  {
    name: "del-r12-response-correlation: a second answer is charged to the flow of the elicitation it repeats, also after a batch",
    capture: (b) => {
      const h = legacySession(b);
      const first = streamCall(b, legacyToolCall(1), h);
      b.sse(first, request(7, "elicitation/create", form()));
      const second = streamCall(b, legacyToolCall(2), h);
      b.sse(second, request(8, "elicitation/create", form()));
      // One POST answers both (a JSON-RPC batch: one record, two flows), then elicitation 7 is answered again.
      b.accepted([result(7, { action: "accept", content: { ok: true } }), result(8, { action: "decline" })], h);
      b.accepted(result(7, { action: "cancel" }), h);
      // The server delivers elicitation 8 again on the first call's stream: charged to the flow that asked it.
      b.sse(first, request(8, "elicitation/create", form()));
    },
    findings: [
      { rule: "del-r12-response-correlation", severity: "error", pointer: "/id" },
      { rule: "del-r12-single-stream", severity: "error", pointer: "/id" },
    ],
    also: ({ findings, flows }) => {
      const flowOf = (call: number) => flows.find((f) => f.rounds[0]?.requestId === call)?.id;
      assert.ok(flowOf(1) && flowOf(2) && flowOf(1) !== flowOf(2));
      assert.equal(findings[0]!.flow, flowOf(1));
      assert.equal(findings[1]!.flow, flowOf(2));
    },
  },
  {
    name: "del-r12-response-correlation: a response with both result and error, and one with neither",
    capture: outstanding7((b, h) => {
      b.accepted(
        {
          jsonrpc: "2.0",
          id: 7,
          result: { action: "accept", content: { ok: true } },
          error: { code: -32603, message: "x" },
        },
        h,
      );
      b.accepted({ jsonrpc: "2.0", id: 7 }, h);
    }),
    findings: [{ rule: "del-r12-response-correlation", severity: "error", pointer: "", violator: "client", count: 2 }],
    also: ({ findings, flows, problems }) => {
      for (const f of findings) assert.equal(f.flow, flows[0]!.id);
      assert.equal(problems.length, 0);
    },
  },
  {
    name: "del-r12-response-correlation: an answer to nothing in a live capture",
    capture: lost(false),
    findings: [{ rule: "del-r12-response-correlation", severity: "error", pointer: "/id" }],
  },
  {
    name: "del-r12-response-202: the POSTed ElicitResult is answered 200 with a body",
    capture: outstanding7((b, h) => {
      const y = b.post(result(7, { action: "decline" }), h);
      b.status(y, 200, { "content-type": "application/json" }, false);
      b.end(y);
    }),
    findings: [{ rule: "del-r12-response-202", severity: "error", pointer: "", violator: "server" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.record, outcome.flows[0]!.elicitations[0]!.answerRecord);
      sameFlow(outcome);
    },
  },
];

ruleTester("delivery", meta, { valid, invalid });
