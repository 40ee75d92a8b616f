import { useRef } from "preact/hooks";
import type { Flow } from "../../src/engine/index.ts";
import { frameLabel, frameOf } from "../model/frame.ts";
import type { FlowStore } from "../state/store.ts";
import { duration, shown } from "../model/text.ts";
import { focusList, nextIndex, useRowFocus, VirtualTable } from "./VirtualTable.tsx";
import { modesOf, serverLabel, viaText } from "../model/flowFacts.ts";
import { flowOutcome } from "../model/outcome.ts";

export const FLOW_ROW_HEIGHT = 22;

/**
 * The flows of the tab (or file), one row each, newest last, virtualized. The selection is an id, so it stays put
 * while records stream in. Every cell is text: captured payloads are hostile. `data-col` names the columns the
 * tests read.
 */
export function FlowList({
  store,
  onOpen,
  onMenu,
}: {
  store: FlowStore;
  onOpen(): void;
  onMenu?(event: MouseEvent, flow: Flow): void;
}) {
  const flows = store.visibleFlows.value;
  // A Via column while any flow of the capture went through a proxy, a host backend or an envelope (over all
  // flows, so it does not come and go with the filter).
  const withVia = store.hasVia.value;
  // A Frame column while any flow was seen in a subframe (the browser's frame id and origin, record.ts).
  const withFrame = store.flows.value.some((f) => (frameOf(f, store.record)?.id ?? 0) !== 0);
  // Masked or revealed, per flow: the rows show what the flow's views show.
  void store.revealed.value;
  const selected = store.selectedFlowId.value;
  const index = selected === null ? -1 : flows.findIndex((f) => f.id === selected);
  const root = useRef<HTMLDivElement>(null);
  useRowFocus(root, selected === null ? null : `tr[data-flow="${CSS.escape(selected)}"]`, true);

  const onKeyDown = (event: KeyboardEvent) => {
    const next = nextIndex(event.key, index, flows.length, 10);
    if (next !== undefined) {
      event.preventDefault();
      store.select(flows[next]!.id);
      return;
    }
    if (event.key === "Enter" && selected !== null) {
      event.preventDefault();
      onOpen();
    } else if (event.key === "Escape" && selected !== null) {
      event.preventDefault();
      store.select(null);
      focusList(".vt.flows");
    }
  };

  return (
    <div ref={root} class="flow-list">
      <VirtualTable
        label="Flows"
        class="flows"
        rowCount={flows.length}
        rowHeight={FLOW_ROW_HEIGHT}
        activeIndex={index}
        onKeyDown={onKeyDown}
        columns={
          <colgroup>
            <col class="w-id" />
            <col class="w-server" />
            {withVia && <col class="w-via" />}
            {withFrame && <col class="w-frame" />}
            <col class="w-method" />
            <col class="w-target" />
            <col class="w-modes" />
            <col class="w-era" />
            <col class="w-kind" />
            <col class="w-status" />
            <col class="w-outcome" />
            <col class="w-num" />
            <col class="w-time" />
            <col class="w-time" />
            <col class="w-sev" />
          </colgroup>
        }
        header={
          <tr>
            <th scope="col">Flow</th>
            <th
              scope="col"
              data-col="server"
              title="The MCP server: the upstream, when a proxy or host backend names it"
            >
              Server
            </th>
            {withVia && (
              <th
                scope="col"
                data-col="via"
                title="What the flow went through: a proxy, a host's backend or envelope (MCP Inspector backend, MCP-B postMessage), a decode rule"
              >
                Via
              </th>
            )}
            {withFrame && (
              <th
                scope="col"
                data-col="frame"
                title="The frame the flow was seen in, as the browser names it: top, or a subframe's id (its origin in the tooltip)"
              >
                Frame
              </th>
            )}
            <th scope="col">Method</th>
            <th scope="col">Target</th>
            <th scope="col">Modes</th>
            <th scope="col" data-col="era">
              Era
            </th>
            <th scope="col" data-col="kind">
              Kind
            </th>
            <th scope="col">Status</th>
            <th
              scope="col"
              title="How each question ended: the user's accept, decline or cancel; the client's error code when it answered with an error instead of asking anyone; waiting while open"
            >
              Outcome
            </th>
            <th scope="col" title="Rounds: how many times the client sent the request">
              Rounds
            </th>
            <th scope="col" title="Time waiting on the user">
              User wait
            </th>
            <th scope="col" title="Time the server spent">
              Server
            </th>
            <th scope="col">Worst</th>
          </tr>
        }
        renderRow={(i) => (
          <FlowRow
            key={flows[i]!.id}
            flow={flows[i]!}
            index={i}
            store={store}
            selected={i === index}
            withVia={withVia}
            withFrame={withFrame}
            onOpen={onOpen}
            onMenu={onMenu}
          />
        )}
      />
    </div>
  );
}

