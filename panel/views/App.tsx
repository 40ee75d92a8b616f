import { useComputed, useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { ContextMenu, menuAt, type MenuAt, type MenuItem } from "./ContextMenu.tsx";
import { CoverageBanner } from "./CoverageBanner.tsx";
import { RecordingBanner } from "./RecordingBanner.tsx";
import { createBackends } from "../state/backends.ts";
import { Backends } from "./Backends.tsx";
import { Decoders } from "./Decoders.tsx";
import { blobOf, download, exportCapture, type ExportFormat } from "../io/exportCapture.ts";
import { flowFileName, flowRecords } from "../io/exportFlow.ts";
import { jsonlParts } from "../../src/capture/jsonl.ts";
import { redactRecords } from "../../src/capture/redact.ts";
import type { Flow } from "../../src/engine/flow.ts";
import { engineOptionsOf } from "../model/settings.ts";
import { levelItems, Settings } from "./Settings.tsx";
import { FindingDetail } from "./FindingDetail.tsx";
import { FindingList } from "./FindingList.tsx";
import { FlowDetail, type DetailTab } from "./FlowDetail.tsx";
import { FlowList } from "./FlowList.tsx";
import { startImport, warmImporter, type ImportRun } from "../io/startImport.ts";
import type { FlowStore } from "../state/store.ts";
import { escapeInvisible } from "../model/text.ts";
import { Timeline } from "./Timeline.tsx";
import { Toolbar } from "./Toolbar.tsx";
import type { Command } from "../state/transport.ts";
import { focusList } from "./VirtualTable.tsx";

export interface AppProps {
  store: FlowStore;
  tabId: number | undefined;
  send(command: Command): void;
}

/** The whole panel: toolbar, coverage note, flows (timeline + list) beside the selected flow, findings below. */
export function App({ store, tabId, send }: AppProps) {
  const filterRef = useRef<HTMLInputElement>(null);
  const tab = useSignal<DetailTab>("story");
  const wallClock = useSignal(Date.now());
  // A file's open flows end where its records do: the wall clock would stretch them to today.
  const now = useComputed(() => (store.source.value.kind === "file" ? store.lastTime.value : wallClock.value));
  const importError = useSignal<string | null>(null);
  /** What became of the last import when it did not finish (cancelled). */
  const importNote = useSignal<string | null>(null);
  /** The import under way: a new import, Close file and Back to tab stop it. */
  const running = useRef<ImportRun | null>(null);
  const decodeOpen = useSignal(false);
  const settingsOpen = useSignal(false);
  const backendOpen = useSignal(false);
  // The agent backends read by this panel: their feeds close with it.
  const backends = useMemo(() => createBackends(send), [send]);
  useEffect(() => () => backends.closeAll(), [backends]);
  const menu = useSignal<{ at: MenuAt; label: string; items: MenuItem[] } | null>(null);
  /** The file shown, to import it again with other decode rules. */
  const lastFile = useRef<File | null>(null);

  // New settings while a file is shown: the file is analysed again with them, as the tab is by the worker.
  const settingsSeen = useRef<string | null>(null);
  useSignalEffect(() => {
    const now = JSON.stringify(store.settings.value);
    const before = settingsSeen.current;
    settingsSeen.current = now;
    if (before !== null && before !== now && store.source.peek().kind === "file" && lastFile.current)
      onImport(lastFile.current);
  });

  // A finding picked anywhere (the list, a note in the detail) shows its evidence in the Messages tab.
  useSignalEffect(() => {
    if (store.selectedFindingId.value !== null) tab.value = "messages";
  });

  // Pending flows grow on the timeline while the clock runs; idle otherwise.
  useEffect(() => {
    const timer = setInterval(() => {
      if (store.source.value.kind === "live" && store.flows.value.some((f) => f.status === "pending"))
        wallClock.value = Date.now();
    }, 500);
    return () => clearInterval(timer);
  }, []);

  // "/" or Ctrl/Cmd+F focuses the filter, as in DevTools.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing =
        event.target instanceof HTMLElement &&
        (event.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName));
      if (
        ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "f") ||
        (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey)
      ) {
        event.preventDefault();
        filterRef.current?.focus();
        filterRef.current?.select();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const stopImport = () => {
    running.current?.cancel();
    running.current = null;
  };
  const onImport = (file: File) => {
    stopImport();
    lastFile.current = file;
    importError.value = null;
    importNote.value = null;
    performance.mark("mcp:import-start");
    const run = startImport(file, store, {
      rules: store.decoders.value,
      engine: engineOptionsOf(store.settings.peek()),
      onFirstRows: () => requestAnimationFrame(() => setTimeout(() => performance.mark("mcp:first-rows"))),
    });
    running.current = run;
    void run.outcome.then((outcome) => {
      if (running.current !== run) return; // another import or the tab took over
      running.current = null;
      if (outcome.kind === "cancelled") {
        const read = store.recordCount.value;
        importNote.value = `Import of ${file.name} cancelled: only the first ${read} record${read === 1 ? "" : "s"} are shown, and their flows and findings are those of that part of the file.`;
        return;
      }
      if (outcome.kind === "failed") {
        importError.value = `${file.name}: ${outcome.message}`;
        return;
      }
      performance.mark("mcp:import-done");
      warmTextWhenIdle(store);
      const { result } = outcome;
      if (result.records === 0)
        importError.value = `${file.name}: no capture records found${result.problems[0] ? ` (${result.problems[0].message})` : ""}.`;
    });
  };
  const onCancelImport = () => running.current?.cancel();
  const onExport = (format: ExportFormat, unredacted: boolean) => {
    const file = exportCapture(store.records(), format, unredacted, exportBase());
    download(file.name, file.blob);
  };
  const exportBase = (): string => {
    const source = store.source.value;
    return source.kind === "file"
      ? source.name.replace(/\.(har|jsonl|ndjson|json)$/i, "")
      : `mcp-capture-tab${tabId ?? ""}`;
  };
  const exportFlow = (flow: Flow, unredacted: boolean) => {
    const records = flowRecords(store.records(), flow);
    download(
      flowFileName(flow, exportBase()),
      blobOf(jsonlParts(unredacted ? records : redactRecords(records)), "application/x-ndjson"),
    );
  };
  const onFlowMenu = (event: MouseEvent, flow: Flow) => {
    event.preventDefault();
    store.select(flow.id);
    const items = [
      { label: "Export flow as JSONL", onSelect: () => exportFlow(flow, false) },
      { label: "Export flow as JSONL (unredacted)", onSelect: () => exportFlow(flow, true) },
    ];
    menu.value = { at: menuAt(event), label: `Flow ${flow.id}`, items };
  };
  const onFindingMenu = (event: MouseEvent, rule: string) => {
    event.preventDefault();
    menu.value = { at: menuAt(event), label: `Level of rule ${rule}`, items: levelItems(store, rule, send) };
  };
  const onLive = () => {
    stopImport();
    importNote.value = null;
    store.openLive();
    send({ kind: "subscribe" });
  };
  const closeDecode = () => {
    decodeOpen.value = false;
    requestAnimationFrame(() => document.querySelector<HTMLElement>(".toolbar .decode-toggle")?.focus());
  };
  const openDetail = () => document.querySelector<HTMLElement>(".detail [role=tab][aria-selected=true]")?.focus();
  const closeDetail = () => {
    const id = store.selectedFlowId.value;
    store.select(null);
    if (id) focusList(".vt.flows");
  };
  const showEvidence = () => {
    tab.value = "messages";
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(".detail mark")?.scrollIntoView({ block: "center" }),
    );
  };

  const flows = store.flows.value;
  const visible = store.visibleFlows.value;
  const findings = store.findings.value;
  const visibleFindings = store.visibleFindings.value;
  const filtering = store.isFiltering.value;
  const source = store.source.value;
  return (
    <div class="app">
      <Toolbar
        store={store}
        tabId={tabId}
        send={send}
        filterRef={filterRef}
        onImport={onImport}
        onCancelImport={onCancelImport}
        onPrepareImport={warmImporter}
        onExport={onExport}
        onLive={onLive}
        decodeOpen={decodeOpen}
        settingsOpen={settingsOpen}
        backendOpen={backendOpen}
        backendCount={backends.list.value.length}
      />
      <Alerts store={store} tabId={tabId} importError={importError.value} importNote={importNote.value} />
      {decodeOpen.value && (
        <Decoders
          store={store}
          send={send}
          editable={tabId !== undefined}
          onReimport={lastFile.current && source.kind === "file" ? () => onImport(lastFile.current!) : undefined}
          onClose={closeDecode}
        />
      )}
      {backendOpen.value && (
        <Backends
          backends={backends}
          editable={tabId !== undefined}
          onClose={() => {
            backendOpen.value = false;
            requestAnimationFrame(() => document.querySelector<HTMLElement>(".toolbar .backend-toggle")?.focus());
          }}
        />
      )}
      {settingsOpen.value && (
        <Settings
          store={store}
          send={send}
          editable={tabId !== undefined}
          onClose={() => (settingsOpen.value = false)}
        />
      )}
      {menu.value && (
        <ContextMenu
          at={menu.value.at}
          label={menu.value.label}
          items={menu.value.items}
          onClose={() => (menu.value = null)}
        />
      )}
      {source.kind === "live" && tabId !== undefined && <RecordingBanner stats={store.stats.value} send={send} />}
      {source.kind === "live" && tabId !== undefined && <CoverageBanner />}
      <div class="body">
        <section aria-label="flows section" class="flows-pane">
          <h2>Flows ({filtering ? `${visible.length} of ${flows.length}` : flows.length})</h2>
          {flows.length > 0 && <Timeline store={store} now={now} />}
          {visible.length > 0 ? (
            <FlowList store={store} onOpen={openDetail} onMenu={onFlowMenu} />
          ) : (
            <FlowsEmpty store={store} tabId={tabId} />
          )}
        </section>
        <aside aria-label="flow detail" class="detail-pane">
          <FlowDetail store={store} tab={tab} onClose={closeDetail} />
        </aside>
      </div>
      <section aria-label="findings section" class="findings-pane">
        <h2>
          Findings (
          {filtering || visibleFindings.length !== findings.length
            ? `${visibleFindings.length} of ${findings.length}`
            : findings.length}
          )
        </h2>
        <div class="findings-split">
          <FindingList store={store} onEvidence={showEvidence} onMenu={onFindingMenu} />
          <aside aria-label="finding detail" class="finding-detail-pane">
            <FindingDetail store={store} onEvidence={showEvidence} />
          </aside>
        </div>
      </section>
    </div>
  );
}

