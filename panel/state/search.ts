import { computed, signal, type ReadonlySignal } from "@preact/signals";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Finding, Flow } from "../../src/engine/index.ts";
import { frameOf, frameText } from "../model/frame.ts";
import { matchFlow, parseFilter, type ParsedFilter as Filter } from "../model/filter.ts";
import type { Capture } from "./capture.ts";

const NONE: readonly Finding[] = [];

/** How the views show a flow (reveal.ts): the search matches that, and nothing a mask hides. */
export interface Shown {
  view(flow: Flow): { flow: Flow; record(seq: number): CaptureRecord | undefined; masked: boolean };
  revealed: ReadonlySignal<unknown>;
}

/** Every flow as captured (tests of the search alone). */
const asCaptured = (capture: Capture): Shown => ({
  view: (flow) => ({ flow, record: capture.record, masked: false }),
  revealed: signal(null),
});

/**
 * Whether every flow `next` matches also matches `previous`: the same tokens, and each earlier search word inside
 * a word of the new search (typing on: `lis` → `lisbon`). Tokens are not narrowed (`mode:ur` → `mode:url`).
 */
function narrows(previous: Filter, next: Filter): boolean {
  if (previous.tokens.length !== next.tokens.length) return false;
  for (let i = 0; i < next.tokens.length; i++) {
    const a = previous.tokens[i]!;
    const b = next.tokens[i]!;
    if (a.key !== b.key || a.value !== b.value || a.negate !== b.negate) return false;
  }
  return previous.text.every((word) => next.text.some((w) => w.includes(word)));
}

/**
 * The filter bar over the flows (panel/model/filter.ts), with what makes it quick on a large capture: each flow's
 * payload text, built once per rev, and matchFlow's answer per position with the rev it was computed at, so a delta
 * re-checks only the flows it changed and a keystroke that only narrows a search (`lis` → `lisb`) only the flows
 * that matched.
 */
export function createSearch(
  capture: Capture,
  flows: ReadonlySignal<Flow[]>,
  input: ReadonlySignal<string>,
  shown: Shown = asCaptured(capture),
) {
  // Lower-cased, as matchFlow wants it; of the flow as shown (masked unless revealed).
  const textCache = new Map<string, { rev: number; masked: boolean; text: string }>();
  const flowText = (flow: Flow): string => {
    const rev = capture.revOf(flow.id);
    const view = shown.view(flow);
    const hit = textCache.get(flow.id);
    if (hit && hit.rev === rev && hit.masked === view.masked) return hit.text;
    let text = "";
    for (const seq of flow.records) {
      const r = view.record(seq);
      if (r?.kind === "message") text += (text ? "\n" : "") + r.text;
    }
    text = text.toLowerCase();
    textCache.set(flow.id, { rev, masked: view.masked, text });
    return text;
  };
  /** The reveal state the cached answers were computed under: another one recomputes them all. */
  let revealedAt: unknown;

  const matched = { filter: null as Filter | null, hits: [] as boolean[], revs: [] as number[] };
  const filter = computed(() => parseFilter(input.value));
  const isFiltering = computed(() => filter.value.tokens.length > 0 || filter.value.text.length > 0);

  const visibleFlows = computed(() => {
    const all = flows.value;
    const f = filter.value;
    // The filter matches what is shown: revealing or masking a flow changes what it can match.
    const revealed = shown.revealed.value;
    if (revealed !== revealedAt) {
      revealedAt = revealed;
      matched.filter = null;
      matched.revs = [];
    }
    if (f.tokens.length === 0 && f.text.length === 0) return all;
    const { revs } = capture;
    const same = matched.filter === f;
    const narrower = !same && matched.filter !== null && narrows(matched.filter, f);
    const out: Flow[] = [];
    for (let i = 0; i < all.length; i++) {
      const flow = all[i]!;
      const fresh = matched.revs[i] === revs[i];
      let hit: boolean;
      if (fresh && (same || (narrower && !matched.hits[i]))) hit = matched.hits[i]!;
      else {
        hit = matchFlow(f, {
          flow: shown.view(flow).flow,
          findings: capture.findingsOf(flow.id) ?? NONE,
          text: f.text.length === 0 ? "" : flowText(flow),
          frame: frameText(frameOf(flow, capture.record)),
        });
        matched.hits[i] = hit;
        matched.revs[i] = revs[i]!;
      }
      if (hit) out.push(flow);
    }
    matched.filter = f;
    return out;
  });

  /** isVisible by position in `flows` (read `visibleFlows` first to depend on it). */
  const isVisibleAt = (index: number): boolean => !isFiltering.value || matched.hits[index] === true;

  return {
    filter,
    isFiltering,
    visibleFlows,
    isVisibleAt,
    /** Whether a flow is in the filtered view (read `visibleFlows` first to depend on it). */
    isVisible(flowId: string): boolean {
      if (!isFiltering.value) return true;
      const at = capture.indexOf(flowId);
      return at !== undefined && matched.hits[at] === true;
    },
    flowText,
    /**
     * Builds the free-text search cache ahead of the first search, a few flows at a time, until `more()` says
     * stop; true once every flow's text is in (a large import's first keystroke would otherwise pay for it).
     */
    warmText(more: () => boolean): boolean {
      const { flows: list, revs } = capture;
      for (let i = 0; i < list.length; i++) {
        const flow = list[i]!;
        if (textCache.get(flow.id)?.rev === revs[i]) continue;
        if (!more()) return false;
        flowText(flow);
      }
      return true;
    },
    /** Forgets every cached text and answer (the capture was cleared). */
    clear(): void {
      textCache.clear();
      matched.filter = null;
      matched.hits.length = 0;
      matched.revs.length = 0;
    },
  };
}
