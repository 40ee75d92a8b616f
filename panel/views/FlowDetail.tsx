import type { Signal } from "@preact/signals";
import type { Flow } from "../../src/engine/index.ts";
import { modesOf, serverLabel, viaText } from "../model/flowFacts.ts";
import { FormPreview } from "./FormPreview.tsx";
import { MessageList } from "./MessageList.tsx";
import { RoundDiff } from "./RoundDiff.tsx";
import type { FlowStore } from "../state/store.ts";
import { Story } from "./Story.tsx";
import { shown } from "../model/text.ts";
import { UrlView } from "./UrlView.tsx";

export type DetailTab = "story" | "messages" | "form" | "rounds" | "url";
const TABS: { id: DetailTab; label: string; when(flow: Flow): boolean }[] = [
  { id: "story", label: "Story", when: () => true },
  { id: "messages", label: "Messages", when: () => true },
  { id: "form", label: "Form", when: (f) => f.elicitations.some((e) => e.mode === "form") },
  { id: "rounds", label: "Rounds", when: (f) => f.rounds.length > 1 },
  { id: "url", label: "URL", when: (f) => f.elicitations.some((e) => e.mode === "url") },
];

/** The selected flow: a summary line, then tabs (WAI-ARIA tabs pattern: arrows move, Home/End, automatic activation). */
export function FlowDetail({ store, tab, onClose }: { store: FlowStore; tab: Signal<DetailTab>; onClose(): void }) {
  const raw = store.selectedFlow.value;
  void store.revealed.value;
  if (!raw)
    return (
      <p class="empty">
        Select a flow (click, or arrow keys in the list) to see its story, its messages, the form the user saw, what
        changed between rounds and the URL it sent them to.
      </p>
    );
  const view = store.view(raw);
  const flow = view.flow;
  const tabs = TABS.filter((t) => t.when(flow));
  const current = tabs.some((t) => t.id === tab.value) ? tab.value : "story";
  const worst = store.worstOf(flow.id);
  const via = viaText(flow, store.decoders.value);

  const onKeyDown = (event: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === current);
    const next =
      event.key === "ArrowRight"
        ? (i + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (i - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    tab.value = tabs[next]!.id;
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>(`#tab-${tabs[next]!.id}`)?.focus();
  };

  return (
    <div class="detail" onKeyDown={(e) => e.key === "Escape" && !e.defaultPrevented && (e.preventDefault(), onClose())}>
      <div class="detail-head">
        <h3>
          {flow.id} · {shown(flow.method)} {shown(flow.target ?? "", 120)}
        </h3>
        <span class="chip" title={shown(flow.server, 2000)} aria-label="server">
          {serverLabel(flow.server)}
        </span>
        {via && (
          <span
            class="chip via"
            title={flow.via === undefined ? via : `${via}\n${shown(flow.via, 2000)}`}
            aria-label="via"
          >
            {via}
          </span>
        )}
        <span class="chip">{flow.revision ?? "unknown era"}</span>
        <span class="chip">{modesOf(flow).join(", ") || "no question"}</span>
        <span class={`chip status ${flow.status}`}>{flow.status}</span>
        {worst && <span class={`chip sev ${worst}`}>{worst}</span>}
        <button
          type="button"
          class={`reveal${view.masked ? "" : " on"}`}
          aria-pressed={!view.masked}
          title={
            view.masked
              ? "Secret-looking form values and credential-looking values (keys, tokens, JWTs, card numbers, credentials in URLs) are shown as [REDACTED], as in a redacted export. Click to show this flow's values as captured."
              : "This flow's values are shown as captured. Click to mask them again."
          }
          onClick={() => store.toggleReveal(flow.id)}
        >
          {view.masked ? "Reveal values" : "Mask values"}
        </button>
        <button type="button" class="close" aria-label="Close detail" onClick={onClose}>
          ✕
        </button>
      </div>
      <div role="tablist" aria-label="Flow detail" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            type="button"
            role="tab"
            key={t.id}
            id={`tab-${t.id}`}
            aria-selected={t.id === current}
            aria-controls="detail-panel"
            tabIndex={t.id === current ? 0 : -1}
            onClick={() => (tab.value = t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="detail-panel" aria-labelledby={`tab-${current}`} class="tabpanel" tabIndex={0}>
        {current === "story" && <Story view={view} store={store} />}
        {current === "messages" && <MessageList view={view} store={store} />}
        {current === "form" && <FormPreview view={view} store={store} />}
        {current === "rounds" && <RoundDiff view={view} store={store} />}
        {current === "url" && <UrlView view={view} />}
      </div>
    </div>
  );
}
