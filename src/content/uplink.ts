import {
  CONTENT_SOURCE,
  MAX_BATCH,
  MAX_ENVELOPE_CHARS,
  PROTOCOL_VERSION,
  TAP_ENVELOPE_PREFIX,
  WORKER_SOURCE,
} from "../shared/tags.ts";
import type { ContentBatch, WorkerAck } from "../shared/contentProtocol.ts";
import type { TapRecord } from "../shared/tapRecord.ts";
import { createPortAdapter, type PortLike } from "../shared/portAdapter.ts";

/** What the relay forwards: the tap's envelopes as JSON text (listen.ts), or single records (tests, older relays). */
export type Relayed = string | TapRecord;

export type { PortLike };

export interface UplinkOptions {
  connect(): PortLike;
  /** This document's id and whether it is the top frame (contentProtocol.ts). */
  doc: string;
  top: boolean;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Most items (envelopes) held while the worker is unreachable; later ones are dropped and their records counted. */
  maxQueue?: number;
  /** A connected port with nothing to send is closed after this long (pages with open ports lose the bfcache). */
  idleMs?: number;
  /** Whether the worker records this frame, as each ack says (its tap stops sending when not). */
  onRecording?(on: boolean): void;
}

/**
 * The relay's side of the port to the worker. Every item (a tap envelope: one batch of records, emit.ts) gets a
 * number and stays queued until the worker acks it as stored: an MV3 worker stopped mid-flow drops every port, and
 * whatever it had not persisted is sent again on the next port (the worker drops numbers it already has; its acks
 * come at most once a second, src/background/hub.ts). Reconnects only while something is queued, so idle tabs
 * do not keep waking a stopped worker (React's connectExtensionPort, Apollo's createPortMessageAdapter).
 */
export function createUplink(options: UplinkOptions) {
  const later = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clear = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  // Each flush runs on the page's main thread: no call into the timer API when there is no timer to clear.
  const cancel = (handle: unknown): void => {
    if (handle !== undefined) clear(handle);
  };
  const maxQueue = options.maxQueue ?? 2_000;
  const idleMs = options.idleMs ?? 5_000;
  /** Items not yet acked; `queue[i]` has number `base + i`. */
  let queue: Relayed[] = [];
  let base = 0;
  /** Numbers below this were sent on the current port. */
  let sent = 0;
  let rejected = 0;
  /** Records dropped from the full queue, and records too large to forward, not yet queued as a count item. */
  let dropped = 0;
  let tooLarge = 0;
  const owed = (): boolean => rejected > 0 || dropped > 0 || tooLarge > 0;
  /**
   * Counts travel as items of the queue (an envelope of no records that carries them), numbered, acked and resent
   * like records, so that a count posted to a dying worker is not lost either. A full queue takes one more.
   */
  const queueCounts = (): void => {
    if (!owed() || queue.length > maxQueue) return;
    queue.push(countsEnvelope(rejected, dropped, tooLarge));
    rejected = dropped = tooLarge = 0;
  };
  let hello = options.top;
  let idle: unknown;

  const link = createPortAdapter({
    connect: options.connect,
    setTimeout: later,
    clearTimeout: clear,
    // What a new port carries starts at the first item not acked: the worker drops numbers it already has.
    onConnect: () => void (sent = base),
    onMessage(message) {
      if (!isAck(message) || message.doc !== options.doc) return;
      if (typeof message.recording === "boolean") options.onRecording?.(message.recording);
      const upTo = Math.min(message.upTo, base + queue.length - 1);
      if (upTo >= base) {
        queue = queue.slice(upTo - base + 1);
        base = upTo + 1;
      }
      if (owed()) {
        queueCounts();
        flush();
      }
      armIdle();
    },
    onStatus(connected) {
      if (connected) return;
      cancel(idle);
      idle = undefined;
    },
    // Reconnects only while something is queued, so idle tabs do not keep waking a stopped worker.
    wanted: () => queue.length > 0 || owed(),
    resume: () => flush(),
  });

  const armIdle = (): void => {
    cancel(idle);
    idle = undefined;
    if (queue.length === 0 && !owed()) {
      idle = later(() => {
        if (link.connected() && queue.length === 0 && !owed()) link.drop();
      }, idleMs);
    }
  };

  function flush(): void {
    const p = link.open();
    if (!p) return;
    while (sent < base + queue.length || hello) {
      const records = take(queue, sent - base);
      const batch: ContentBatch = {
        source: CONTENT_SOURCE,
        v: PROTOCOL_VERSION,
        kind: "records",
        doc: options.doc,
        top: options.top,
        first: sent,
        records,
        rejected: 0,
      };
      try {
        p.postMessage(batch);
      } catch {
        return; // the port died under us; its onDisconnect reconnects
      }
      sent += records.length;
      hello = false;
    }
    cancel(idle);
    idle = undefined;
  }

  return {
    /** Queues what the tap sent and forwards it (the tap already batches: one envelope per burst of traffic). */
    push(records: Relayed[], rejectedHere = 0, tooLargeHere = 0): void {
      rejected += rejectedHere;
      tooLarge += tooLargeHere;
      // A full queue (the worker unreachable for long) keeps what it holds and counts what comes: an item already
      // sent may be stored by the worker, so only one that never left can be counted as dropped, exactly.
      for (const record of records) {
        if (queue.length < maxQueue) queue.push(record);
        else dropped += recordsIn(record);
      }
      queueCounts();
      if (records.length > 0 || owed() || rejectedHere > 0 || tooLargeHere > 0) flush();
    },
    /** The top frame's hello: an empty batch that tells the worker a new document is in the tab. */
    hello(): void {
      if (options.top) flush();
    },
    /** Queue length and connection state, for tests. */
    state: () => ({ queued: queue.length, base, connected: link.connected(), dead: link.dead() }),
  };
}

/** Items from `start` for one message: at most MAX_BATCH, and envelopes totalling at most MAX_ENVELOPE_CHARS (a
 * runtime message may not exceed 64 MiB; a backlog after a worker restart goes in several). */
function take(queue: Relayed[], start: number): Relayed[] {
  let end = start;
  let chars = 0;
  while (end < queue.length && end - start < MAX_BATCH) {
    const item = queue[end]!;
    chars += typeof item === "string" ? item.length : 0;
    if (chars > MAX_ENVELOPE_CHARS && end > start) break;
    end++;
  }
  return queue.slice(start, end);
}

/** An item that carries counts only: a tap envelope of no records (contentProtocol.ts TapEnvelope). */
const countsEnvelope = (rejected: number, dropped: number, tooLarge: number): string =>
  `${TAP_ENVELOPE_PREFIX}[],"rejected":${rejected},"dropped":${dropped},"tooLarge":${tooLarge}}`;

/** How many records an item carries (its tap envelope parsed: only for items a full queue drops, rarely). */
function recordsIn(item: Relayed): number {
  if (typeof item !== "string") return 1;
  try {
    const envelope = JSON.parse(item) as { records?: unknown };
    return Array.isArray(envelope.records) ? envelope.records.length : 1;
  } catch {
    return 1;
  }
}

/** The worker's ack, checked by hand: a schema library would cost every frame its download and the page its thread. */
function isAck(message: unknown): message is WorkerAck {
  const m = message as Partial<WorkerAck> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    m.source === WORKER_SOURCE &&
    m.v === PROTOCOL_VERSION &&
    m.kind === "ack" &&
    typeof m.doc === "string" &&
    Number.isInteger(m.upTo)
  );
}
