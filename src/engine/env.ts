import type { CaptureRecord } from "../capture/record.ts";
import type { Emit } from "./facts.ts";
import type { Flow } from "./flow.ts";

/** The engine's services to the correlator. */
export interface Env {
  /** Tells the rules a fact (src/engine/facts.ts); they report findings. */
  emit: Emit;
  flowChanged(flow: Flow): void;
  newFlowId(): string;
  /** Input the engine cannot use (never a finding). */
  problem(record: CaptureRecord, message: string): void;
}
