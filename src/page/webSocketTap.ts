import type { RecordDraft } from "../shared/tapRecord.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";
import { capped, looksJsonRpc, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import { looksRelayed } from "./relay.ts";
import {
  ArrayBufferIsView,
  byteLengthOf,
  isArrayBuffer,
  PromiseResolve,
  PromisePrototypeThen,
  RegExpPrototypeExec,
  WeakMapCtor,
  WeakMapPrototypeGet,
  WeakMapPrototypeSet,
} from "./primordials.ts";
import type { Wrap } from "./wrap.ts";

interface Socket {
  url: string;
  openedAt: number;
  mcp: boolean;
  /** A decode rule matched the URL when the socket was made: recorded from its open, every frame. */
  decoded: boolean;
  exchange?: string;
  /** Frames wait behind a Blob frame being read, so records keep the order of the wire. */
  queue: Promise<void> | undefined;
  pending: number;
}

const MCP_PROTOCOL = /\bmcp\b/i;

/**
 * `WebSocket`: frames sent (prototype `send`) and received (a `message` listener of ours, added first at
 * construction). A socket is recorded from its first JSON-RPC frame (or from `open` when it negotiated an `mcp`
 * subprotocol, or a decode rule matched its URL): a 101 head at the open time, the frames, an end at close (`network` when not clean).
 */
export function tapWebSocket(win: Window & typeof globalThis, tap: Tap, N: Natives, wrap: Wrap): void {
  if (typeof win.WebSocket !== "function") return;
  const sockets = new WeakMapCtor<object, Socket>();

  const emit = (s: Socket, record: Record<string, unknown>): void =>
    tap.emit({
      transport: "websocket",
      exchange: s.exchange,
      url: s.url,
      client: tap.client,
      ...record,
    } as RecordDraft);
  const begin = (s: Socket): void => {
    s.mcp = true;
    if (s.exchange) return;
    s.exchange = tap.id("w");
    emit(s, { time: s.openedAt, kind: "response", status: 101 });
  };
  const record = (s: Socket, text: string, direction: "c2s" | "s2c", time: number): void => {
    if (!s.mcp) {
      if (!looksJsonRpc(text)) {
        // A relayed elicitation on a socket that carries no MCP: its frames alone, no exchange, head or end (relay.ts).
        if (looksRelayed(text))
          emit(
            { ...s, exchange: undefined },
            { time, kind: "message", direction, stream: "websocket", ...capped(text) },
          );
        return;
      }
      begin(s);
    }
    emit(s, { time, kind: "message", direction, stream: "websocket", ...capped(text) });
  };
  const isBlob = (value: unknown): value is Blob => {
    try {
      N.blobSize!(value);
      return true;
    } catch {
      return false;
    }
  };
  const frame = (s: Socket, data: unknown, direction: "c2s" | "s2c"): void => {
    const time = tap.now();
    if (typeof data === "string" && s.pending === 0) return record(s, data, direction, time);
    let text: string | Promise<string> | undefined;
    if (typeof data === "string") text = data;
    else if (isArrayBuffer(data) || ArrayBufferIsView(data))
      text = byteLengthOf(data) <= MESSAGE_CAP ? tap.decode(data as ArrayBuffer) : undefined;
    else if (isBlob(data) && N.blobSize!(data) <= MESSAGE_CAP) text = N.blobText(data);
    if (text === undefined) return;
    if (typeof text === "string" && s.pending === 0) return record(s, text, direction, time);
    s.pending++;
    const previous = s.queue ?? PromiseResolve(undefined);
    const next = PromisePrototypeThen(
      PromisePrototypeThen(previous, () => text),
      (value: string) => record(s, value, direction, time),
    );
    s.queue = PromisePrototypeThen(
      next,
      () => void s.pending--,
      () => void s.pending--,
    );
  };

  wrap.ctor(win, "WebSocket", (socket) => {
    const url = N.webSocketUrl(socket);
    const s: Socket = {
      url,
      openedAt: tap.now(),
      mcp: false,
      decoded: tap.rules.any() && tap.rules.matches(url, undefined),
      exchange: undefined,
      queue: undefined,
      pending: 0,
    };
    WeakMapPrototypeSet(sockets, socket, s);
    N.listen(socket, "open", () => {
      s.openedAt = tap.now();
      if (s.decoded || RegExpPrototypeExec(MCP_PROTOCOL, N.webSocketProtocol(socket)) !== null) begin(s);
    });
    N.listen(socket, "message", (event) => {
      try {
        frame(s, N.messageData(event), "s2c");
      } catch {
        // Never into the page.
      }
    });
    N.listen(socket, "close", (event) => {
      if (!s.exchange) return;
      const clean = N.closeWasClean(event);
      const done = (): void => emit(s, { time: tap.now(), kind: "end", ...(!clean && { error: "network" }) });
      if (s.queue) PromisePrototypeThen(s.queue, done);
      else done();
    });
  });

  wrap.method(win.WebSocket.prototype, "send", (target, socket, args) => {
    const result = wrap.invoke(target, socket, args);
    try {
      const s = socket !== null && typeof socket === "object" ? WeakMapPrototypeGet(sockets, socket) : undefined;
      if (s && N.webSocketReadyState(socket) === 1) frame(s, args[0], "c2s");
    } catch {
      // Never into the page.
    }
    return result;
  });
}
