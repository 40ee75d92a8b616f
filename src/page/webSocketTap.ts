import type { RecordDraft } from "../shared/tapRecord.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";
import type { Natives } from "./natives.ts";
import { capped, looksJsonRpc, type Tap } from "./mcp.ts";
import { replaceConstructor, replaceMethod } from "./wrap.ts";

interface Socket {
  url: string;
  openedAt: number;
  mcp: boolean;
  exchange?: string;
  /** Frames wait behind a Blob frame being read, so records keep the order of the wire. */
  queue: Promise<void> | undefined;
  pending: number;
}

/**
 * `WebSocket`: frames sent (prototype `send`) and received (a `message` listener of ours, added first at
 * construction). A socket is recorded from its first JSON-RPC frame (or from `open` when it negotiated an `mcp`
 * subprotocol): a 101 head at the open time, the frames, an end at close (`network` when not clean).
 */
export function tapWebSocket(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  if (typeof win.WebSocket !== "function") return;
  const sockets = new WeakMap<WebSocket, Socket>();

  const emit = (s: Socket, record: Record<string, unknown>): void =>
    tap.emit({ transport: "websocket", exchange: s.exchange, url: s.url, client: tap.client, ...record } as RecordDraft);
  const begin = (s: Socket): void => {
    s.mcp = true;
    if (s.exchange) return;
    s.exchange = tap.id("w");
    emit(s, { time: s.openedAt, kind: "response", status: 101 });
  };
  const record = (s: Socket, text: string, direction: "c2s" | "s2c", time: number): void => {
    if (!s.mcp) {
      if (!looksJsonRpc(text)) return;
      begin(s);
    }
    emit(s, { time, kind: "message", direction, stream: "websocket", ...capped(text) });
  };
  const frame = (s: Socket, data: unknown, direction: "c2s" | "s2c"): void => {
    const time = tap.now();
    if (typeof data === "string" && s.pending === 0) return record(s, data, direction, time);
    let text: string | Promise<string> | undefined;
    if (typeof data === "string") text = data;
    else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) text = data.byteLength <= MESSAGE_CAP ? tap.decode(data) : undefined;
    else if (N.Blob && data instanceof N.Blob && data.size <= MESSAGE_CAP) text = N.blobText.call(data);
    if (text === undefined) return;
    if (typeof text === "string" && s.pending === 0) return record(s, text, direction, time);
    s.pending++;
    const previous = s.queue ?? N.Promise.resolve();
    s.queue = N.then.call(N.then.call(previous, () => text), (value: string) => record(s, value, direction, time)) as Promise<void>;
    s.queue = N.then.call(s.queue, () => void s.pending--, () => void s.pending--) as Promise<void>;
  };

  replaceConstructor<typeof WebSocket>(win, "WebSocket", (socket) => {
    const s: Socket = { url: socket.url, openedAt: tap.now(), mcp: false, queue: undefined, pending: 0 };
    sockets.set(socket, s);
    N.listen.call(socket, "open", () => {
      s.openedAt = tap.now();
      if (/\bmcp\b/i.test(socket.protocol)) begin(s);
    });
    N.listen.call(socket, "message", (event) => {
      try {
        frame(s, (event as MessageEvent).data, "s2c");
      } catch {
        // Never into the page.
      }
    });
    N.listen.call(socket, "close", (event) => {
      if (!s.exchange) return;
      const clean = (event as CloseEvent).wasClean;
      const done = (): void => emit(s, { time: tap.now(), kind: "end", ...(!clean && { error: "network" }) });
      if (s.queue) N.then.call(s.queue, done);
      else done();
    });
  });

  replaceMethod(win.WebSocket.prototype, "send", {
    apply(target, socket: WebSocket, args: unknown[]) {
      const result = Reflect.apply(target, socket, args);
      try {
        const s = sockets.get(socket);
        if (s && socket.readyState === 1) frame(s, args[0], "c2s");
      } catch {
        // Never into the page.
      }
      return result;
    },
  });
}
