import * as z from "zod/mini";
import type { Finding, Flow, Problem } from "../engine/index.ts";
import type { CaptureRecord } from "../capture/record.ts";
import { PANEL_SOURCE, PROTOCOL_VERSION, WORKER_SOURCE } from "./tags.ts";

/** Panel → worker, validated by the worker. */
const command = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
  z.object({ source: z.literal(PANEL_SOURCE), v: z.literal(PROTOCOL_VERSION), kind: z.literal(kind), tabId: z.int().check(z.nonnegative()), ...shape });

export const PanelCommand = z.discriminatedUnion("kind", [
  /** Start receiving the tab: a snapshot, then deltas. Sent again after every reconnect. */
  command("subscribe", {}),
  command("clear", {}),
  command("preserveLog", { on: z.boolean() }),
  /** Every capture record the worker holds for the tab (export; the tests compare them with the CLI). */
  command("records", {}),
]);
export type PanelCommand = z.infer<typeof PanelCommand>;

/** What a tab holds besides flows and findings; shown in the panel's header. */
export interface TabStats {
  records: number;
  /** Records refused because the tab reached its cap: never a silent loss. */
  dropped: number;
  /** Messages the content relays refused (failed validation). */
  rejected: number;
  preserveLog: boolean;
}

/** Worker → panel. Trusted direction (the worker made it), so a type rather than a schema. */
export type WorkerToPanel =
  | { source: typeof WORKER_SOURCE; v: typeof PROTOCOL_VERSION; kind: "snapshot"; tabId: number; flows: Flow[]; findings: Finding[]; problems: Problem[]; stats: TabStats }
  | { source: typeof WORKER_SOURCE; v: typeof PROTOCOL_VERSION; kind: "delta"; tabId: number; flows: Flow[]; findings: Finding[]; problems: Problem[]; stats: TabStats }
  | { source: typeof WORKER_SOURCE; v: typeof PROTOCOL_VERSION; kind: "records"; tabId: number; records: CaptureRecord[] };
