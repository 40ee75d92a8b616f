// Shared helpers for the payload-rule tests: run one EP or ER through the entry points and read findings
// with their effective severity (an omitted severity is the catalogue default).
import assert from "node:assert/strict";
import { rules as catalogue } from "../../src/engine/ruleKit/rules.ts";
import { checkElicitParams, checkElicitResult } from "../../src/engine/rules/payload.ts";
import type { FindingInput, RuleId, Severity } from "../../src/engine/ruleKit/types.ts";
import type { Revision } from "../../src/protocol/revision.ts";

export type Found = FindingInput & { severity: Severity };
type Where = "server-request" | "url-required-error" | "input-request";

const defaults = new Map<string, Severity>(catalogue.map((r) => [r.id, r.severity as Severity]));
const resolve = (f: FindingInput): Found => ({ ...f, severity: f.severity ?? defaults.get(f.rule)! });

export function params(ep: unknown, revision: Revision | null = "2025-11-25", where: Where = "server-request", at = "/params"): Found[] {
  const out: Found[] = [];
  checkElicitParams(ep, at, { revision, report: (f) => out.push(resolve(f)) }, where);
  return out;
}

export function result(er: unknown, ep: unknown, revision: Revision | null = "2025-11-25", where: "response" | "input-response" = "response", at = "/result"): Found[] {
  const out: Found[] = [];
  checkElicitResult(er, ep, at, { revision, report: (f) => out.push(resolve(f)) }, where);
  return out;
}

export const of = (found: Found[], rule: RuleId): Found[] => found.filter((f) => f.rule === rule);

/** Exactly one finding of `rule`, with this severity and pointer. */
export function expectOne(found: Found[], rule: RuleId, severity: Severity, pointer: string): Found {
  const hits = of(found, rule);
  assert.equal(hits.length, 1, `expected one ${rule}, got ${JSON.stringify(found, null, 1)}`);
  assert.equal(hits[0]!.severity, severity, `${rule} severity`);
  assert.equal(hits[0]!.pointer, pointer, `${rule} pointer`);
  return hits[0]!;
}

export function expectNone(found: Found[], rule: RuleId): void {
  assert.deepEqual(of(found, rule), [], `expected no ${rule}`);
}

/** A form EP around these properties. */
export const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  mode: "form",
  message: "Please tell us how to set up your project",
  requestedSchema: { type: "object", properties, ...extra },
});

/** A URL EP (2025-11-25 shape, with elicitationId). */
export const urlEp = (url: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  mode: "url",
  message: "Please connect your billing account to continue",
  url,
  elicitationId: "550e8400-e29b-41d4-a716-446655440000",
  ...extra,
});
