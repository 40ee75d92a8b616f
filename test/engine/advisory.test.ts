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

// rules.md §3.12 Advisory (adv-message-quality is a payload rule, tested with the payload rules).

const H = modernHeaders("tools/call", "create_ticket");
const one = (field: string, message: string) => form({ [field]: { type: "string" } }, message);

test("adv-concurrent-elicitations (2025-11-25): ids 4 and 5 outstanding at once (catalogue example)", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(4, "elicitation/create", one("team", "Which team owns the ticket?")));
  const second = b.records.length;
  b.sse(x, request(5, "elicitation/create", one("prio", "Which priority does it have?")));
  const r = b.analyze();
  const f = expectFinding(r, "adv-concurrent-elicitations", { severity: "info", violator: "server", record: second });
  assert.equal(f.pointer, "/id");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("adv-concurrent-elicitations (2026-07-28): one IRR with several elicitations", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "create_ticket"), result(1, irr({ team: ask(one("team", "Which team owns the ticket?")), prio: ask(one("prio", "Which priority does it have?")) })), H);
  const r = b.analyze();
  const f = expectFinding(r, "adv-concurrent-elicitations", { severity: "info" });
  assert.equal(f.pointer, "/result/inputRequests");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("adv-concurrent-elicitations: clean for one question at a time", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(4, "elicitation/create", one("team", "Which team owns the ticket?")));
  b.accepted(result(4, { action: "accept", content: { team: "billing" } }), h);
  b.sse(x, request(5, "elicitation/create", one("prio", "Which priority does it have?")));
  expectNone(b.analyze(), "adv-concurrent-elicitations");
  const m = captureBuilder();
  m.call(toolCall(1, "create_ticket"), result(1, irr({ team: ask(one("team", "Which team owns the ticket?")) })), H);
  expectNone(m.analyze(), "adv-concurrent-elicitations");
});

test("adv-batch-questions (2026-07-28): three rounds each asking one independent field (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "create_ticket"), result(1, irr({ team: ask(one("team", "Which team owns the ticket?")) }, "R1")), H);
  b.call(toolCall(2, "create_ticket", {}, { inputResponses: { team: { action: "accept", content: { team: "billing" } } }, requestState: "R1" }), result(2, irr({ prio: ask(one("prio", "Which priority does it have?")) }, "R2")), H);
  const third = b.records.length + 2;
  b.call(toolCall(3, "create_ticket", {}, { inputResponses: { prio: { action: "accept", content: { prio: "high" } } }, requestState: "R2" }), result(3, irr({ due: ask(one("due", "When is it due, roughly?")) }, "R3")), H);
  const r = b.analyze();
  const f = expectFinding(r, "adv-batch-questions", { severity: "info", violator: "server", record: third });
  assert.equal(f.pointer, "/result/inputRequests");
  assert.equal(f.flow, r.flows[0]!.id);
  assert.equal(findingsOf(r, "adv-batch-questions").length, 1);
});

test("adv-batch-questions (2025-11-25): three elicitation/create in a row, one field each", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1, "create_ticket"), h);
  const fields: [string, string][] = [
    ["team", "Which team owns the ticket?"],
    ["prio", "Which priority does it have?"],
    ["due", "When is it due, roughly?"],
  ];
  let third = -1;
  fields.forEach(([field, message], i) => {
    if (i === 2) third = b.records.length;
    b.sse(x, request(10 + i, "elicitation/create", one(field, message)));
    b.accepted(result(10 + i, { action: "accept", content: { [field]: "x" } }), h);
  });
  const r = b.analyze();
  const f = expectFinding(r, "adv-batch-questions", { severity: "info", record: third });
  assert.equal(f.pointer, "/params");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("adv-batch-questions: clean for one form with three fields", () => {
  const b = captureBuilder();
  const all = form({ team: { type: "string" }, prio: { type: "string" }, due: { type: "string" } }, "Tell us about the ticket");
  b.call(toolCall(1, "create_ticket"), result(1, irr({ t: ask(all) }, "R1")), H);
  b.call(toolCall(2, "create_ticket", {}, { inputResponses: { t: { action: "accept", content: { team: "a", prio: "b", due: "c" } } }, requestState: "R1" }), result(2, done()), H);
  expectNone(b.analyze(), "adv-batch-questions");
});

test("adv-server-handles-refusal (2026-07-28): the retry with decline gets -32603 (catalogue example)", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "create_ticket"), result(1, irr({ confirm: ask(form({ confirm: { type: "boolean" } }, "Create the ticket now?")) })), H);
  b.call(toolCall(2, "create_ticket", {}, { inputResponses: { confirm: { action: "decline" } } }), error(2, -32603, "Cannot read properties of undefined (reading 'confirm')"), H);
  const r = b.analyze();
  const f = expectFinding(r, "adv-server-handles-refusal", { severity: "info", violator: "server" });
  assert.equal(f.pointer, "/error/code");
  assert.equal(f.flow, r.flows[0]!.id);
});

test("adv-server-handles-refusal (2025-11-25): the tools/call fails after the user cancelled", () => {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(x, request(0, "elicitation/create", form()));
  b.accepted(result(0, { action: "cancel" }), h);
  b.sse(x, error(1, -32603, "Internal error"));
  b.end(x);
  const r = b.analyze();
  expectFinding(r, "adv-server-handles-refusal", { pointer: "/error/code", flow: r.flows[0]!.id });
  assert.equal(r.flows[0]!.status, "error");
});

test("adv-server-handles-refusal: clean when the decline gets a handled tool result", () => {
  const b = captureBuilder();
  b.call(toolCall(1, "create_ticket"), result(1, irr({ confirm: ask(form({ confirm: { type: "boolean" } }, "Create the ticket now?")) })), H);
  b.call(toolCall(2, "create_ticket", {}, { inputResponses: { confirm: { action: "decline" } } }), result(2, { resultType: "complete", content: [{ type: "text", text: "Cancelled." }] }), H);
  expectNone(b.analyze(), "adv-server-handles-refusal");
});
