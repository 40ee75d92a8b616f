import { useSignal, type Signal } from "@preact/signals";
import type { Ref } from "preact";
import type { FlowStore } from "../state/store.ts";
import type { Command } from "../state/transport.ts";
import { focusList } from "./VirtualTable.tsx";
import { escapeInvisible } from "../model/text.ts";
import type { ExportFormat } from "../io/exportCapture.ts";
import type { ImportCounts } from "../io/changes.ts";

export const FILTER_HELP =
  "Filter flows: method:tools/call status:pending mode:url rule:<id> severity:error server:<host> era:2026-07-28 frame:top, and any other word searches the messages";

interface ToolbarProps {
  store: FlowStore;
  tabId: number | undefined;
  send(command: Command): void;
  filterRef: Ref<HTMLInputElement>;
  onImport(file: File): void;
  /** Stops the import under way. */
  onCancelImport(): void;
  /** The user is about to import (pointer or focus on Import…): get ready. */
  onPrepareImport(): void;
  onExport(format: ExportFormat, unredacted: boolean): void;
  onLive(): void;
  /** The Decode as MCP section is open. */
  decodeOpen: Signal<boolean>;
  /** The Backend… section is open, and how many backends are added. */
  backendOpen: Signal<boolean>;
  backendCount: number;
  /** The Settings section (rule levels, strict profile, configuration file) is open. */
  settingsOpen: Signal<boolean>;
}

/** Record/pause, clear, preserve log, the filter box, import and export: one row, as in DevTools' Network panel. */
export function Toolbar({
  store,
  tabId,
  send,
  filterRef,
  onImport,
  onCancelImport,
  onPrepareImport,
  onExport,
  onLive,
  decodeOpen,
  settingsOpen,
  backendOpen,
  backendCount,
}: ToolbarProps) {
  const stats = store.stats.value;
  const source = store.source.value;
  const live = source.kind === "live" && tabId !== undefined;
  const unredacted = useSignal(false);
  const filter = store.filter.value;
  const records = source.kind === "live" ? stats.records : store.recordCount.value;

  const onFilterKey = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    if (store.filterInput.value !== "") store.setFilter("");
    else focusList(".vt.flows");
  };

  return (
    <div class="toolbar" role="toolbar" aria-label="Panel toolbar">
      <h1>
        {source.kind === "file"
          ? `MCP elicitation — ${escapeInvisible(source.name)}`
          : tabId === undefined
            ? "MCP elicitation"
            : `MCP elicitation — tab ${tabId}`}
      </h1>
      <button
        type="button"
        class={`record${stats.recording ? " on" : ""}`}
        aria-pressed={stats.recording}
        title={
          stats.recording
            ? "Recording: click to pause (new traffic of this tab is then not kept)"
            : "Paused: click to record"
        }
        disabled={!live}
        onClick={() => send({ kind: "record", on: !stats.recording })}
      >
        <span class="dot" aria-hidden="true" /> Record
      </button>
      <button
        type="button"
        title={source.kind === "file" ? "Close the file" : "Clear this tab's capture"}
        disabled={!live && source.kind !== "file"}
        onClick={() => (source.kind === "file" ? onLive() : send({ kind: "clear" }))}
      >
        {source.kind === "file" ? "Close file" : "Clear"}
      </button>
      <label class="check">
        <input
          type="checkbox"
          checked={stats.preserveLog}
          disabled={!live}
          onChange={(e) => send({ kind: "preserveLog", on: e.currentTarget.checked })}
        />
        Preserve log
      </label>
      <span class="sep" />
      <input
        ref={filterRef}
        class="filter"
        type="search"
        aria-label="Filter flows"
        aria-invalid={filter.errors.length > 0 ? true : undefined}
        aria-describedby={filter.errors.length > 0 ? "filter-errors" : undefined}
        placeholder="Filter (/ or Ctrl+F): method: status: mode: rule: severity: server: era: or text"
        title={FILTER_HELP}
        spellcheck={false}
        value={store.filterInput.value}
        onInput={(e) => store.setFilter(e.currentTarget.value)}
        onKeyDown={onFilterKey}
      />
      {filter.errors.length > 0 && (
        <span id="filter-errors" class="filter-errors" role="status">
          {filter.errors.map((e) => escapeInvisible(String(e))).join("; ")}
        </span>
      )}
      <span class="sep" />
      <label
        class="button"
        title="Open a HAR (e.g. saved from the Network panel) or a JSONL capture; it is analysed here, by the same engine"
        onPointerEnter={onPrepareImport}
        onFocusIn={onPrepareImport}
      >
        Import…
        <input
          type="file"
          class="visually-hidden"
          aria-label="Import HAR or JSONL file"
          accept=".har,.jsonl,.ndjson,.json,application/json"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (file) onImport(file);
          }}
        />
      </label>
      <button
        type="button"
        onClick={() => onExport("jsonl", unredacted.value)}
        disabled={records === 0}
        title="Save the capture as JSONL (mcp-elicit lint reads it)"
      >
        Export JSONL
      </button>
      <button
        type="button"
        onClick={() => onExport("har", unredacted.value)}
        disabled={records === 0}
        title="Save the capture as HAR"
      >
        Export HAR
      </button>
      <label
        class="check"
        title="Exports are redacted by default: authorization and cookie headers, secret-looking form values and tokens in URLs are replaced"
      >
        <input
          type="checkbox"
          checked={unredacted.value}
          onChange={(e) => (unredacted.value = e.currentTarget.checked)}
        />
        unredacted
      </label>
      <button
        type="button"
        class="decode-toggle"
        aria-expanded={decodeOpen.value}
        title="Decode as MCP: tell the panel where a host's own envelope carries MCP messages (URL pattern, method, JSON pointer, direction)"
        onClick={() => (decodeOpen.value = !decodeOpen.value)}
      >
        Decode as…{store.decoders.value.length > 0 ? ` (${store.decoders.value.length})` : ""}
      </button>
      <button
        type="button"
        class="backend-toggle"
        aria-expanded={backendOpen.value}
        title="Add a hosted agent's backend: the feed URL mcp-elicit proxy prints, whose MCP wire joins this tab's flows"
        onClick={() => (backendOpen.value = !backendOpen.value)}
      >
        Backend…{backendCount > 0 ? ` (${backendCount})` : ""}
      </button>
      <button
        type="button"
        class="settings-toggle"
        aria-expanded={settingsOpen.value}
        title="Rule levels and the strict SEP-2260 profile; import or export mcp-elicit.config.json"
        onClick={() => (settingsOpen.value = !settingsOpen.value)}
      >
        Settings…
      </button>
      {source.kind === "file" && (
        <>
          <span class="source" role="status">
            {source.importing ? "importing…" : source.cancelled ? "import cancelled" : "file"}
          </span>
          {source.importing && <ImportProgress counts={store.importCounts.value} onCancel={onCancelImport} />}
          {tabId !== undefined && (
            <button type="button" onClick={onLive}>
              Back to tab {tabId}
            </button>
          )}
        </>
      )}
      <span class="spacer" />
      {source.kind === "live" && tabId !== undefined && (
        <span role="status" aria-label="connection" class={store.connected.value ? "live" : "offline"}>
          {store.connected.value ? (store.loading.value ? "loading…" : "live") : "reconnecting…"}
        </span>
      )}
      <span
        aria-label="record count"
        title={
          live && stats.budget > 0
            ? `${Math.round(stats.bytes / 2 ** 20)} MB of this tab's ${Math.round(stats.budget / 2 ** 20)} MB budget`
            : undefined
        }
      >
        {records} records
      </span>
      <WorstBadge store={store} />
    </div>
  );
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0);

