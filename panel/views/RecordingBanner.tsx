import type { TabStats } from "../../src/shared/panelProtocol.ts";
import type { Command } from "../state/transport.ts";

const clock = (ms: number): string => new Date(ms).toLocaleTimeString();

/**
 * When the worker started keeping this tab's traffic and why (src/background/recording.ts): as DevTools' Network
 * panel, it records a tab only while DevTools is open on it, so traffic from before is not there; or the tab's site is
 * recorded without DevTools, a choice shown here and revocable here.
 */
export function RecordingBanner({ stats, send }: { stats: TabStats; send(command: Command): void }) {
  const since = stats.recordingSince;
  const site = stats.site;
  return (
    <aside class="coverage recording" role="note" aria-label="recording">
      <span>
        {since === undefined
          ? "Recording starts when DevTools opens on this tab; nothing is kept before."
          : stats.recordingReason === "site"
            ? `Recording ${site ?? "this site"} without DevTools, since ${clock(since)}.`
            : `Recording since ${clock(since)}, when DevTools opened on this tab: earlier traffic was never recorded ` +
              "(reload the page to capture it from its first request)."}
      </span>
      {site !== undefined && (
        <button
          type="button"
          aria-pressed={stats.siteRecorded === true}
          title={
            stats.siteRecorded
              ? `Every tab of ${site} is recorded, DevTools open or not (pop-ups and tabs an agent opens). Click to stop.`
              : `Record every tab of ${site} without DevTools (pop-ups and tabs an agent opens). Kept in this browser only; revocable here.`
          }
          onClick={() => send({ kind: "recordSite", on: !stats.siteRecorded })}
        >
          {stats.siteRecorded ? `Stop recording ${site} without DevTools` : "Record on this site without DevTools"}
        </button>
      )}
    </aside>
  );
}
