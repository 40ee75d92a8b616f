import type { catalogue } from "./catalogue.ts";

export type Severity = "error" | "warning" | "info";
export const severityRank: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** One row of the rule catalogue (../shared/rules.md, quick index). */
export interface RuleMeta {
  id: string;
  revisions: string;
  severity: Severity;
  /** The catalogue's full severity cell, e.g. "error / info" where the severity depends on the case. */
  severityNote: string;
  violator: string;
  title: string;
  /** Revision of the spec page to link when the flow's own revision does not pick one. */
  specRevision: string | null;
  specPath: string;
}

export type RuleId = (typeof catalogue)[number]["id"];

export type Violator = "server" | "client" | "either" | "none";

/** What a rule reports; the engine adds flow, record and spec link. */
export interface FindingInput {
  rule: RuleId;
  /** Omitted: the catalogue's default severity. Given: the case-specific severity from the catalogue entry. */
  severity?: Severity;
  violator?: Violator;
  /** RFC 6901 pointer into the JSON-RPC message of the record the finding is about. */
  pointer: string;
  message: string;
  /** The record the evidence sits in; omitted: the record being processed. */
  record?: number;
}

export type Report = (finding: FindingInput) => void;
