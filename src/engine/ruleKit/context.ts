import type { Revision } from "../../protocol/revision.ts";
import type { Report, RuleId } from "./types.ts";

/** What an exact payload rule needs to know: the revision in force for the message, where to report, and which rules are on. */
export interface CheckContext {
  revision: Revision | null;
  report: Report;
  /** Whether a rule is on (`--disable` turns rules off): the check of a rule that is off does not run. */
  on(id: RuleId): boolean;
}
