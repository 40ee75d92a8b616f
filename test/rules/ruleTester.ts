// A rule tester in the shape of eslint's RuleTester: one call per rule module (or payload family) with valid and
// invalid captures. Each case runs the real engine (createEngine, the findings cache included) with only the
// rules under test on, ends the capture as analyze() does (settled at the end of time), and asserts the exact
// findings: every one of them, in order, with its rule, severity and pointer; a valid case must produce none at
// all. Every checked rule of the module needs an invalid case.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { createEngine, type EngineOptions, type Finding, type Flow, type Problem } from "../../src/engine/index.ts";
import type { AskedWhere } from "../../src/engine/model/scope.ts";
import { rules as everyRule } from "../../src/engine/ruleKit/rules.ts";
import type { RuleId, RuleMeta, Severity, Violator } from "../../src/engine/ruleKit/types.ts";
import { notChecked } from "../../src/engine/rules/unchecked.ts";
import type { Revision } from "../../src/protocol/revision.ts";
import {
  ask,
  captureBuilder,
  error,
  irr,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
} from "../helpers/capture.ts";

export type Builder = ReturnType<typeof captureBuilder>;

/** What the engine made of a case's capture. */
export interface Outcome {
  records: readonly CaptureRecord[];
  flows: readonly Flow[];
  findings: readonly Finding[];
  problems: readonly Problem[];
}

export interface Case {
  name: string;
  /**
   * The capture: built with the capture builders (test/helpers/capture.ts), or its records as they are (a hosted
   * agent's two wires through the envelope stage: test/engine/relayFixtures.ts).
   */
  capture: ((b: Builder) => void) | readonly CaptureRecord[];
  /** The engine's options (the strict profile, a watched page, …); which rules are on is the tester's. */
  options?: Omit<EngineOptions, "disable">;
  /** More assertions on the outcome (a message's wording, the flow a finding names, …). */
  also?: (outcome: Outcome) => void;
}

/** A finding as a case expects it; `count` (default 1) says how many such findings come in a row. */
export interface Expected {
  rule: RuleId;
  severity: Severity;
  pointer: string;
  count?: number;
  /** When given, the finding's record (its seq) and violator must be these. */
  record?: number;
  violator?: Violator;
}

export interface InvalidCase extends Case {
  findings: readonly Expected[];
}

export interface Cases {
  valid: readonly Case[];
  invalid: readonly InvalidCase[];
}

/** Runs a case's capture through an engine with only `on` enabled. */
function run(on: ReadonlySet<RuleId>, c: Case): Outcome {
  const records = typeof c.capture === "function" ? built(c.capture) : c.capture;
  const engine = createEngine({ ...c.options, disable: everyRule.map((r) => r.id).filter((id) => !on.has(id)) });
  for (const record of records) engine.push(record);
  engine.settle(Infinity);
  return { records, flows: engine.flows(), findings: engine.findings(), problems: engine.problems() };
}

function built(capture: (b: Builder) => void): readonly CaptureRecord[] {
  const b = captureBuilder();
  capture(b);
  return b.records;
}

const shown = (f: Pick<Finding, "rule" | "severity" | "pointer">): string =>
  `{ rule: "${f.rule}", severity: "${f.severity}", pointer: ${JSON.stringify(f.pointer)} }`;

function expectExactly(found: readonly Finding[], expected: readonly Expected[]): void {
  const want = expected.flatMap((e) => Array.from({ length: e.count ?? 1 }, () => e));
  const message = `findings:\n  ${found.map(shown).join(",\n  ") || "(none)"}\nexpected:\n  ${want.map(shown).join(",\n  ") || "(none)"}`;
  assert.deepEqual(
    found.map((f) => [f.rule, f.severity, f.pointer]),
    want.map((e) => [e.rule, e.severity, e.pointer]),
    message,
  );
  want.forEach((e, i) => {
    if (e.record !== undefined) assert.equal(found[i]!.record, e.record, `${e.rule}: record`);
    if (e.violator !== undefined) assert.equal(found[i]!.violator, e.violator, `${e.rule}: violator`);
  });
}

/**
 * Tests the rules `meta` (a rule module's, or a payload family's) under `name`: each valid case produces no
 * finding, each invalid case exactly its findings, and every rule of `meta` that the engine checks has an invalid
 * case that finds it.
 */
