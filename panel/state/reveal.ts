import { signal } from "@preact/signals";
import { redactText } from "../../src/capture/redact.ts";
import type { Finding, Flow } from "../../src/engine/index.ts";
import { maskFlow, type MaskedFlow } from "../model/mask.ts";
import type { Capture } from "./capture.ts";

/** What the views read of a flow: masked (the default) or, once the user revealed it, as captured. */
export interface FlowView extends MaskedFlow {
  masked: boolean;
}

const identity = (v: unknown): unknown => v;

/**
 * Secret values on screen (panel/model/mask.ts): every flow is shown masked unless the user revealed it. The masked
 * view of a flow is made when a view first asks, and again only when the flow changed (its rev in the capture).
 */
export function createReveal(capture: Capture) {
  /** Flows whose secret values the user chose to see. */
  const revealed = signal<ReadonlySet<string>>(new Set());
  const viewCache = new Map<string, { rev: number; flow: Flow; view: MaskedFlow }>();

  const view = (flow: Flow): FlowView => {
    if (revealed.value.has(flow.id))
      return { flow, record: capture.record, value: identity, text: (m) => m, masked: false };
    const rev = capture.revOf(flow.id);
    let hit = viewCache.get(flow.id);
    if (!hit || hit.rev !== rev || hit.flow !== flow)
      viewCache.set(flow.id, (hit = { rev, flow, view: maskFlow(flow, capture.record) }));
    return { ...hit.view, masked: true };
  };

  return {
    revealed,
    /** The flow as its views show it: masked unless revealed (read `revealed` to depend on it). */
    view,
    /** A finding's message as shown: masked with its flow, credentials masked in session-level ones. */
    findingText(finding: Finding): string {
      const flow = finding.flow === null ? undefined : capture.flow(finding.flow);
      if (!flow) return redactText(finding.message);
      return view(flow).text(finding.message);
    },
    /** Shows a flow's secret values as captured, or masks them again. */
    toggleReveal(flowId: string): void {
      const next = new Set(revealed.value);
      if (!next.delete(flowId)) next.add(flowId);
      revealed.value = next;
    },
    /** Masks every flow again (another source: a file, or back to the tab). */
    maskAll(): void {
      revealed.value = new Set();
    },
    /** Forgets flows the capture no longer holds (a snapshot after a clear or a navigation). */
    keepHeld(): void {
      if ([...revealed.value].some((id) => !capture.has(id)))
        revealed.value = new Set([...revealed.value].filter((id) => capture.has(id)));
    },
    /** Drops the cached masked views (the capture was cleared). */
    clear(): void {
      viewCache.clear();
    },
  };
}
