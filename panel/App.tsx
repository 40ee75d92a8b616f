import type { FlowStore } from "./store.ts";
import type { Command } from "./transport.ts";
import { FindingList } from "./FindingList.tsx";
import { FlowList } from "./FlowList.tsx";

export function App({ store, tabId, send }: { store: FlowStore; tabId: number | undefined; send(command: Command): void }) {
  if (tabId === undefined) return <p role="alert">No tab to inspect: open this panel from DevTools, or add ?tabId=N.</p>;
  const stats = store.stats.value;
  return (
    <main>
      <header>
        <h1>MCP elicitation — tab {tabId}</h1>
        <span role="status" aria-label="connection">
          {store.connected.value ? "live" : "reconnecting…"}
        </span>
        <span aria-label="record count">{stats.records} records</span>
        {stats.dropped > 0 && <span role="alert" aria-label="dropped records">{stats.dropped} records dropped: the tab reached its capture cap</span>}
        {stats.rejected > 0 && <span aria-label="rejected messages">{stats.rejected} malformed messages refused</span>}
        <button type="button" onClick={() => send({ kind: "clear" })}>
          Clear
        </button>
        <label>
          <input type="checkbox" checked={stats.preserveLog} onChange={(e) => send({ kind: "preserveLog", on: e.currentTarget.checked })} />
          Preserve log
        </label>
      </header>
      <section aria-label="flows section">
        <h2>Flows ({store.flows.value.length})</h2>
        <FlowList flows={store.flows.value} />
      </section>
      <section aria-label="findings section">
        <h2>Findings ({store.findings.value.length})</h2>
        <FindingList findings={store.findings.value} />
      </section>
    </main>
  );
}
