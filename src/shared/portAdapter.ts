// One reconnecting port to the worker, for every context that talks to it (the relay's uplink, the panel's
// transport, the DevTools page): an MV3 worker is stopped after ~30 s idle and every port drops with it. The shape of
// Apollo Client Devtools' `createPortMessageAdapter` and React's `connectExtensionPort`: the caller says what to do
// on each new port and on each message; the adapter connects, notices the drop and connects again, backing off while
// the worker cannot be reached. Zod-free and DOM-free, so the relay can carry it into every frame.

/** The part of a runtime Port the adapter uses (tests pass fakes). */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface PortAdapterOptions {
  /** Opens a port; throws once the extension is reloaded or removed ("Extension context invalidated"). */
  connect(): PortLike;
  /** Each message on the current port. */
  onMessage(message: unknown): void;
  /** Each new port, before anything else is posted on it (subscribe again, resend what was not acknowledged). */
  onConnect?(port: PortLike): void;
  /** The port came or went (the panel's "reconnecting" state). */
  onStatus?(connected: boolean): void;
  /** After a drop: whether to connect again (default: always; the relay only while it has something to send). */
  wanted?(): boolean;
  /** What the reconnection timer runs (default: connect again; the relay sends what it holds, which connects). */
  resume?(): void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** The wait before the n-th reconnection in a row: at once after a worker restart, then backing off up to 2 s. */
export const backoffMs = (failures: number): number => (failures <= 1 ? 0 : Math.min(2000, 50 * 2 ** failures));

export function createPortAdapter(options: PortAdapterOptions) {
  const later = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clear = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let port: PortLike | undefined;
  let dead = false;
  let closed = false;
  let failures = 0;
  let retry: unknown;

  const open = (): PortLike | undefined => {
    if (port || dead || closed) return port;
    if (retry !== undefined) clear(retry);
    retry = undefined;
    let next: PortLike;
    try {
      next = options.connect();
    } catch {
      dead = true;
      options.onStatus?.(false);
      return undefined;
    }
    port = next;
    next.onMessage.addListener((message) => {
      if (port !== next) return;
      failures = 0;
      options.onMessage(message);
    });
    next.onDisconnect.addListener(() => {
      if (port !== next) return;
      port = undefined;
      options.onStatus?.(false);
      if (closed || !(options.wanted?.() ?? true)) return;
      failures++;
      retry = later(() => {
        retry = undefined;
        if (options.resume) options.resume();
        else open();
      }, backoffMs(failures));
    });
    options.onConnect?.(next);
    return port;
  };

  return {
    /** The current port, connecting first if there is none (undefined once the extension is gone). */
    open,
    /** Posts on the current port (connecting first); false when it could not. */
    post(message: unknown): boolean {
      const p = open();
      if (!p) return false;
      try {
        p.postMessage(message);
        return true;
      } catch {
        return false; // the port died under us: its onDisconnect reconnects
      }
    },
    /** Closes the current port; the next `open` or `post` makes a new one. */
    drop(): void {
      const p = port;
      port = undefined;
      p?.disconnect();
    },
    /** Closes for good. */
    close(): void {
      closed = true;
      if (retry !== undefined) clear(retry);
      port?.disconnect();
      port = undefined;
    },
    connected: (): boolean => port !== undefined,
    dead: (): boolean => dead,
  };
}
