import type { Revision } from "../../protocol/revision.ts";
import type { Report } from "./types.ts";

/** What an exact payload rule needs to know: the revision in force for the message and where to report. */
export interface CheckContext {
  revision: Revision | null;
  report: Report;
}
