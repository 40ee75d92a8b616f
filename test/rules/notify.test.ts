// rules.md §3.8 notifications/elicitation/complete (2025-11-25 only).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/notify.ts";
import {
  done,
  legacySession,
  legacyToolCall,
  modernHeaders,
  notification,
  request,
  result,
  streamCall,
  toolCall,
  urlParams,
} from "../helpers/capture.ts";
import { ruleTester, type Builder, type Case, type InvalidCase } from "./ruleTester.ts";

const COMPLETE = "notifications/elicitation/complete";
const url = { elicitation: { url: {} } };

/** 2025-11-25 session (session id `sid`) whose tools/call gets URL elicitation `e1`, accepted by the user. */
function issued(b: Builder, sid = "s1") {
  const h = legacySession(b, "2025-11-25", url, sid);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", urlParams("e1")));
  b.accepted(result(0, { action: "accept" }), h);
  return { h, x };
}
/** `issued`, then the server's completion with these params on the tools/call stream. */
const completed = (params: Record<string, unknown>) => (b: Builder) => {
  const { x } = issued(b);
  b.sse(x, notification(COMPLETE, params));
};
/** A 2026-07-28 tools/call whose response stream carries a completion notification. */
const modernStream = (headers: Record<string, string>, finish: boolean) => (b: Builder) => {
  const x = b.post(toolCall(1), headers);
  b.status(x, 200, { "content-type": "text/event-stream" });
  b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
  if (!finish) return;
  b.sse(x, result(1, done()));
  b.end(x);
};
const completedOn =
  (expected: boolean) =>
  ({ flows }: { flows: readonly { elicitations: readonly { completed: boolean }[] }[] }) =>
    assert.equal(flows[0]!.elicitations[0]!.completed, expected);

let sent = -1;

const valid: Case[] = [
  {
    name: "notify-revision: a completion in 2025-11-25",
    capture: (b) => {
      const { h } = issued(b);
      b.sse(b.get(h), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
    },
  },
  { name: "notify-direction: the server sends it", capture: completed({ elicitationId: "e1" }) },
  {
    name: "notify-known-id: an id issued in a -32042 error",
    capture: (b) => {
      const h = legacySession(b, "2025-11-25", url);
      b.call(
        legacyToolCall(2),
        {
          jsonrpc: "2.0",
          id: 2,
          error: { code: -32042, message: "Authorization required", data: { elicitations: [urlParams("e7")] } },
        },
        h,
      );
      b.sse(b.get(h), notification(COMPLETE, { elicitationId: "e7" }), "get-sse", h);
    },
    also: completedOn(true),
  },
  {
    name: "notify-same-client: on the issuing session's GET stream",
    capture: (b) => {
      const { h } = issued(b, "A");
      legacySession(b, "2025-11-25", url, "B");
      b.sse(b.get(h), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
    },
    also: completedOn(true),
  },
  {
    name: "notify-params-extra: only elicitationId (and _meta)",
    capture: completed({ elicitationId: "e1", _meta: { trace: "t" } }),
  },
  {
    name: "notify-duplicate: one completion",
    capture: (b) => {
      const { x } = issued(b);
      b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
      b.sse(x, result(1, done(true)));
      b.end(x);
    },
    also: ({ flows }) => assert.equal(flows[0]!.status, "complete"),
  },
];

const invalid: InvalidCase[] = [
  {
    // Only notify-revision applies outside 2025-11-25: the rest of §3.8 is about 2025-11-25 notifications.
    name: "notify-revision: the completion notification on a 2026-07-28 response stream (catalogue example)",
    capture: modernStream(modernHeaders("tools/call", "deploy"), true),
    findings: [{ rule: "notify-revision", severity: "error", pointer: "/method", violator: "server", record: 2 }],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "notify-revision: 2026-07-28 is known from the request's _meta even without the header",
    capture: modernStream({ "mcp-method": "tools/call", "mcp-name": "deploy" }, false),
    findings: [{ rule: "notify-revision", severity: "error", pointer: "/method" }],
  },
  {
    name: "notify-revision: in a 2025-06-18 session",
    capture: (b) => {
      const h = legacySession(b, "2025-06-18", { elicitation: {} });
      b.sse(b.get(h), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
    },
    findings: [{ rule: "notify-revision", severity: "error", pointer: "/method" }],
  },
  {
    name: "notify-direction: the client sends the completion notification",
    capture: (b) => {
      const { h } = issued(b);
      sent = b.records.length;
      b.accepted(notification(COMPLETE, { elicitationId: "e1", action: "accept" }), h);
    },
    findings: [{ rule: "notify-direction", severity: "error", pointer: "/method", violator: "client" }],
    also: ({ findings, flows }) => {
      assert.equal(findings[0]!.record, sent);
      assert.equal(findings[0]!.flow, flows[0]!.id);
    },
  },
  {
    name: "notify-elicitation-id: params.elicitationId missing (catalogue example) or not a string",
    capture: (b) => {
      const { x } = issued(b);
      b.sse(x, notification(COMPLETE, { id: "e1" }));
      b.sse(x, notification(COMPLETE, { elicitationId: 1 }));
    },
    findings: [{ rule: "notify-elicitation-id", severity: "error", pointer: "/params", violator: "server", count: 2 }],
  },
  {
    name: "notify-known-id: completion for an elicitationId never issued (catalogue example)",
    capture: completed({ elicitationId: "e404" }),
    findings: [{ rule: "notify-known-id", severity: "warning", pointer: "/params/elicitationId", violator: "server" }],
    also: completedOn(false),
  },
  {
    name: "notify-same-client: the completion for an id issued on session A arrives on session B's GET stream",
    capture: (b) => {
      issued(b, "A");
      const hb = legacySession(b, "2025-11-25", url, "B");
      b.sse(b.get(hb), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", hb);
    },
    findings: [{ rule: "notify-same-client", severity: "error", pointer: "/params/elicitationId", violator: "server" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.flow, outcome.flows[0]!.id);
      completedOn(false)(outcome);
    },
  },
  {
    name: "notify-same-client: not for another server that reuses the id (SDK servers number them alike): its own unknown id",
    capture: (b) => {
      issued(b, "A");
      b.useServer("http://127.0.0.1:4000/mcp");
      const hb = legacySession(b, "2025-11-25", url, "B");
      b.sse(b.get(hb), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", hb);
    },
    findings: [{ rule: "notify-known-id", severity: "warning", pointer: "/params/elicitationId" }],
    also: (outcome) => {
      assert.equal(outcome.findings[0]!.flow, null);
      completedOn(false)(outcome);
    },
  },
  {
    name: "notify-params-extra: params carry an outcome (catalogue example)",
    capture: completed({ elicitationId: "e1", action: "accept" }),
    findings: [{ rule: "notify-params-extra", severity: "info", pointer: "/params/action", violator: "server" }],
    also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
  },
  {
    name: "notify-duplicate: two completions for the same id",
    capture: (b) => {
      const { x, h } = issued(b);
      b.sse(x, notification(COMPLETE, { elicitationId: "e1" }));
      b.sse(b.get(h), notification(COMPLETE, { elicitationId: "e1" }), "get-sse", h);
    },
    findings: [{ rule: "notify-duplicate", severity: "info", pointer: "/params/elicitationId", violator: "server" }],
    also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
  },
];

ruleTester("notify", meta, { valid, invalid });
