import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/lifecycle.ts";
import { legacySession, notification, request } from "../helpers/capture.ts";
import { ruleTester, type Builder } from "./ruleTester.ts";

/** A 2025-11-25 session whose server asks on the GET stream, after notifications/initialized or before it. */
const askOnGet = (initialized: boolean) => (b: Builder) => {
  const h = legacySession(b, "2025-11-25", { elicitation: {} }, "s1", { initialized: false });
  if (initialized) b.accepted(notification("notifications/initialized"), h);
  const g = b.get(h);
  b.sse(
    g,
    request(1, "elicitation/create", {
      message: "Name?",
      requestedSchema: { type: "object", properties: { n: { type: "string" } } },
    }),
    "get-sse",
    h,
  );
};

ruleTester("lifecycle", meta, {
  valid: [{ name: "cap-before-initialized: after notifications/initialized", capture: askOnGet(true) }],
  invalid: [
    {
      name: "cap-before-initialized: elicitation/create before notifications/initialized",
      capture: askOnGet(false),
      findings: [{ rule: "cap-before-initialized", severity: "warning", pointer: "/method", violator: "server" }],
      also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
    },
  ],
});
