import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { validateDecoder } from "../../src/capture/envelopes/index.ts";
import { DecoderInput, type Decoder } from "../../src/shared/decoders.ts";
import type { FlowStore } from "../state/store.ts";
import { shown } from "../model/text.ts";
import type { Command } from "../state/transport.ts";

const DIRECTIONS = [
  { value: "both", label: "both (requests c2s, answers s2c)" },
  { value: "c2s", label: "c2s (client → server)" },
  { value: "s2c", label: "s2c (server → client)" },
] as const;
const METHODS = ["", "POST", "GET", "PUT", "PATCH", "DELETE"];
/** A relay decoder's pointers, in the form's order (src/capture/envelopes/types.ts RelayDecoder). */
const RELAY_FIELDS = [
  { key: "ask", label: "Ask at", placeholder: "/payload/form (message, requestedSchema)" },
  { key: "askId", label: "Ask id at", placeholder: "/payload/ticket (optional)" },
  { key: "action", label: "Answer's action at", placeholder: "/reply/decision" },
  { key: "content", label: "Answer's content at", placeholder: "/reply/values (optional)" },
  { key: "answerId", label: "Answer id at", placeholder: "/reply/ticket (optional)" },
] as const;
type RelayKey = (typeof RELAY_FIELDS)[number]["key"];

/** Where a decoder looks, in a table cell: an MCP decoder's pointer, or a relay decoder's pointers. */
function whereText(d: Decoder): string {
  if (d.kind !== "relay") return d.pointer === "" ? "(whole body)" : d.pointer;
  return RELAY_FIELDS.flatMap((f) =>
    d[f.key] === undefined ? [] : [`${f.key} ${d[f.key] === "" ? "(whole)" : d[f.key]}`],
  ).join(" · ");
}

/**
 * What is wrong with a rule, in words (the envelope stage's own check, as the CLI says it), or null. The worker
 * answers a rule its schema refuses with nothing, so the panel checks that schema first too.
 */
function problemOf(rule: Record<string, unknown>): string | null {
  const checked = validateDecoder({ id: "new", ...rule });
  if (typeof checked === "string") return `This rule cannot be used: ${checked}.`;
  return DecoderInput.safeParse(rule).success
    ? null
    : "This rule is too long to keep (URL up to 2048 characters, pointer up to 1024, label up to 200).";
}

/**
 * "Decode as MCP", as Wireshark's Decode As…: for a host no built-in envelope knows, a person says that requests
 * to a URL pattern (and method) carry an MCP message at a JSON pointer, in a direction. The worker keeps the rules
 * (for every tab, across sessions) and the tap applies them from then on; an import applies them as it reads.
 * Each rule says how many of the messages shown it unwrapped.
 */
