import { TapEnvelope } from "../shared/contentProtocol.ts";
import { TapRecord } from "../shared/tapRecord.ts";
import { TAP_CHANNEL, TAP_SOURCE } from "../shared/tags.ts";

/**
 * Receives the tap's envelopes on its private channel (src/page/emit.ts). Registered at document_start, before the
 * tap and before any page script: the first `TAP_CHANNEL` event dispatched on this very window that carries an
 * EventTarget as `relatedTarget` is the tap's hand-over; the relay keeps that target, stops the event, and stops
 * listening on the window, so later page events of that type (and page messages carrying the tap's tag) reach the
 * page untouched. On the channel, an envelope counts only when it is the tap's event type with a string detail,
 * carries the tap's tag and passes the schema; each record is then checked on its own. Failures are dropped and
 * counted. docs/extension.md ("The tap's channel") gives the threat model.
 */
export function listenToTap(win: Window, onRecords: (records: TapRecord[], rejected: number) => void): void {
  const accept = (data: unknown): void => {
    const envelope = TapEnvelope.safeParse(data);
    if (!envelope.success) return onRecords([], 1);
    const records: TapRecord[] = [];
    let rejected = 0;
    for (const raw of envelope.data.records) {
      const parsed = TapRecord.safeParse(raw);
      if (parsed.success) records.push(parsed.data);
      else rejected++;
    }
    onRecords(records, rejected);
  };

  const onEnvelope = (event: Event): void => {
    try {
      const detail: unknown = (event as CustomEvent).detail;
      accept(event.type === TAP_SOURCE && typeof detail === "string" ? JSON.parse(detail) : undefined);
    } catch {
      onRecords([], 1);
    }
  };

  const onHandOver = (event: Event): void => {
    const channel = (event as MouseEvent).relatedTarget;
    // This window's own event (the `event.source === window` of a message), carrying an EventTarget.
    if (event.target !== win || event.eventPhase !== Event.AT_TARGET || channel === null || typeof channel.addEventListener !== "function") return;
    event.stopImmediatePropagation();
    win.removeEventListener(TAP_CHANNEL, onHandOver, true);
    channel.addEventListener(TAP_SOURCE, onEnvelope);
  };
  win.addEventListener(TAP_CHANNEL, onHandOver, true);
}
