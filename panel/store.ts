import { batch, computed, signal } from "@preact/signals";
import type { Finding, Flow, Problem } from "../src/engine/index.ts";
import type { TabStats, WorkerToPanel } from "../src/shared/panelProtocol.ts";

const noStats: TabStats = { records: 0, dropped: 0, rejected: 0, preserveLog: false };

/**
 * The panel's state, fed by a transport (panel/transport.ts, or a test): flows by id in first-seen order, findings
 * and problems append-only, one version signal bumped once per incoming batch. Views derive from it with
 * `computed`; the UI never knows where the messages come from.
 */
export function createFlowStore() {
  const byId = new Map<string, Flow>();
  const order: string[] = [];
  const findingList: Finding[] = [];
  const problemList: Problem[] = [];
  const version = signal(0);
  const stats = signal<TabStats>(noStats);
  const connected = signal(false);

  const flows = computed(() => {
    void version.value;
    return order.map((id) => byId.get(id)!);
  });
  const findings = computed(() => {
    void version.value;
    return findingList.slice();
  });
  const problems = computed(() => {
    void version.value;
    return problemList.slice();
  });

  const upsert = (flow: Flow): void => {
    if (!byId.has(flow.id)) order.push(flow.id);
    byId.set(flow.id, flow);
  };

  return {
    flows,
    findings,
    problems,
    stats,
    connected,
    /** Applies one message from the worker: a snapshot replaces everything, a delta adds to it. */
    apply(message: WorkerToPanel): void {
      if (message.kind !== "snapshot" && message.kind !== "delta") return;
      batch(() => {
        if (message.kind === "snapshot") {
          byId.clear();
          order.length = 0;
          findingList.length = 0;
          problemList.length = 0;
        }
        for (const flow of message.flows) upsert(flow);
        findingList.push(...message.findings);
        problemList.push(...message.problems);
        stats.value = message.stats;
        version.value++;
      });
    },
  };
}

export type FlowStore = ReturnType<typeof createFlowStore>;