function FlowRow(props: {
  flow: Flow;
  index: number;
  store: FlowStore;
  selected: boolean;
  withVia: boolean;
  withFrame: boolean;
  onOpen(): void;
  onMenu?(event: MouseEvent, flow: Flow): void;
}) {
  const { flow: raw, index, store, selected, withVia, withFrame, onOpen, onMenu } = props;
  // Masked or revealed, as the flow's other views show it; the menu acts on the flow as captured.
  const flow = store.view(raw).flow;
  const frame = withFrame ? frameOf(raw, store.record) : undefined;
  const worst = store.worstOf(flow.id);
  const outcome = flowOutcome(flow, store.record);
  const via = withVia ? viaText(flow, store.decoders.value) : null;
  return (
    <tr
      aria-label={`flow ${flow.id}`}
      aria-rowindex={index + 2}
      aria-selected={selected}
      tabIndex={selected || (index === 0 && store.selectedFlowId.value === null) ? 0 : -1}
      data-flow={flow.id}
      class={`${selected ? "selected" : ""} status-${flow.status}`}
      onClick={() => store.select(flow.id)}
      onDblClick={onOpen}
      onContextMenu={onMenu && ((event) => onMenu(event, raw))}
    >
      <td data-col="id">{flow.id}</td>
      <td data-col="server" title={shown(flow.server, 2000)}>
        {serverLabel(flow.server)}
      </td>
      {withVia && (
        <td
          data-col="via"
          class="via"
          title={via === null ? undefined : flow.via === undefined ? via : `${via}\n${shown(flow.via, 2000)}`}
        >
          {via === null ? "" : via.replace(/^via /, "")}
        </td>
      )}
      {withFrame && (
        <td data-col="frame" title={frame === undefined ? undefined : shown(frame.origin, 300)}>
          {frameLabel(frame)}
        </td>
      )}
      <td data-col="method">{shown(flow.method)}</td>
      <td data-col="target" title={shown(flow.target, 2000)}>
        {shown(flow.target ?? "")}
      </td>
      <td data-col="modes">{modesOf(flow).join(", ")}</td>
      <td data-col="era">{flow.revision ?? "unknown"}</td>
      <td data-col="kind">{flow.kind}</td>
      <td data-col="status" class={`status ${flow.status}`}>
        {flow.status}
      </td>
      <td
        data-col="outcome"
        class={outcome.className}
        title={outcome.all.length > 1 ? outcome.all.map((o) => o.text).join(", ") : undefined}
      >
        {outcome.text}
      </td>
      <td data-col="rounds" class="num">
        {flow.rounds.length}
      </td>
      <td data-col="user" class="num">
        {duration(flow.userMs)}
      </td>
      <td data-col="serverTime" class="num">
        {duration(flow.serverMs)}
      </td>
      <td data-col="severity" class={worst ? `sev ${worst}` : "sev"}>
        {worst ?? ""}
      </td>
    </tr>
  );
}
