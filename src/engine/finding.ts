import type { RuleId, Severity, Violator } from "./ruleKit/types.ts";

export interface Finding {
  /** Stable within one engine run: `F<n>`. */
  id: string;
  rule: RuleId;
  severity: Severity;
  violator: Violator;
  /** Flow the finding belongs to, or null for session-level findings (e.g. an initialize capability shape). */
  flow: string | null;
  /** Index of the capture record holding the evidence (`seq`). */
  record: number;
  /** HAR entry index (HAR input) or the record's own index (JSONL / live). */
  entry: number;
  /** RFC 6901 pointer into that record's JSON-RPC message. */
  pointer: string;
  message: string;
  spec: string;
}
