import { signal, type Signal } from "@preact/signals";
import { MAX_BACKEND_BATCH } from "../../src/shared/panelProtocol.ts";
import type { Command } from "./transport.ts";

/**
 * The agent backends added with the toolbar's Backend… control: each a running `mcp-elicit proxy`, read through
 * the feed URL it prints (`http://127.0.0.1:<port>/__mcp-elicit/feed?token=…`). The feed answers the extension's
 * own origin with CORS (src/cli/proxy/feed.ts), so the panel reads it as any extension page may, and the extension
 * gains no host permission. Its records go to the worker (`backendRecords`), which marks them `source: "backend"`
 * and adds them to the inspected tab's capture. Removing a backend closes its feed; so does closing the panel.
 */
export interface Backend {
  /** The feed's origin and path: the backend's name, and what the worker counts feed seqs by. Never its token. */
  feed: string;
  status: "connecting" | "live" | "retrying" | "closed";
  records: number;
}

/** The EventSource the panel opens (a test replaces it). */
export type FeedSource = Pick<EventSource, "close" | "readyState"> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
};

const FEED_PATH = "/__mcp-elicit/feed";
const FLUSH_MS = 50;

/** The feed URL the user pasted, checked: what is wrong with it, or its name (origin + path) and the URL. */
export function parseFeedUrl(text: string): { feed: string; url: string } | string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return "Paste the feed URL the proxy printed on its last line (http://127.0.0.1:<port>/__mcp-elicit/feed?token=…).";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "The feed URL is http(s).";
  if (url.pathname !== FEED_PATH) return `That is not a feed URL: its path is ${FEED_PATH} (the proxy's last line).`;
  if (!url.searchParams.get("token")) return "The feed URL has no token: copy the whole line the proxy printed.";
  return { feed: url.origin + url.pathname, url: url.href };
}

export function createBackends(
  send: (command: Command) => void,
  open: (url: string) => FeedSource = (url) => new EventSource(url) as unknown as FeedSource,
) {
  const list: Signal<readonly Backend[]> = signal([]);
  const sources = new Map<string, FeedSource>();
  const update = (feed: string, change: Partial<Backend>): void => {
    list.value = list.value.map((b) => (b.feed === feed ? { ...b, ...change } : b));
  };

  return {
    list,
    /** Adds a backend by its feed URL; answers what is wrong with the URL, or null. */
    add(text: string): string | null {
      const parsed = parseFeedUrl(text);
      if (typeof parsed === "string") return parsed;
      const { feed } = parsed;
      if (sources.has(feed)) return "That backend is added already.";
      let source: FeedSource;
      try {
        source = open(parsed.url);
      } catch {
        return "The feed could not be opened.";
      }
      sources.set(feed, source);
      list.value = [...list.value, { feed, status: "connecting", records: 0 }];
      let batch: unknown[] = [];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = (): void => {
        timer = undefined;
        if (batch.length === 0) return;
        send({ kind: "backendRecords", feed, records: batch });
        batch = [];
      };
      source.onopen = () => update(feed, { status: "live" });
      source.onmessage = (event) => {
        let record: unknown;
        try {
          record = JSON.parse(event.data);
        } catch {
          return; // not a record: the worker would refuse it anyway
        }
        batch.push(record);
        const entry = list.value.find((b) => b.feed === feed);
        if (entry) update(feed, { records: entry.records + 1 });
        if (batch.length >= MAX_BACKEND_BATCH) flush();
        else timer ??= setTimeout(flush, FLUSH_MS);
      };
      // EventSource reconnects by itself (sending Last-Event-ID); a refused feed (403: a wrong token) closes it.
      source.onerror = () => update(feed, { status: source.readyState === 2 ? "closed" : "retrying" });
      return null;
    },
    remove(feed: string): void {
      sources.get(feed)?.close();
      sources.delete(feed);
      list.value = list.value.filter((b) => b.feed !== feed);
    },
    closeAll(): void {
      for (const source of sources.values()) source.close();
      sources.clear();
      list.value = [];
    },
  };
}

export type Backends = ReturnType<typeof createBackends>;
