// --disable <rule>: the rule's check never runs. Spies count the calls of the checks themselves (node:test's
// mock.method calls through), so these tests tell "not called" from "called and its findings dropped".
import assert from "node:assert/strict";
import { afterEach, mock, test } from "node:test";
import { askedFamilies } from "../../src/engine/rules/payload.ts";
import { formChecks } from "../../src/engine/rules/form.ts";
import { notify } from "../../src/engine/rules/notify.ts";
import { rules as catalogue } from "../../src/engine/ruleKit/rules.ts";
import {
  captureBuilder,
  expectFinding,
  expectNone,
  legacySession,
  legacyToolCall,
  notification,
  request,
  result,
} from "../helpers/capture.ts";

afterEach(() => mock.restoreAll());

/** A 2025-11-25 session whose tool asks for a password in form mode, with a link in the field's description. */
function passwordCapture() {
  const b = captureBuilder();
  const h = legacySession(b);
  const x = b.post(legacyToolCall(1, "connect"), h);
  b.status(x, 200, { "content-type": "text/event-stream" });
  const password = { type: "string", title: "Password", description: "See https://example.com/help for help" };
  b.sse(
    x,
    request(7, "elicitation/create", {
      mode: "form",
      message: "Sign in to the database",
      requestedSchema: { type: "object", properties: { password } },
    }),
  );
  b.accepted(result(7, { action: "decline" }), h);
  b.sse(x, result(1, { content: [] }));
  b.end(x);
  return b;
}

test("a disabled payload rule's check is not called; the other checks of its family still run", () => {
  const secret = mock.method(formChecks, "form-secret-field");
  const link = mock.method(formChecks, "form-clickable-url");
  const b = passwordCapture();

  const on = b.analyze();
  expectFinding(on, "form-secret-field");
  expectFinding(on, "form-clickable-url");
  assert.equal(secret.mock.callCount(), 1);
  assert.equal(link.mock.callCount(), 1);

  const off = b.analyze({ disable: ["form-secret-field"] });
  expectNone(off, "form-secret-field");
  expectFinding(off, "form-clickable-url");
  assert.equal(secret.mock.callCount(), 1, "form-secret-field's check ran although the rule is disabled");
  assert.equal(link.mock.callCount(), 2);
  // Nothing else changes: the same findings but the disabled rule's, the same flows.
  assert.deepEqual(
    off.findings.map((f) => [f.rule, f.pointer]),
    on.findings.filter((f) => f.rule !== "form-secret-field").map((f) => [f.rule, f.pointer]),
  );
  assert.deepEqual(off.flows, on.flows);
});

test("a payload family whose rules are all disabled is not walked", () => {
  const schema = mock.method(askedFamilies, "schema");
  const form = mock.method(askedFamilies, "form");
  const b = passwordCapture();
  b.analyze();
  assert.equal(schema.mock.callCount(), 1);
  assert.equal(form.mock.callCount(), 1);

  const schemaRules = catalogue.filter((r) => r.id.startsWith("schema-")).map((r) => r.id);
  const r = b.analyze({ disable: schemaRules });
  assert.equal(schema.mock.callCount(), 1, "the schema family walked a payload although all its rules are disabled");
  assert.equal(form.mock.callCount(), 2);
  expectFinding(r, "form-secret-field");
});

test("a rule module whose rules are all disabled is never created", () => {
  const create = mock.method(notify, "create");
  const b = captureBuilder();
  const h = legacySession(b);
  b.accepted(notification("notifications/elicitation/complete", { elicitationId: "e1" }), h);
  expectFinding(b.analyze(), "notify-direction");
  assert.equal(create.mock.callCount(), 1);
  const r = b.analyze({ disable: notify.meta.map((m) => m.id) });
  assert.equal(create.mock.callCount(), 1);
  expectNone(r, "notify-direction");
});