export function ruleTester(name: string, meta: readonly RuleMeta[], cases: Cases): void {
  const on = new Set(meta.map((r) => r.id));
  validCases(name, meta, cases.valid);
  for (const c of cases.invalid) {
    test(`${name} invalid: ${c.name}`, () => {
      assert.ok(c.findings.length > 0, "an invalid case expects at least one finding");
      for (const e of c.findings) assert.ok(on.has(e.rule), `${e.rule} is not one of ${name}'s rules`);
      const outcome = run(on, c);
      expectExactly(outcome.findings, c.findings);
      c.also?.(outcome);
    });
  }
  test(`${name}: every rule it checks has an invalid case`, () => {
    const found = new Set(cases.invalid.flatMap((c) => c.findings.map((e) => e.rule)));
    const missing = meta.filter((r) => !(r.id in notChecked) && !found.has(r.id)).map((r) => r.id);
    assert.deepEqual(missing, []);
  });
}

/** Valid cases alone, for rules whose invalid cases are elsewhere (the payload module: each family's file). */
export function validCases(name: string, meta: readonly RuleMeta[], valid: readonly Case[]): void {
  const on = new Set(meta.map((r) => r.id));
  for (const c of valid) {
    test(`${name} valid: ${c.name}`, () => {
      const outcome = run(on, c);
      expectExactly(outcome.findings, []);
      c.also?.(outcome);
    });
  }
}

// ---- Payload cases: one elicitation request (EP) or answer (ER), placed in a real capture -----------------

/** Where an EP is placed; its findings' pointers are given relative to it. */
export interface AskedAt {
  /** The session's revision (2025-xx; default 2025-11-25), or null for a request outside any known session. */
  revision?: Revision | null;
  where?: AskedWhere;
}

/** The pointer of the EP inside its message, for each place `asked` puts it. */
export const epPointer: Record<AskedWhere, string> = {
  "server-request": "/params",
  "url-required-error": "/error/data/elicitations/0",
  "input-request": "/result/inputRequests/q/params",
};

/**
 * A capture where the server asks `ep`: `server-request` as elicitation/create in a 2025-xx session (2025-11-25
 * unless `revision` says otherwise), `url-required-error` as the first entry of a -32042 error (2025-11-25),
 * `input-request` as the input request `q` of a 2026-07-28 InputRequiredResult.
 */
export function asked(ep: unknown, { revision, where = "server-request" }: AskedAt = {}): (b: Builder) => void {
  return (b) => {
    if (where === "input-request") {
      b.call(toolCall(1), result(1, irr({ q: ask(ep) }, "s1")), modernHeaders("tools/call", "deploy"));
      return;
    }
    const rev = revision === undefined ? "2025-11-25" : revision;
    const caps = rev === "2025-06-18" ? { elicitation: {} } : { elicitation: { form: {}, url: {} } };
    const h = rev === null ? {} : legacySession(b, rev, caps);
    if (where === "url-required-error") {
      b.call(legacyToolCall(1), error(1, -32042, "URL elicitation required", { elicitations: [ep] }), h);
      return;
    }
    const x = streamCall(b, legacyToolCall(1), h);
    b.sse(x, request(7, "elicitation/create", ep));
  };
}

/** The pointer of the ER inside its message, for each place `answered` puts it. */
export const erPointer = { response: "/result", "input-response": "/params/inputResponses/q" } as const;

/**
 * A capture where the client answers `ep` with `er`: `response` as the result of an elicitation/create in a
 * 2025-xx session, `input-response` as inputResponses.q of a 2026-07-28 retry.
 */
export function answered(
  er: unknown,
  ep: unknown,
  { revision, where = "response" }: { revision?: Revision | null; where?: keyof typeof erPointer } = {},
): (b: Builder) => void {
  return (b) => {
    if (where === "input-response") {
      const H = modernHeaders("tools/call", "deploy");
      b.call(toolCall(1), result(1, irr({ q: ask(ep) }, "s1")), H);
      b.call(
        toolCall(2, "deploy", {}, { inputResponses: { q: er }, requestState: "s1" }),
        result(2, { resultType: "complete", content: [] }),
        H,
      );
      return;
    }
    asked(ep, { revision, where: "server-request" })(b);
    const rev = revision === undefined ? "2025-11-25" : revision;
    b.accepted(
      { jsonrpc: "2.0", id: 7, result: er },
      rev === null ? {} : { "mcp-session-id": "s1", "mcp-protocol-version": rev },
    );
  };
}

/** Expected findings whose pointers are relative to `base`. */
export const under = (base: string, findings: readonly Expected[]): Expected[] =>
  findings.map((f) => ({ ...f, pointer: base + f.pointer }));
