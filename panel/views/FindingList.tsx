import { useComputed, useSignal } from "@preact/signals";
import { useRef } from "preact/hooks";
import type { Finding } from "../../src/engine/index.ts";
import { severityRank, type Severity } from "../../src/engine/ruleKit/types.ts";
import { ruleTitle } from "../../src/engine/ruleKit/rules.ts";
import { RuleText } from "./RuleText.tsx";
import { SEVERITIES, type FlowStore } from "../state/store.ts";
import { shown } from "../model/text.ts";
import { nextIndex, useRowFocus, VirtualTable } from "./VirtualTable.tsx";

export const FINDING_ROW_HEIGHT = 22;

interface Group {
  rule: string;
  severity: Severity;
  findings: Finding[];
}
type Item = { kind: "group"; group: Group } | { kind: "finding"; finding: Finding; group: Group };

/**
 * The findings like Wireshark's Expert Info: grouped by rule (worst severity first) with counts, filterable by
 * severity, each group with the catalogue's explanation. Selecting a finding selects its flow and jumps to the
 * evidence (the message, its JSON path highlighted) in the flow's detail.
 */
export function FindingList({
  store,
  onEvidence,
  onMenu,
}: {
  store: FlowStore;
  onEvidence(): void;
  onMenu?(event: MouseEvent, rule: string): void;
}) {
  const collapsed = useSignal<ReadonlySet<string>>(new Set());
  const cursor = useSignal<string | null>(null); // a group row with the keyboard on it ("group:<rule>")
  const root = useRef<HTMLDivElement>(null);

  const groups = useComputed(() => {
    const byRule = new Map<string, Group>();
    for (const f of store.visibleFindings.value) {
      let g = byRule.get(f.rule);
      if (!g) byRule.set(f.rule, (g = { rule: f.rule, severity: f.severity, findings: [] }));
      g.findings.push(f);
      if (severityRank[f.severity] > severityRank[g.severity]) g.severity = f.severity;
    }
    return [...byRule.values()].sort(
      (a, b) =>
        severityRank[b.severity] - severityRank[a.severity] ||
        b.findings.length - a.findings.length ||
        a.rule.localeCompare(b.rule),
    );
  });
  const items = useComputed(() => {
    const out: Item[] = [];
    for (const group of groups.value) {
      out.push({ kind: "group", group });
      if (!collapsed.value.has(group.rule))
        for (const finding of group.findings) out.push({ kind: "finding", finding, group });
    }
    return out;
  });

  const list = items.value;
  const selected = store.selectedFindingId.value;
  const key = (item: Item) => (item.kind === "group" ? `group:${item.group.rule}` : item.finding.id);
  const activeKey = cursor.value ?? selected;
  const index = activeKey === null ? -1 : list.findIndex((item) => key(item) === activeKey);
  useRowFocus(
    root,
    activeKey === null
      ? null
      : activeKey.startsWith("group:")
        ? `tr[data-group="${CSS.escape(activeKey.slice(6))}"]`
        : `tr[data-finding="${CSS.escape(activeKey)}"]`,
    true,
  );

  const toggle = (rule: string, open?: boolean) => {
    const next = new Set(collapsed.value);
    if (open ?? next.has(rule)) next.delete(rule);
    else next.add(rule);
    collapsed.value = next;
  };
  const activate = (item: Item) => {
    if (item.kind === "group") cursor.value = `group:${item.group.rule}`;
    else {
      cursor.value = null;
      store.selectFinding(item.finding.id);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const next = nextIndex(event.key, index, list.length, 10);
    const item = index >= 0 ? list[index] : undefined;
    if (next !== undefined) {
      event.preventDefault();
      activate(list[next]!);
    } else if (item && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      if (item.kind === "group") toggle(item.group.rule, event.key === "ArrowRight");
      else if (event.key === "ArrowLeft") activate({ kind: "group", group: item.group });
    } else if (item && event.key === "Enter") {
      event.preventDefault();
      if (item.kind === "group") toggle(item.group.rule);
      else onEvidence();
    }
  };

  const counts = store.severityCounts.value;
  const shownSev = store.severityFilter.value;
  return (
    <div class="findings-view">
      <div class="findings-bar" role="toolbar" aria-label="Severity filter">
        {SEVERITIES.map((s) => (
          <button
            type="button"
            key={s}
            class={`sev-toggle ${s}`}
            aria-pressed={shownSev[s]}
            onClick={() => store.toggleSeverity(s)}
          >
            {s === "error" ? "Errors" : s === "warning" ? "Warnings" : "Info"} ({counts[s]})
          </button>
        ))}
      </div>
      {list.length === 0 ? (
        <p class="empty">
          {store.findings.value.length === 0
            ? "No findings: nothing seen so far breaks the spec or its advice. Findings appear here as the engine grades each message."
            : "No findings at the severities and filter shown."}
        </p>
      ) : (
        <div ref={root} class="finding-table">
          <VirtualTable
            label="Findings"
            class="findings"
            rowCount={list.length}
            rowHeight={FINDING_ROW_HEIGHT}
            activeIndex={index}
            onKeyDown={onKeyDown}
            columns={
              <colgroup>
                <col class="w-sev" />
                <col class="w-rule" />
                <col />
                <col class="w-id" />
                <col class="w-num" />
              </colgroup>
            }
            header={
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Rule</th>
                <th scope="col">Message</th>
                <th scope="col">Flow</th>
                <th scope="col" title="The record holding the evidence (HAR entry for imported HAR files)">
                  Entry
                </th>
              </tr>
            }
            renderRow={(i) => {
              const item = list[i]!;
              const active = i === index;
              if (item.kind === "group") {
                const open = !collapsed.value.has(item.group.rule);
                return (
                  <tr
                    key={`g:${item.group.rule}`}
                    class={`group ${item.group.severity}${active ? " selected" : ""}`}
                    data-group={item.group.rule}
                    aria-rowindex={i + 2}
                    aria-expanded={open}
                    aria-label={`rule ${item.group.rule}, ${item.group.findings.length} finding${item.group.findings.length === 1 ? "" : "s"}`}
                    tabIndex={active || (index < 0 && i === 0) ? 0 : -1}
                    onClick={() => {
                      activate(item);
                      toggle(item.group.rule);
                    }}
                    onContextMenu={onMenu && ((event) => onMenu(event, item.group.rule))}
                  >
                    <td class={`sev ${item.group.severity}`}>
                      <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
                      {item.group.severity}
                    </td>
                    <td>{item.group.rule}</td>
                    <td class="explain">
                      <RuleText text={ruleTitle(item.group.rule)} />
                    </td>
                    <td colSpan={2} class="num">
                      {item.group.findings.length}
                    </td>
                  </tr>
                );
              }
              const f = item.finding;
              return (
                <tr
                  key={f.id}
                  aria-label={`finding ${f.id}`}
                  aria-rowindex={i + 2}
                  aria-selected={f.id === selected}
                  data-finding={f.id}
                  class={`finding ${f.severity}${f.id === selected ? " selected" : ""}`}
                  tabIndex={active ? 0 : -1}
                  onClick={() => {
                    activate(item);
                    onEvidence();
                  }}
                  onContextMenu={onMenu && ((event) => onMenu(event, f.rule))}
                >
                  <td data-col="severity" class={`sev ${f.severity}`}>
                    {f.severity}
                  </td>
                  <td data-col="rule">{f.rule}</td>
                  <td data-col="message" title={shown(store.findingText(f), 4000)}>
                    {shown(store.findingText(f), 1000)}
                  </td>
                  <td data-col="flow">{f.flow ?? ""}</td>
                  <td data-col="entry" class="num">
                    {f.entry}
                  </td>
                </tr>
              );
            }}
          />
        </div>
      )}
    </div>
  );
}
