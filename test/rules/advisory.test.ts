// rules.md §3.12 Advisory (adv-message-quality is a payload rule, in request.test.ts).
import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/advisory.ts";
import {
  ask,
  done,
  error,
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

const H = modernHeaders("tools/call", "create_ticket");
const one = (field: string, message: string) => form({ [field]: { type: "string" } }, message);
const confirm = ask(form({ confirm: { type: "boolean" } }, "Create the ticket now?"));

/** The seq of a record the capture marks, for the assertions that follow. */
const marked = () => {
  let at = -1;
  return { mark: (b: Builder) => (at = b.records.length), at: () => at };
};

const second = marked();
const third = marked();
const legacyThird = marked();

const valid: Case[] = [
  {
    name: "adv-concurrent-elicitations: one question at a time (2025-11-25)",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(4, "elicitation/create", one("team", "Which team owns the ticket?")));
      b.accepted(result(4, { action: "accept", content: { team: "billing" } }), h);
      b.sse(x, request(5, "elicitation/create", one("prio", "Which priority does it have?")));
    },
  },
  {
    name: "adv-concurrent-elicitations: one question in an IRR (2026-07-28)",
    capture: (b) =>
      b.call(
        toolCall(1, "create_ticket"),
        result(1, irr({ team: ask(one("team", "Which team owns the ticket?")) })),
        H,
      ),
  },
  {
    name: "adv-batch-questions: one form with three fields",
    capture: (b) => {
      const all = form(
        { team: { type: "string" }, prio: { type: "string" }, due: { type: "string" } },
        "Tell us about the ticket",
      );
      b.call(toolCall(1, "create_ticket"), result(1, irr({ t: ask(all) }, "R1")), H);
      b.call(
        toolCall(
          2,
          "create_ticket",
          {},
          {
            inputResponses: { t: { action: "accept", content: { team: "a", prio: "b", due: "c" } } },
            requestState: "R1",
          },
        ),
        result(2, done()),
        H,
      );
    },
  },
  {
    name: "adv-server-handles-refusal: the decline gets a handled tool result",
    capture: (b) => {
      b.call(toolCall(1, "create_ticket"), result(1, irr({ confirm })), H);
      b.call(
        toolCall(2, "create_ticket", {}, { inputResponses: { confirm: { action: "decline" } } }),
        result(2, { resultType: "complete", content: [{ type: "text", text: "Cancelled." }] }),
        H,
      );
    },
  },
];

const invalid: InvalidCase[] = [
  {
    name: "adv-concurrent-elicitations (2025-11-25): ids 4 and 5 outstanding at once (catalogue example)",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(4, "elicitation/create", one("team", "Which team owns the ticket?")));
      second.mark(b);
      b.sse(x, request(5, "elicitation/create", one("prio", "Which priority does it have?")));
    },
    findings: [{ rule: "adv-concurrent-elicitations", severity: "info", pointer: "/id", violator: "server" }],
    also: ({ findings, flows }) => {
      assert.equal(findings[0]!.record, second.at());
      assert.equal(findings[0]!.flow, flows[0]!.id);
    },
  },
  {
    name: "adv-concurrent-elicitations (2026-07-28): one IRR with several elicitations",
    capture: (b) =>
      b.call(
        toolCall(1, "create_ticket"),
        result(
          1,
          irr({
            team: ask(one("team", "Which team owns the ticket?")),
            prio: ask(one("prio", "Which priority does it have?")),
          }),
        ),
        H,
      ),
    findings: [{ rule: "adv-concurrent-elicitations", severity: "info", pointer: "/result/inputRequests" }],
    also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
  },
  {
    name: "adv-batch-questions (2026-07-28): three rounds each asking one independent field (catalogue example)",
    capture: (b) => {
      b.call(
        toolCall(1, "create_ticket"),
        result(1, irr({ team: ask(one("team", "Which team owns the ticket?")) }, "R1")),
        H,
      );
      b.call(
        toolCall(
          2,
          "create_ticket",
          {},
          { inputResponses: { team: { action: "accept", content: { team: "billing" } } }, requestState: "R1" },
        ),
        result(2, irr({ prio: ask(one("prio", "Which priority does it have?")) }, "R2")),
        H,
      );
      third.mark(b);
      b.call(
        toolCall(
          3,
          "create_ticket",
          {},
          { inputResponses: { prio: { action: "accept", content: { prio: "high" } } }, requestState: "R2" },
        ),
        result(3, irr({ due: ask(one("due", "When is it due, roughly?")) }, "R3")),
        H,
      );
    },
    findings: [{ rule: "adv-batch-questions", severity: "info", pointer: "/result/inputRequests", violator: "server" }],
    also: ({ findings, flows }) => {
      // The response of the third call: its POST, 200 and then the body.
      assert.equal(findings[0]!.record, third.at() + 2);
      assert.equal(findings[0]!.flow, flows[0]!.id);
    },
  },
  {
    name: "adv-batch-questions (2025-11-25): three elicitation/create in a row, one field each",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1, "create_ticket"), h);
      const fields: [string, string][] = [
        ["team", "Which team owns the ticket?"],
        ["prio", "Which priority does it have?"],
        ["due", "When is it due, roughly?"],
      ];
      fields.forEach(([field, message], i) => {
        if (i === 2) legacyThird.mark(b);
        b.sse(x, request(10 + i, "elicitation/create", one(field, message)));
        b.accepted(result(10 + i, { action: "accept", content: { [field]: "x" } }), h);
      });
    },
    findings: [{ rule: "adv-batch-questions", severity: "info", pointer: "/params" }],
    also: ({ findings, flows }) => {
      assert.equal(findings[0]!.record, legacyThird.at());
      assert.equal(findings[0]!.flow, flows[0]!.id);
    },
  },
  {
    name: "adv-server-handles-refusal (2026-07-28): the retry with decline gets -32603 (catalogue example)",
    capture: (b) => {
      b.call(toolCall(1, "create_ticket"), result(1, irr({ confirm })), H);
      b.call(
        toolCall(2, "create_ticket", {}, { inputResponses: { confirm: { action: "decline" } } }),
        error(2, -32603, "Cannot read properties of undefined (reading 'confirm')"),
        H,
      );
    },
    findings: [{ rule: "adv-server-handles-refusal", severity: "info", pointer: "/error/code", violator: "server" }],
    also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
  },
  {
    name: "adv-server-handles-refusal (2025-11-25): the tools/call fails after the user cancelled",
    capture: (b) => {
      const h = legacySession(b);
      const x = streamCall(b, legacyToolCall(1), h);
      b.sse(x, request(0, "elicitation/create", form()));
      b.accepted(result(0, { action: "cancel" }), h);
      b.sse(x, error(1, -32603, "Internal error"));
      b.end(x);
    },
    findings: [{ rule: "adv-server-handles-refusal", severity: "info", pointer: "/error/code" }],
    also: ({ findings, flows }) => {
      assert.equal(findings[0]!.flow, flows[0]!.id);
      assert.equal(flows[0]!.status, "error");
    },
  },
];

ruleTester("advisory", meta, { valid, invalid });
