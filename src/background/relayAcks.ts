import { envelope, post, type HubPort } from "./ports.ts";

/**
 * Acks to a relay are throttled: every message a content script receives costs the page's main thread ~0.2 ms of
 * Chrome's extension messaging (bench/tap/trace.ts), and the relay needs acks only to trim its queue; what it has not
 * seen acked it sends again after a worker restart, and the worker stores it once.
 */
export const ACK_MS = 1000;

/** The acks of one relay's port: at most one per `ackMs`, each saying the highest number stored of its document. */
export function createRelayAcks(port: HubPort, ackMs: number) {
  let ack: { doc: string; upTo: number; recording: boolean } | undefined;
  let ackedAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (): void => {
    timer = undefined;
    if (!ack) return;
    ackedAt = Date.now();
    post(port, { ...envelope, kind: "ack", ...ack });
    ack = undefined;
  };
  return {
    /**
     * Acks the document's items up to `upTo`, saying whether the frame is recorded (its tap stops sending when not):
     * now, or once `ackMs` has passed since the last ack.
     */
    queue(doc: string, upTo: number, recording = true): void {
      ack = { doc, upTo: ack?.doc === doc ? Math.max(ack.upTo, upTo) : upTo, recording };
      const wait = ackedAt + ackMs - Date.now();
      if (wait <= 0) send();
      else timer ??= setTimeout(send, wait);
    },
    stop(): void {
      clearTimeout(timer);
    },
  };
}
