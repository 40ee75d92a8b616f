import { useSignal } from "@preact/signals";

const KEY = "mcp-elicit:coverage-hidden";

/** What the tap cannot see (docs/extension.md, "What the tap cannot see"), said up front so no one trusts a gap. */
export function CoverageBanner() {
  const hidden = useSignal(readHidden());
  if (hidden.value) return null;
  return (
    <aside class="coverage" role="note" aria-label="coverage">
      <details>
        <summary>
          This panel sees the MCP traffic of this tab's pages from the moment they load. It cannot see traffic from
          before the tap started, fetches made inside workers, or frames it cannot reach.
        </summary>
        <ul>
          <li>
            Traffic before the page's document started (reload the page to capture a client that connected earlier).
          </li>
          <li>
            Requests made inside <strong>workers</strong>: dedicated, shared and service workers and worklets (including
            a service worker answering the page's fetches).
          </li>
          <li>
            Frames whose APIs the parent grabs before the tap is injected, and pages where extensions never run (other
            extensions, browser pages, web stores).
          </li>
          <li>
            Streamed or FormData request bodies; response headers a cross-origin server does not expose (the session
            id).
          </li>
          <li>
            MessagePort, MessageChannel and BroadcastChannel transports; stdio and native messaging (desktop clients).
          </li>
          <li>
            The page's non-MCP requests, so a URL fetched before the user consented (<code>url-no-prefetch</code>) and a
            server using URL mode for its own OAuth (<code>url-not-mcp-authorization</code>) show only in an imported
            HAR of the page.
          </li>
        </ul>
      </details>
      <button
        type="button"
        aria-label="Hide coverage note"
        onClick={() => {
          hidden.value = true;
          try {
            localStorage.setItem(KEY, "1");
          } catch {
            // storage refused: hidden for this session only
          }
        }}
      >
        ✕
      </button>
    </aside>
  );
}

function readHidden(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}
