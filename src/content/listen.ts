import { TapEnvelope } from "../shared/contentProtocol.ts";
import { TapRecord } from "../shared/tapRecord.ts";
import { TAP_SOURCE } from "../shared/tags.ts";

/**
 * Takes the tap's envelopes out of the page's `message` events. Any script in the page can post to the window, so
 * an envelope counts only when it comes from this very window, carries the tap's tag and passes the schema; each
 * record is checked on its own. Failures are dropped and counted. Registered at document_start, before any page
 * script, so stopping the event here keeps the envelopes from every page listener.
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

  win.addEventListener(
    "message",
    (event) => {
      if (event.source !== win) return;
      const data: unknown = event.data;
      if (data === null || typeof data !== "object" || (data as { source?: unknown }).source !== TAP_SOURCE) return;
      event.stopImmediatePropagation();
      accept(data);
    },
    true,
  );

  // The tap's last batch at pagehide, sent synchronously (a posted message would die with the document).
  win.addEventListener(
    TAP_SOURCE,
    (event) => {
      event.stopImmediatePropagation();
      const detail: unknown = (event as CustomEvent).detail;
      try {
        accept(typeof detail === "string" ? JSON.parse(detail) : undefined);
      } catch {
        onRecords([], 1);
      }
    },
    true,
  );
}
