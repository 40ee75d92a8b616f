import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { Backends as BackendList } from "../state/backends.ts";
import { shown } from "../model/text.ts";

/**
 * The Backend… section: an agent backend's MCP wire, added by the feed URL `mcp-elicit proxy` prints. Its records
 * join the inspected tab's capture in a lane of their own ("agent → server"); `source:backend` filters them.
 */
export function Backends({
  backends,
  editable,
  onClose,
}: {
  backends: BackendList;
  editable: boolean;
  onClose(): void;
}) {
  const url = useSignal("");
  const problem = useSignal<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLElement>(null);
  useEffect(() => (editable ? first.current : root.current)?.focus(), []);
  const list = backends.list.value;

  const add = (event: Event) => {
    event.preventDefault();
    problem.value = backends.add(url.value);
    if (problem.value === null) url.value = "";
  };

  return (
    <section
      ref={root}
      tabIndex={-1}
      class="decode backends"
      aria-label="Agent backends"
      onKeyDown={(e) => e.key === "Escape" && !e.defaultPrevented && (e.preventDefault(), onClose())}
    >
      <h2>Agent backends</h2>
      <p class="hint">
        A hosted agent runs its MCP client on its server. Run <code>mcp-elicit proxy &lt;server-url&gt;</code>, give the
        agent the URL it prints first, and paste here the feed URL it prints last: the backend's MCP wire joins this
        tab's capture, each elicitation one flow with the page's relayed ask. The extension gets no permission for it;
        removing the backend closes its feed.
      </p>
      {!editable && (
        <p class="warn">No tab is inspected: a backend joins a tab's capture. Open the panel from DevTools.</p>
      )}
      <form class="decode-form" onSubmit={add} aria-label="Add a backend">
        <label>
          Feed URL
          <input
            ref={first}
            type="text"
            value={url.value}
            onInput={(e) => (url.value = e.currentTarget.value)}
            placeholder="http://127.0.0.1:PORT/__mcp-elicit/feed?token=…"
            spellcheck={false}
            required
            disabled={!editable}
          />
        </label>
        <button type="submit" disabled={!editable}>
          Add backend
        </button>
      </form>
      {problem.value && (
        <p class="warn" role="alert">
          {problem.value}
        </p>
      )}
      {list.length === 0 ? (
        <p class="empty">No backends.</p>
      ) : (
        <table class="decode-rules" aria-label="Backends">
          <thead>
            <tr>
              <th scope="col">Feed</th>
              <th scope="col">Status</th>
              <th scope="col">Records</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((b) => (
              <tr key={b.feed} aria-label={`backend ${b.feed}`}>
                <td>
                  <code>{shown(b.feed, 200)}</code>
                </td>
                <td data-col="status">{b.status}</td>
                <td data-col="records" class="num">
                  {b.records}
                </td>
                <td>
                  <button type="button" aria-label={`Remove backend ${b.feed}`} onClick={() => backends.remove(b.feed)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