export function Decoders({
  store,
  send,
  editable,
  onReimport,
  onClose,
}: {
  store: FlowStore;
  send(command: Command): void;
  editable: boolean;
  onReimport?: (() => void) | undefined;
  onClose(): void;
}) {
  const url = useSignal("");
  const method = useSignal("");
  const pointer = useSignal("");
  const direction = useSignal<(typeof DIRECTIONS)[number]["value"]>("both");
  const label = useSignal("");
  const kind = useSignal<"mcp" | "relay">("mcp");
  const relay = useSignal<Record<RelayKey, string>>({ ask: "", askId: "", action: "", content: "", answerId: "" });
  const problem = useSignal<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLElement>(null);
  // The keyboard goes into the section as it opens: its first field, or the section itself when rules cannot be edited.
  useEffect(() => (editable ? first.current : root.current)?.focus(), []);
  void store.version.value;
  const rules = store.decoders.value;
  const source = store.source.value;

  const add = (event: Event) => {
    event.preventDefault();
    const rule: Record<string, unknown> =
      kind.value === "relay"
        ? { url: url.value.trim(), kind: "relay" }
        : { url: url.value.trim(), pointer: pointer.value.trim(), direction: direction.value };
    if (kind.value === "relay")
      for (const f of RELAY_FIELDS) if (relay.value[f.key].trim() !== "") rule[f.key] = relay.value[f.key].trim();
    if (method.value !== "") rule.method = method.value;
    if (label.value.trim() !== "") rule.label = label.value.trim();
    const why = problemOf(rule);
    problem.value = why;
    if (why) return;
    send({ kind: "addDecoder", rule: rule as DecoderInput });
    url.value = pointer.value = label.value = "";
    relay.value = { ask: "", askId: "", action: "", content: "", answerId: "" };
    first.current?.focus();
  };

  return (
    <section
      ref={root}
      tabIndex={-1}
      class="decode"
      aria-label="Decode as MCP"
      onKeyDown={(e) => e.key === "Escape" && !e.defaultPrevented && (e.preventDefault(), onClose())}
    >
      <h2>Decode as MCP</h2>
      <p class="hint">
        For a host whose envelope the panel does not know: requests to this URL carry an MCP message at this JSON
        pointer of their body, frame or event data; or, for a hosted agent's page the panel does not recognise, an
        elicitation the app relays (where the ask, its id, the answer's action and content lie). Decoders are kept for
        every tab; the tap applies them from the next request on (reload the page for what it sent before), an import as
        it reads the file.
      </p>
      {!editable && (
        <p class="warn">
          No tab is inspected: rules live in the extension's worker. Open the panel from DevTools to add or remove them.
        </p>
      )}
      <form class="decode-form" onSubmit={add} aria-label="Add a decoder">
        <label>
          URL pattern
          <input
            ref={first}
            type="text"
            value={url.value}
            onInput={(e) => (url.value = e.currentTarget.value)}
            placeholder="https://host/api/agent/* or /agent/"
            spellcheck={false}
            required
            disabled={!editable}
          />
        </label>
        <label>
          Method
          <select value={method.value} onChange={(e) => (method.value = e.currentTarget.value)} disabled={!editable}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m === "" ? "any" : m}
              </option>
            ))}
          </select>
        </label>
        <label>
          Carries
          <select
            value={kind.value}
            onChange={(e) => (kind.value = e.currentTarget.value as typeof kind.value)}
            disabled={!editable}
          >
            <option value="mcp">MCP messages</option>
            <option value="relay">a relayed elicitation (hosted agent)</option>
          </select>
        </label>
        {kind.value === "mcp" ? (
          <>
            <label>
              JSON pointer
              <input
                type="text"
                value={pointer.value}
                onInput={(e) => (pointer.value = e.currentTarget.value)}
                placeholder="/data/message (empty: the whole body)"
                spellcheck={false}
                disabled={!editable}
              />
            </label>
            <label>
              Direction
              <select
                value={direction.value}
                onChange={(e) => (direction.value = e.currentTarget.value as typeof direction.value)}
                disabled={!editable}
              >
                {DIRECTIONS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : (
          RELAY_FIELDS.map((f) => (
            <label key={f.key}>
              {f.label}
              <input
                type="text"
                value={relay.value[f.key]}
                onInput={(e) => (relay.value = { ...relay.value, [f.key]: e.currentTarget.value })}
                placeholder={f.placeholder}
                spellcheck={false}
                disabled={!editable}
              />
            </label>
          ))
        )}
        <label>
          Label
          <input
            type="text"
            value={label.value}
            onInput={(e) => (label.value = e.currentTarget.value)}
            placeholder="optional"
            disabled={!editable}
          />
        </label>
        <button type="submit" disabled={!editable}>
          Add decoder
        </button>
      </form>
      {(problem.value ?? store.decodeError.value) && (
        <p class="warn" role="alert">
          {problem.value ?? `The extension refused the change: ${shown(store.decodeError.value, 300)}`}
        </p>
      )}
      {rules.length === 0 ? (
        <p class="empty">No decoders.</p>
      ) : (
        <table class="decode-rules" aria-label="Decoders">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">URL pattern</th>
              <th scope="col">Method</th>
              <th scope="col">Pointer</th>
              <th scope="col">Direction</th>
              <th
                scope="col"
                title={
                  source.kind === "file"
                    ? "Messages of this file the rule unwrapped"
                    : "Messages of this tab the rule unwrapped"
                }
              >
                Matched
              </th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} data-rule={r.id} aria-label={`decoder ${r.id}`}>
                <td>{r.label ? `${shown(r.label, 60)} (${r.id})` : r.id}</td>
                <td title={shown(r.url, 2048)}>
                  <code>{shown(r.url, 120)}</code>
                </td>
                <td>{r.method ?? "any"}</td>
                <td>
                  <code>{shown(whereText(r), 200)}</code>
                </td>
                <td>{r.kind === "relay" ? "relayed elicitation" : r.direction}</td>
                <td data-col="matched" class="num">
                  {store.matchedBy(r.id)}
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`Remove decoder ${r.id}`}
                    disabled={!editable}
                    onClick={() => send({ kind: "removeDecoder", id: r.id })}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {source.kind === "file" && onReimport && rules.length > 0 && (
        <p>
          <button type="button" onClick={onReimport}>
            Import {shown(source.name, 80)} again with these rules
          </button>
        </p>
      )}
    </section>
  );
}