/** The search cache of an imported file, built while the browser is idle, so the first search is as quick as the rest. */
function warmTextWhenIdle(store: FlowStore): void {
  const idle =
    globalThis.requestIdleCallback ??
    ((cb: (d: { timeRemaining(): number }) => void) => setTimeout(() => cb({ timeRemaining: () => 8 }), 50));
  const step = (deadline: { timeRemaining(): number }) => {
    if (store.source.value.kind !== "file") return;
    if (!store.warmText(() => deadline.timeRemaining() > 2)) idle(step);
  };
  idle(step);
}

function FlowsEmpty({ store, tabId }: { store: FlowStore; tabId: number | undefined }) {
  const source = store.source.value;
  if (store.flows.value.length > 0)
    return <p class="empty">No flow matches the filter. Press Escape in the filter box to clear it.</p>;
  if (source.kind === "file")
    return (
      <p class="empty">
        {source.importing
          ? "Importing…"
          : source.cancelled
            ? `No elicitation flows in the part of ${escapeInvisible(source.name)} read before the import was cancelled (${store.recordCount.value} records).`
            : `${escapeInvisible(source.name)} holds no elicitation flows (${store.recordCount.value} records read).`}
      </p>
    );
  if (tabId === undefined)
    return (
      <p class="empty" role="alert">
        No tab to inspect: open this panel from DevTools, or add ?tabId=N. You can still import a HAR or JSONL capture
        (Import…).
      </p>
    );
  return (
    <div class="empty newcomer">
      <p>
        <strong>No elicitation flows yet.</strong> Use the page: when one of its MCP servers asks the user for input —
        an <code>elicitation/create</code> request, an <code>input_required</code> result, or a <code>-32042</code>{" "}
        error — the flow appears here, live.
      </p>
      <p>
        The tap records from the moment a page loads: if the page's MCP client connected before, reload it. To study a
        capture instead, Import… a HAR saved from the Network panel or a JSONL file from <code>mcp-elicit</code>.
      </p>
    </div>
  );
}

