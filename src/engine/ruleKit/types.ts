import type { Revision } from "../../protocol/revision.ts";
import type { Facts } from "../facts.ts";
import type { Flow } from "../flow.ts";
import type { RuleId } from "./ruleIds.ts";

export type Severity = "error" | "warning" | "info";
export const severityRank: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export type { RuleId } from "./ruleIds.ts";

/**
 * What a rule is, as the catalogue (docs/catalogue.md) says: its quick-index row, and from its detailed entry
 * the detection and the section. test/engine/coverage.test.ts holds every module's meta against the catalogue.
 */
export interface RuleMeta {
  id: RuleId;
  revisions: string;
  severity: Severity;
  /** The catalogue's full severity cell, e.g. "error / info" where the severity depends on the case. */
  severityNote: string;
  /** Who breaks the rule, as findings carry it. */
  violator: Violator;
  /** The catalogue's violator cell, when it says more than `violator` (e.g. "client (+server)"). */
  violatorNote?: string;
  /** exact, stateful, heuristic or side-channel, with the catalogue's qualifications. */
  detection: string;
  title: string;
  /** The catalogue section of the detailed entry, e.g. "3.2". */
  section: string;
  /** The spec page findings link to: its revision when the flow's own revision does not pick one, and its path. */
  spec: { revision: string | null; path: string };
}

export type Violator = "server" | "client" | "either" | "none";

/** What a rule reports; the engine adds the id, the flow, the record and the spec link. */
export interface FindingInput {
  rule: RuleId;
  /** Omitted: the catalogue's default severity. Given: the case-specific severity from the catalogue entry. */
  severity?: Severity;
  violator?: Violator;
  /** RFC 6901 pointer into the JSON-RPC message of the record the finding is about. */
  pointer: string;
  message: string;
  /** The record the evidence sits in; omitted: the fact's record, else the record being processed. */
  record?: number;
  /** The flow the finding belongs to, when not the fact's (null: none). */
  flow?: Flow | null;
  /** The revision whose spec page the finding links to, when not the fact's. */
  revision?: Revision | null;
}

export type Report = (finding: FindingInput) => void;

/** What a rule module is given, once per engine run. */
export interface RuleContext {
  /** Reports a finding about the fact being handled. */
  report: Report;
  /** Whether this rule is on (`--disable` turns rules off): a family runs only the checks of rules that are. */
  on(id: RuleId): boolean;
  /** SEP-2260 strict profile (`--strict-2260`). */
  strict2260: boolean;
}

/** A rule module's answer to the facts it wants to hear about (src/engine/facts.ts). */
export type Listeners = { [F in keyof Facts]?: (fact: Facts[F]) => void };

/**
 * A rule, or a small family of rules, in the manner of eslint's lib/rules: its meta beside its checks. `create`
 * runs once per engine run when at least one of its rules is on; it may keep state (a stateful rule) in its closure.
 */
export interface RuleModule {
  meta: readonly RuleMeta[];
  create(ctx: RuleContext): Listeners;
}
