import { CONTENT_SOURCE, PROTOCOL_VERSION } from "../shared/tags.ts";
import { MAX_BATCH, WorkerAck, type ContentBatch } from "../shared/contentProtocol.ts";
import type { TapRecord } from "../shared/tapRecord.ts";

/** The part of a runtime Port the uplink uses (tests pass a fake). */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface UplinkOptions {
  connect(): PortLike;
  /** This document's id and whether it is the top frame (contentProtocol.ts). */
  doc: string;
  top: boolean;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Most records held while the worker is unreachable; older ones beyond it are dropped and counted. */
  maxQueue?: number;
  /** A connected port with nothing to send is closed after this long (pages with open ports lose the bfcache). */
  idleMs?: number;
}

/**
 * The relay's side of the port to the worker. Every record gets a number and stays queued until the worker acks
 * it as stored: an MV3 worker stopped mid-flow drops every port, and whatever it had not persisted is sent again on
 * the next port (the worker drops numbers it already has). Reconnects only while something is queued, so idle tabs
 * do not keep waking a stopped worker (React's connectExtensionPort, Apollo's createPortMessageAdapter).
 */
export function createUplink(options: UplinkOptions) {
  const later = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const cancel = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const maxQueue = options.maxQueue ?? 20_000;
  const idleMs = options.idleMs ?? 5_000;
  /** Records not yet acked; `queue[i]` has number `base + i`. */
  let queue: TapRecord[] = [];
  let base = 0;
  /** Numbers below this were sent on the current port. */
  let sent = 0;
  let rejected = 0;
  let hello = options.top;
  let port: PortLike | undefined;
  let dead = false;
  let failures = 0;
  let retry: unknown;
  let idle: unknown;

  const connect = (): PortLike | undefined => {
    if (port || dead) return port;
    let next: PortLike;
    try {
      next = options.connect();
    } catch {
      // "Extension context invalidated": the extension was reloaded or removed; this relay is orphaned for good.
      dead = true;
      return undefined;
    }
    port = next;
    sent = base;
    next.onMessage.addListener((message) => {
      const ack = WorkerAck.safeParse(message);
      if (!ack.success || ack.data.doc !== options.doc || port !== next) return;
      failures = 0;
      const upTo = Math.min(ack.data.upTo, base + queue.length - 1);
      if (upTo >= base) {
        queue = queue.slice(upTo - base + 1);
        base = upTo + 1;
      }
      armIdle();
    });
    next.onDisconnect.addListener(() => {
      if (port !== next) return;
      port = undefined;
      cancel(idle);
      if (queue.length > 0 || rejected > 0) {
        // Immediately after a worker restart; backing off while the worker cannot be reached.
        failures++;
        retry = later(flush, failures <= 1 ? 0 : Math.min(2000, 50 * 2 ** failures));
      }
    });
    return next;
  };

  const armIdle = (): void => {
    cancel(idle);
    if (queue.length === 0 && rejected === 0) {
      idle = later(() => {
        if (port && queue.length === 0 && rejected === 0) {
          const closing = port;
          port = undefined;
          closing.disconnect();
        }
      }, idleMs);
    }
  };

  function flush(): void {
    cancel(retry);
    const p = connect();
    if (!p) return;
    while (sent < base + queue.length || hello || rejected > 0) {
      const records = queue.slice(sent - base, sent - base + MAX_BATCH);
      const batch: ContentBatch = { source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: "records", doc: options.doc, top: options.top, first: sent, records, rejected };
      try {
        p.postMessage(batch);
      } catch {
        return; // the port died under us; its onDisconnect reconnects
      }
      sent += records.length;
      rejected = 0;
      hello = false;
    }
    cancel(idle);
  }

  return {
    /** Queues what the tap sent and forwards it (the tap already batches: one envelope per ~50 ms). */
    push(records: TapRecord[], rejectedHere = 0): void {
      rejected += rejectedHere;
      for (const record of records) queue.push(record);
      const overflow = queue.length - maxQueue;
      if (overflow > 0) {
        queue = queue.slice(overflow);
        base += overflow;
        sent = Math.max(sent, base);
        rejected += overflow;
      }
      if (records.length > 0 || rejected > 0) flush();
    },
    /** The top frame's hello: an empty batch that tells the worker a new document is in the tab. */
    hello(): void {
      if (options.top) flush();
    },
    /** Queue length and connection state, for tests. */
    state: () => ({ queued: queue.length, base, connected: port !== undefined, dead }),
  };
}