const megabytes = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;

function Alerts({
  store,
  tabId,
  importError,
  importNote,
}: {
  store: FlowStore;
  tabId: number | undefined;
  importError: string | null;
  importNote: string | null;
}) {
  const stats = store.stats.value;
  const live = store.source.value.kind === "live" && tabId !== undefined;
  const problems = store.problems.value;
  return (
    <div class="alerts">
      {live && stats.dropped > 0 && (
        <span role="alert" aria-label="dropped records">
          {stats.dropped} records dropped: the tab reached its capture budget ({megabytes(stats.budget)} of records)
        </span>
      )}
      {live && stats.rejected > 0 && (
        <span aria-label="rejected records">{stats.rejected} malformed records refused</span>
      )}
      {live && stats.tooLarge > 0 && (
        <span role="alert" aria-label="records too large">
          {stats.tooLarge} records dropped: too large
        </span>
      )}
      {live && !stats.recording && (
        <span role="status" aria-label="paused">
          Recording paused{stats.skipped > 0 ? `: ${stats.skipped} records not kept` : ""}
        </span>
      )}
      {importError && <span role="alert">{escapeInvisible(importError)}</span>}
      {importNote && (
        <span role="status" aria-label="import cancelled">
          {escapeInvisible(importNote)}
        </span>
      )}
      {problems.length > 0 && (
        <details class="problems">
          <summary aria-label="problems">
            {problems.length} input problem{problems.length === 1 ? "" : "s"}
          </summary>
          <ul>
            {problems.slice(0, 200).map((p, i) => (
              <li key={i}>
                {p.file ? `${escapeInvisible(p.file)}: ` : ""}
                {p.record !== undefined ? `record #${p.record}: ` : ""}
                {escapeInvisible(p.message)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
