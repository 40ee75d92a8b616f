import * as z from "zod/mini";
import { CONTENT_SOURCE, MAX_BATCH, PROTOCOL_VERSION, TAP_SOURCE, WORKER_SOURCE } from "./tags.ts";

export { MAX_BATCH };

/**
 * Page tap → content relay → worker, as JSON text: the `detail` of an event on the tap's private channel
 * (src/page/emit.ts), forwarded unparsed by the relay (src/content/listen.ts) as an item of a ContentBatch. The
 * worker parses and checks it (`tapEnvelopeRecords`), then each record on its own, so one bad record costs only itself.
 */
export const TapEnvelope = z.object({
  source: z.literal(TAP_SOURCE),
  v: z.literal(PROTOCOL_VERSION),
  kind: z.literal("records"),
  records: z.array(z.unknown()).check(z.maxLength(MAX_BATCH)),
  /** Records the tap made but could not send, each too large for an envelope alone (src/page/emit.ts), or that
   * the relay could not forward (too large, or its queue full: `dropped`); and messages the relay refused. The
   * relay sends its counts as envelopes of no records (src/content/uplink.ts), acked and resent like records. */
  tooLarge: z.optional(z.int().check(z.nonnegative())),
  dropped: z.optional(z.int().check(z.nonnegative())),
  rejected: z.optional(z.int().check(z.nonnegative())),
});
export type TapEnvelope = z.infer<typeof TapEnvelope>;

/**
 * Content relay → worker, through a runtime port. Each item of `records` is a tap envelope's JSON text (what the
 * relay sends) or a single record object. `doc` names the document (a random id per content script instance) and
 * `first` the relay's number of the first item: the worker keeps, per document, the highest number it has stored,
 * so a batch resent after a worker restart is stored once. `top` marks the top frame: a new top
 * document is a navigation. An empty batch from the top frame is its hello.
 */
export const ContentBatch = z.object({
  source: z.literal(CONTENT_SOURCE),
  v: z.literal(PROTOCOL_VERSION),
  kind: z.literal("records"),
  doc: z.string().check(z.minLength(1), z.maxLength(64)),
  top: z.boolean(),
  first: z.int().check(z.nonnegative()),
  records: z.array(z.unknown()).check(z.maxLength(MAX_BATCH)),
  /** Messages the relay dropped (relays of older builds; the relay now sends its counts as items, see TapEnvelope). */
  rejected: z.int().check(z.nonnegative()),
});
export type ContentBatch = z.infer<typeof ContentBatch>;

/**
 * Worker → content relay: every record numbered up to `upTo` of `doc` is stored (persisted), drop it from the queue.
 * A type, not a schema: the relay checks it by hand (src/content/uplink.ts `isAck`), as a schema library would cost
 * every frame its download.
 */
export interface WorkerAck {
  source: typeof WORKER_SOURCE;
  v: typeof PROTOCOL_VERSION;
  kind: "ack";
  doc: string;
  upTo: number;
  /**
   * Whether the worker records this frame (src/background/recording.ts). False: the relay tells its tap to stop
   * sending (src/content/listen.ts), so a tab nobody inspects costs the worker one batch per document at most.
   */
  recording?: boolean;
}

/**
 * Worker → every relay of a tab (`tabs.sendMessage`): the tab may be recorded now (DevTools opened on it, or a site
 * was chosen for recording), so a tap told to stop starts sending again; the next ack says whether it stays on.
 */
export interface WorkerWake {
  source: typeof WORKER_SOURCE;
  v: typeof PROTOCOL_VERSION;
  kind: "recording";
}

/** A tap envelope's records and lost-record count, or undefined when the text is not one (the worker counts it rejected). */
export function tapEnvelopeRecords(
  text: string,
): { records: unknown[]; tooLarge: number; dropped: number; rejected: number } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const envelope = TapEnvelope.safeParse(data);
  if (!envelope.success) return undefined;
  const { records, tooLarge = 0, dropped = 0, rejected = 0 } = envelope.data;
  return { records, tooLarge, dropped, rejected };
}
