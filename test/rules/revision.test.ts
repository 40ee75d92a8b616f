// rules.md §1.4: rev-meta-required, rev-header-meta-mismatch, rev-header-missing (rev-feature-not-in-revision:
// revisionFeature.test.ts).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/revision.ts";
import {
  ask,
  done,
  error,
  form,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  PV,
  request,
  result,
  streamCall,
  toolCall,
} from "../helpers/capture.ts";
import { ruleTester, type Case, type InvalidCase } from "./ruleTester.ts";

const H = modernHeaders("tools/call", "deploy");
const mismatched = { ...modernHeaders("tools/call", "x"), "mcp-protocol-version": "2025-11-25" };

const valid: Case[] = [
  {
    name: "_meta carries both fields and the header matches",
    capture: (b) => b.call(toolCall(1), result(1, done()), H),
  },
  {
    name: "rev-header-missing: not on initialize itself, nor on later requests with the header",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(0, "elicitation/create", form()));
      b.accepted(result(0, { action: "accept", content: { ok: true } }), h);
      b.sse(x, result(1, done(true)));
      b.end(x);
    },
  },
];

const invalid: InvalidCase[] = [
  {
    // Catalogue example: header says 2026-07-28, no _meta, answered with an InputRequiredResult.
    name: "rev-meta-required: a 2026-07-28 request without _meta is the client's error; answering it normally is the server's",
    capture: (b) =>
      b.call(
        request(4, "tools/call", { name: "deploy", arguments: {} }),
        result(4, irr({ q: ask(form({ ok: { type: "boolean" } }, "Confirm the deployment?")) })),
        H,
      ),
    findings: [
      { rule: "rev-meta-required", severity: "error", pointer: "/params", violator: "client", record: 0 },
      { rule: "rev-meta-required", severity: "error", pointer: "/result", violator: "server", record: 2 },
    ],
    also: ({ findings, flows }) => {
      assert.equal(flows[0]!.kind, "mrtr");
      assert.equal(findings[1]!.flow, flows[0]!.id);
    },
  },
  {
    // Rejected with -32602 and HTTP 400: the server did its part.
    name: "rev-meta-required: _meta present but without clientCapabilities points at _meta",
    capture: (b) =>
      b.call(
        request(1, "tools/call", { name: "deploy", arguments: {}, _meta: { [PV]: "2026-07-28" } }),
        error(1, -32602, "Missing clientCapabilities"),
        H,
        400,
      ),
    findings: [{ rule: "rev-meta-required", severity: "error", pointer: "/params/_meta", violator: "client" }],
  },
  {
    name: "rev-meta-required: the server rejecting with a different code or status is a server violation too",
    capture: (b) =>
      b.call(request(1, "tools/call", { name: "deploy", arguments: {} }), error(1, -32603, "Internal error"), H, 500),
    findings: [
      { rule: "rev-meta-required", severity: "error", pointer: "/params", violator: "client" },
      { rule: "rev-meta-required", severity: "error", pointer: "/error/code", violator: "server" },
    ],
  },
  {
    // Catalogue example: header 2025-11-25, _meta 2026-07-28; rejected with 400/-32020.
    name: "rev-header-meta-mismatch: MCP-Protocol-Version header differs from _meta protocolVersion",
    capture: (b) =>
      b.call(toolCall(1, "x", {}, {}, { elicitation: {} }), error(1, -32020, "Header mismatch"), mismatched, 400),
    findings: [
      {
        rule: "rev-header-meta-mismatch",
        severity: "error",
        pointer: `/params/_meta/${PV.replace("/", "~1")}`,
        violator: "client",
        record: 0,
      },
    ],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "rev-header-meta-mismatch: the server answering normally instead of 400/-32020 is a server violation",
    capture: (b) => b.call(toolCall(1, "x"), result(1, done()), mismatched),
    findings: [
      {
        rule: "rev-header-meta-mismatch",
        severity: "error",
        pointer: `/params/_meta/${PV.replace("/", "~1")}`,
        violator: "client",
      },
      { rule: "rev-header-meta-mismatch", severity: "error", pointer: "/result", violator: "server" },
    ],
  },
  {
    name: "rev-header-missing: 2026-07-28 POST without MCP-Protocol-Version",
    capture: (b) => b.call(toolCall(1), result(1, done()), { "mcp-method": "tools/call", "mcp-name": "deploy" }),
    findings: [{ rule: "rev-header-missing", severity: "error", pointer: "", violator: "client", record: 0 }],
    also: ({ findings }) => assert.equal(findings[0]!.flow, null),
  },
  {
    name: "rev-header-missing: 2025-11-25 POST of an elicitation response after initialize without the header (catalogue example)",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(0, "elicitation/create", form()));
      b.accepted(result(0, { action: "accept", content: { ok: true } }), { "mcp-session-id": "s1" });
      b.sse(x, result(1, done(true)));
      b.end(x);
    },
    findings: [{ rule: "rev-header-missing", severity: "error", pointer: "", violator: "client" }],
    also: ({ findings, flows }) => assert.equal(findings[0]!.record, flows[0]!.elicitations[0]!.answerRecord),
  },
  {
    name: "rev-header-missing: 2025-06-18 request after initialize without the header",
    capture: (b) => {
      legacySession(b, "2025-06-18", { elicitation: {} });
      b.call(legacyToolCall(1), result(1, done(true)), { "mcp-session-id": "s1" });
    },
    findings: [{ rule: "rev-header-missing", severity: "error", pointer: "", violator: "client" }],
  },
];

ruleTester("revision", meta, { valid, invalid });
