import type { HubPort } from "../../src/background/hub.ts";
import type { WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import { PANEL_PORT, PANEL_SOURCE, PROTOCOL_VERSION } from "../../src/shared/tags.ts";
import { createFlowStore } from "../../panel/state/store.ts";

/** In-memory runtime ports for the relay/worker/panel logic: messages are JSON-copied and delivered a task later. */
export type FakePort = HubPort;

export function portPair(
  name: string,
  sender?: FakePort["sender"],
): { client: FakePort; server: FakePort; alive(): boolean } {
  let alive = true;
  const make = (): FakePort & { deliver(m: unknown): void; drop(): void } => {
    const onMessage: ((m: unknown) => void)[] = [];
    const onDisconnect: (() => void)[] = [];
    return {
      name,
      postMessage(message) {
        if (!alive) throw new Error("Attempting to use a disconnected port object");
        const copy = JSON.parse(JSON.stringify(message)) as unknown;
        setImmediate(() => alive && other(this).deliver(copy));
      },
      disconnect() {
        if (!alive) return;
        alive = false;
        const peer = other(this);
        setImmediate(() => peer.drop());
      },
      onMessage: { addListener: (l) => void onMessage.push(l) },
      onDisconnect: { addListener: (l) => void onDisconnect.push(l) },
      deliver: (m) => onMessage.forEach((l) => l(m)),
      drop: () => onDisconnect.forEach((l) => l()),
    };
  };
  const client = make();
  const server = Object.assign(make(), { sender });
  const other = (p: FakePort) => (p === client ? server : client);
  return { client, server, alive: () => alive };
}

export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling every 5 ms for up to ~2 s; fails naming `what`. */
export async function settle(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await tick(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A panel connected to the worker's `hub` and subscribed to `tabId`, as panel.html connects: the messages it got, the
 * FlowStore they fed, a sender of panel messages, and the worker's end of the port.
 */
export function connectPanel(hub: { connectPanel(port: HubPort): void }, tabId: number) {
  const pair = portPair(PANEL_PORT, { url: "chrome-extension://x/panel.html" });
  hub.connectPanel(pair.server as HubPort);
  const messages: WorkerToPanel[] = [];
  const store = createFlowStore();
  pair.client.onMessage.addListener((m) => {
    messages.push(m as WorkerToPanel);
    store.apply(m as WorkerToPanel);
  });
  const send = (kind: string, extra: object = {}) =>
    pair.client.postMessage({ source: PANEL_SOURCE, v: PROTOCOL_VERSION, kind, tabId, ...extra });
  send("subscribe");
  return { messages, store, send, port: pair.server };
}
