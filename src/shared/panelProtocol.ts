import * as z from "zod/mini";
import type { Finding, Flow, Problem } from "../engine/index.ts";
import type { CaptureRecord } from "../capture/record.ts";
import { DecoderInput, type Decoder } from "./decoders.ts";
import type { configValue } from "../engine/settings.ts";
import { PANEL_SOURCE, PROTOCOL_VERSION, WORKER_SOURCE } from "./tags.ts";

/** Most backend records one `backendRecords` command carries (the panel sends a feed's burst in pieces). */
export const MAX_BACKEND_BATCH = 500;

/** Panel → worker, validated by the worker. */
const command = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
  z.object({
    source: z.literal(PANEL_SOURCE),
    v: z.literal(PROTOCOL_VERSION),
    kind: z.literal(kind),
    tabId: z.int().check(z.nonnegative()),
    ...shape,
  });

export const PanelCommand = z.discriminatedUnion("kind", [
  /** Start receiving the tab: a snapshot, then deltas. Sent again after every reconnect. */
  command("subscribe", {}),
  command("clear", {}),
  command("preserveLog", { on: z.boolean() }),
  /** Record (on) or pause (off): while paused the tab's new records are acknowledged but not kept, and counted. */
  command("record", { on: z.boolean() }),
  /** Every capture record the worker holds for the tab (the tests compare them with the CLI), in `records` chunks. */
  command("records", {}),
  /**
   * "Decode as MCP" rules. They are the browser's, not the tab's (`tabId` only names the asking panel): the worker
   * answers each of these with `decoders`, and sends `decoders` to every panel after a change. A new rule
   * gets its id from the worker and applies to what the tap records from then on.
   */
  command("decoders", {}),
  command("addDecoder", { rule: DecoderInput }),
  command("removeDecoder", { id: z.string().check(z.maxLength(16)) }),
  /**
   * Records of an agent backend's MCP wire, as `mcp-elicit proxy`'s feed gives them (the panel's Backend… control
   * reads it): `feed` names the backend (the feed URL's origin and path, never its token), each record is checked
   * by the worker, which alone marks it `source: "backend"`.
   */
  command("backendRecords", {
    feed: z.string().check(z.maxLength(2048)),
    records: z.array(z.unknown()).check(z.maxLength(MAX_BACKEND_BATCH)),
  }),
  /** Engine settings, the browser's (docs/panel.md "Settings"); answered as `decoders` are. */
  command("settings", {}),
  command("setSettings", { config: z.unknown() }),
  /** DevTools is open on the tab (the DevTools page says so, src/panel/devtools.ts): record it while the port lives. */
  command("inspect", {}),
  /** Record the tab's site without DevTools (on), or no longer (off): "Record on this site without DevTools". */
  command("recordSite", { on: z.boolean() }),
]);
export type PanelCommand = z.infer<typeof PanelCommand>;

export type ConfigValue = ReturnType<typeof configValue>;

/** A command as the panel's views write it: the transport wraps it in the envelope (source, v, tabId). */
export type PanelRequest = PanelCommand extends infer C
  ? C extends unknown
    ? Omit<C, "source" | "v" | "tabId">
    : never
  : never;

/** What a tab holds besides flows and findings; shown in the panel's header. */
export interface TabStats {
  records: number;
  /** Records dropped because the tab reached its memory budget: never a silent loss. */
  dropped: number;
  /** Messages and records refused by validation (relay and worker). */
  rejected: number;
  /** Records dropped because one alone was too large to pass (tap, relay, worker). */
  tooLarge: number;
  /** Bytes of records the tab holds, and its budget (src/background/tabSession.ts). */
  bytes: number;
  budget: number;
  preserveLog: boolean;
  /** False while the panel's record button is off (paused). */
  recording: boolean;
  /** Records the tap saw while recording was paused: not kept, counted. */
  skipped: number;
  /**
   * What the envelope stage (src/capture/envelopes, `Unwrapper.counts()`) did with this tab's records, summed over
   * worker restarts: MCP messages taken out of a host envelope, by stamp — `inspector-v2`, `mcp-b`, `generic`,
   * `proxy`, and `decode:<rule id>` for each decode rule (the panel's "matched N") — and envelope bodies dropped
   * because they could not be read (`unreadable`) or because an adapter failed on them (`failed`). Absent keys are 0;
   * absent in the panel's empty state before its first snapshot.
   */
  envelopes?: Record<string, number>;
  /**
   * When the worker started keeping this tab's traffic (ms since the epoch) and why: DevTools opened on it, or its
   * site is recorded without DevTools. Earlier traffic was never kept. Absent before anything was recorded.
   */
  recordingSince?: number;
  recordingReason?: "devtools" | "site";
  /** The tab's site (scheme and host) as its top frame's relay told the browser, and whether it is recorded without DevTools. */
  site?: string;
  siteRecorded?: boolean;
}

/**
 * Most message text one worker → panel message carries. Chrome refuses a runtime message over 64 MiB and a tab
 * may hold 64 MiB of text, so a snapshot's records follow it in chunks (`snapshotRecords`).
 */
export const RECORD_CHUNK_CHARS = 8 * 2 ** 20;

type Envelope<K extends string, T> = {
  source: typeof WORKER_SOURCE;
  v: typeof PROTOCOL_VERSION;
  kind: K;
  tabId: number;
} & T;

/** Worker → panel. Trusted direction (the worker made it), so a type rather than a schema. */
export type WorkerToPanel =
  /** Everything the tab holds, replacing what the panel had; `more`: further records follow in `snapshotRecords`. */
  | Envelope<
      "snapshot",
      {
        flows: Flow[];
        findings: Finding[];
        problems: Problem[];
        stats: TabStats;
        records?: CaptureRecord[];
        more?: boolean;
      }
    >
  | Envelope<"snapshotRecords", { records: CaptureRecord[]; more: boolean }>
  /** What changed since the last delta: changed flows (latest state), new findings, problems and records. */
  | Envelope<
      "delta",
      { flows: Flow[]; findings: Finding[]; problems: Problem[]; stats: TabStats; records?: CaptureRecord[] }
    >
  /** One chunk of the answer to the `records` command; `more`: further chunks follow. */
  | Envelope<"records", { records: CaptureRecord[]; more: boolean }>
  /** Every decode rule, in the order they were added; `error` when the command that asked was refused. */
  | Envelope<"decoders", { rules: Decoder[]; error?: string }>
  /** The engine settings as a configuration file's value; `error` when the command that asked was refused. */
  | Envelope<"settings", { config: ConfigValue; error?: string }>;

/** Splits records into chunks of at most RECORD_CHUNK_CHARS of message text (a record over it goes alone). */
export function chunkRecords(records: readonly CaptureRecord[], limit = RECORD_CHUNK_CHARS): CaptureRecord[][] {
  const chunks: CaptureRecord[][] = [];
  let current: CaptureRecord[] = [];
  let size = 0;
  for (const record of records) {
    const n = record.kind === "message" ? record.text.length : 0;
    if (current.length > 0 && size + n > limit) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(record);
    size += n;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}