/**
 * How far the import is: the file read (bytes), then, for a file analysed after it was read whole (HAR), the
 * records analysed of all; and Cancel.
 */
function ImportProgress({ counts, onCancel }: { counts: ImportCounts | null; onCancel(): void }) {
  const { records = 0, bytes = 0, size = 0, total } = counts ?? {};
  const [value, max] = total !== undefined && total > 0 ? [records, total] : [bytes, size];
  const text = `${records.toLocaleString("en")}${total !== undefined ? ` of ${total.toLocaleString("en")}` : ""} records, ${mib(bytes)} of ${mib(size)} MiB read`;
  return (
    <>
      <progress
        class="import-progress"
        aria-label="import progress"
        max={Math.max(max, 1)}
        value={Math.min(value, max)}
        title={text}
      />
      <span class="import-counts" aria-label="import counts">
        {text}
      </span>
      <button type="button" onClick={onCancel} title="Stop the import: what was read so far stays shown">
        Cancel import
      </button>
    </>
  );
}

function WorstBadge({ store }: { store: FlowStore }) {
  const worst = store.worst.value;
  const counts = store.severityCounts.value;
  if (!worst) return null;
  return (
    <span
      class={`worst sev ${worst}`}
      role="status"
      aria-label="worst severity"
      title={`${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`}
    >
      {counts[worst]}{" "}
      {worst === "error"
        ? counts[worst] === 1
          ? "error"
          : "errors"
        : worst === "warning"
          ? counts[worst] === 1
            ? "warning"
            : "warnings"
          : "info"}
    </span>
  );
}
