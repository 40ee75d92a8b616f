import assert from "node:assert/strict";
import { meta } from "../../src/engine/rules/revisionFeature.ts";
import { legacySession, legacyToolCall, request, streamCall } from "../helpers/capture.ts";
import { ruleTester, type Builder } from "./ruleTester.ts";

/** elicitation/create in a session negotiated at `revision`. */
const asked = (revision: string) => (b: Builder) => {
  const h = legacySession(b, revision, { elicitation: {} });
  const x = streamCall(b, legacyToolCall(1), h);
  b.sse(
    x,
    request(2, "elicitation/create", {
      message: "Name?",
      requestedSchema: { type: "object", properties: { n: { type: "string" } } },
    }),
  );
};

ruleTester("revisionFeature", meta, {
  valid: [{ name: "elicitation/create in 2025-06-18", capture: asked("2025-06-18") }],
  invalid: [
    {
      name: "rev-feature-not-in-revision: elicitation/create in a session negotiated at 2025-03-26",
      capture: asked("2025-03-26"),
      findings: [{ rule: "rev-feature-not-in-revision", severity: "error", pointer: "/method", violator: "server" }],
      also: ({ findings, flows }) => assert.equal(findings[0]!.flow, flows[0]!.id),
    },
  ],
});
