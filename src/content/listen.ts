import {
  MAX_ENVELOPE_CHARS,
  TAP_CHANNEL,
  TAP_ENVELOPE_PREFIX,
  TAP_DECODERS,
  TAP_RECORDING,
  TAP_SOURCE,
} from "../shared/tags.ts";

/**
 * Receives the tap's envelopes on its private channel (src/page/emit.ts). Registered at document_start, before the
 * tap and before any page script: the first `TAP_CHANNEL` event dispatched on this very window that carries an
 * EventTarget as `relatedTarget` is the tap's hand-over; the relay keeps that target, stops the event, and stops
 * listening on the window, so later page events of that type (and page messages carrying the tap's tag) reach the
 * page untouched. docs/extension.md ("The tap's channel") gives the threat model.
 *
 * On the channel, an envelope counts when it is the tap's event type with a string detail that starts with the
 * tap's envelope head (tags.ts TAP_ENVELOPE_PREFIX) and is not oversized; anything else is dropped and counted
 * (oversized: as a record too large). The
 * text is forwarded as it is: this runs on the page's main thread, so the JSON parse and the schema checks of
 * every record are left to the worker, which makes them anyway (src/background/tabSession.ts).
 *
 * The other way, on the same channel, the relay tells the tap its decode rules (src/content/decoders.ts) as a
 * `TAP_DECODERS` event with a JSON string `detail` (`rules`), and whether the worker records this frame as a
 * `TAP_RECORDING` event with detail "on" or "off" (`recording`); the last of each waits for the hand-over.
 */
export function listenToTap(
  win: Window,
  onEnvelopes: (envelopes: string[], rejected: number, tooLarge?: number) => void,
): { rules(rules: string): void; recording(on: boolean): void } {
  let channel: EventTarget | undefined;
  const waiting = new Map<string, string>();
  const send = (type: string, detail: string): void => {
    if (!channel) return void waiting.set(type, detail);
    try {
      channel.dispatchEvent(new CustomEvent(type, { detail }));
    } catch {
      // The tap never throws into its channel; nothing to do if the frame is going away.
    }
  };
  /** The tap starts on: only a change is sent. */
  let on = true;
  const onEnvelope = (event: Event): void => {
    try {
      const detail: unknown = (event as CustomEvent).detail;
      if (event.type !== TAP_SOURCE || typeof detail !== "string" || !detail.startsWith(TAP_ENVELOPE_PREFIX))
        onEnvelopes([], 1);
      // The tap splits its batches under this limit (src/page/emit.ts): over it can only be one record.
      else if (detail.length > MAX_ENVELOPE_CHARS) onEnvelopes([], 0, 1);
      else onEnvelopes([detail], 0);
    } catch {
      onEnvelopes([], 1);
    }
  };

  const onHandOver = (event: Event): void => {
    const target = (event as MouseEvent).relatedTarget;
    // This window's own event (the `event.source === window` of a message), carrying an EventTarget.
    if (
      event.target !== win ||
      event.eventPhase !== Event.AT_TARGET ||
      target === null ||
      typeof target.addEventListener !== "function"
    )
      return;
    event.stopImmediatePropagation();
    win.removeEventListener(TAP_CHANNEL, onHandOver, true);
    target.addEventListener(TAP_SOURCE, onEnvelope);
    channel = target;
    for (const [type, detail] of waiting) send(type, detail);
    waiting.clear();
  };
  win.addEventListener(TAP_CHANNEL, onHandOver, true);
  return {
    rules: (rules) => send(TAP_DECODERS, rules),
    recording(recording) {
      if (recording === on) return;
      on = recording;
      send(TAP_RECORDING, on ? "on" : "off");
    },
  };
}
