import assert from "node:assert/strict";
import { test } from "node:test";
import { compareAnswer, compareRequest } from "../../src/cli/replay/compare.ts";

// What replay says when a client does otherwise than the capture's client did.
const retry = (params: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "plan_trip", arguments: {}, ...params },
});
const captured = retry({
  requestState: "s1",
  inputResponses: { city: { action: "accept", content: { city: "Lisbon", when: "May" } } },
});

test("a 2026-07-28 retry: requestState not echoed or changed, a key unanswered, another action, fields", () => {
  assert.deepEqual(compareRequest(captured, captured), []);
  assert.deepEqual(
    compareRequest(
      captured,
      retry({ inputResponses: { city: { action: "accept", content: { city: "Lisbon", when: "May" } } } }),
    ),
    ["requestState not echoed"],
  );
  assert.deepEqual(compareRequest(captured, retry({ requestState: "s2", inputResponses: {} })), [
    'requestState "s2" is not the one sent ("s1")',
    'no answer for inputRequests key "city"',
  ]);
  assert.deepEqual(
    compareRequest(captured, retry({ requestState: "s1", inputResponses: { city: { action: "cancel" } } })),
    ['inputResponses "city": action "cancel" where the capture has "accept"'],
  );
  assert.deepEqual(
    compareRequest(
      captured,
      retry({
        requestState: "s1",
        inputResponses: { city: { action: "accept", content: { city: "Porto", extra: 1 } } },
      }),
    ),
    [
      'inputResponses "city": field "city" is "Porto" where the capture has "Lisbon"',
      'inputResponses "city": missing field "when" (the capture\'s answer has "May")',
      'inputResponses "city": field "extra" that the capture\'s answer lacks',
    ],
  );
  assert.deepEqual(compareRequest(retry({}), retry({ requestState: "x" })), [
    'a requestState "x" where the capture has none',
  ]);
  assert.deepEqual(compareRequest(retry({}), { ...retry({}), params: { name: "plan_trip", arguments: { a: 1 } } }), [
    'arguments {"a":1} where the capture has {}',
  ]);
});

test("a 2025-11-25 answer to elicitation/create, and an initialize with other capabilities", () => {
  const answer = (result: unknown) => ({ jsonrpc: "2.0", id: 0, result });
  assert.deepEqual(
    compareAnswer(
      "elicitation/create",
      answer({ action: "accept", content: { confirm: true } }),
      answer({ action: "accept", content: { confirm: true } }),
    ),
    [],
  );
  assert.deepEqual(
    compareAnswer(
      "elicitation/create",
      answer({ action: "accept", content: { confirm: true } }),
      answer({ action: "accept", content: {} }),
    ),
    ['missing field "confirm" (the capture\'s answer has true)'],
  );
  assert.deepEqual(
    compareAnswer("elicitation/create", answer({ action: "accept" }), {
      jsonrpc: "2.0",
      id: 0,
      error: { code: -1, message: "no" },
    }),
    ['an error {"code":-1,"message":"no"} where the capture has a result'],
  );
  const init = (elicitation?: object) => ({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: elicitation ? { elicitation } : {} },
  });
  assert.deepEqual(compareRequest(init({ form: {}, url: {} }), init({ form: {} })), [
    'elicitation capability ["form"] where the capture has ["form","url"]',
  ]);
});
