import { attempt, type Behaviour, type Ctx, once, rpc, sleep, stats, until } from "./kit.ts";

const ws = { transport: "websocket" as const, url: () => "/ws" };
const wsUrl = (ctx: Ctx, mode: string): string => `${ctx.origin.replace(/^http/, "ws")}/ws?mode=${mode}&k=${ctx.token}`;

interface Logged {
  log: unknown[];
  /** Message data in arrival order, as received (strings, ArrayBuffers or Blobs). */
  data: unknown[];
}

/** Every event of a socket as the page sees it. */
function watch(socket: WebSocket): Logged {
  const out: Logged = { log: [], data: [] };
  socket.onopen = () =>
    out.log.push({
      on: "open",
      readyState: socket.readyState,
      protocol: socket.protocol,
      extensions: socket.extensions,
      binaryType: socket.binaryType,
    });
  socket.onmessage = (e) => {
    out.data.push(e.data);
    out.log.push({
      on: "message",
      kind: e.data instanceof ArrayBuffer ? "ArrayBuffer" : e.data instanceof Blob ? "Blob" : typeof e.data,
      origin: e.origin,
      lastEventId: e.lastEventId,
      sourceNull: e.source === null,
    });
  };
  socket.onerror = (e) => out.log.push({ on: "error", readyState: socket.readyState, ctor: e.constructor.name });
  socket.onclose = (e) =>
    out.log.push({ on: "close", code: e.code, reason: e.reason, wasClean: e.wasClean, readyState: socket.readyState });
  return out;
}

/** Data as plain values; Blobs are read after the fact (their order is the event order). */
async function plain(data: unknown[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const d of data) {
    if (typeof d === "string") out.push({ text: d });
    else if (d instanceof ArrayBuffer) out.push({ bytes: [...new Uint8Array(d)] });
    else if (d instanceof Blob)
      out.push({ blob: d.size, type: d.type, bytes: [...new Uint8Array(await d.arrayBuffer())] });
  }
  return out;
}

const closed = (socket: WebSocket): Promise<unknown> => once(socket, "close");

/** WebSocket: text and binary frames, binaryType, close codes and reasons, failures. */
export const webSocketBehaviours: Behaviour[] = [
  {
    name: "WebSocket: JSON-RPC text frames with the mcp subprotocol, client close with code and reason",
    mcp: ws,
    async run(ctx) {
      const socket = new WebSocket(wsUrl(ctx, "echo"), ["mcp"]);
      const states = [socket.readyState, socket.bufferedAmount];
      const seen = watch(socket);
      await once(socket, "open");
      socket.send(rpc("initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: {} } }, 1));
      socket.send(rpc("notifications/initialized", {}));
      socket.send("not json");
      await until(() => seen.data.length === 3, "three echoes");
      const done = closed(socket);
      socket.close(4001, "bye now ✓");
      states.push(socket.readyState);
      await done;
      await sleep(100);
      return {
        seen: {
          ...seen,
          data: await plain(seen.data),
          states,
          url: socket.url.replace(ctx.token, "<token>"),
          server: (await stats(ctx)).wsClose,
        },
      };
    },
  },
  {
    name: "WebSocket: binary frames as ArrayBuffer (binaryType arraybuffer)",
    mcp: ws,
    async run(ctx) {
      const socket = new WebSocket(wsUrl(ctx, "script"));
      socket.binaryType = "arraybuffer";
      const seen = watch(socket);
      await until(() => seen.data.length === 5, "five frames");
      socket.close(1000);
      await closed(socket);
      return { seen: { log: seen.log, data: await plain(seen.data) } };
    },
  },
  {
    name: "WebSocket: binary frames as Blob (binaryType blob), order kept",
    mcp: ws,
    async run(ctx) {
      const socket = new WebSocket(wsUrl(ctx, "script"));
      const before = socket.binaryType;
      const seen = watch(socket);
      await until(() => seen.data.length === 5, "five frames");
      socket.close();
      await closed(socket);
      return { seen: { before, log: seen.log, data: await plain(seen.data) } };
    },
  },
  {
    name: "WebSocket: the server closes with a code and reason; send after close",
    mcp: ws,
    async run(ctx) {
      const socket = new WebSocket(wsUrl(ctx, "echo"));
      const seen = watch(socket);
      await once(socket, "open");
      socket.send(rpc("tools/call", { name: "x" }, 2));
      await until(() => seen.data.length === 1, "the echo");
      socket.send("close-me:4000:server says bye");
      await closed(socket);
      const afterClose = attempt(() => socket.send(rpc("ping", {}, 3)));
      return {
        seen: {
          log: seen.log,
          data: await plain(seen.data),
          afterClose,
          bufferedAmount: socket.bufferedAmount,
          readyState: socket.readyState,
        },
      };
    },
  },
  {
    name: "WebSocket: sending strings, ArrayBuffer, typed-array views and Blobs",
    mcp: ws,
    async run(ctx) {
      const socket = new WebSocket(wsUrl(ctx, "echo"));
      socket.binaryType = "arraybuffer";
      const seen = watch(socket);
      const connecting = attempt(() => socket.send("too early"));
      await once(socket, "open");
      const bytes = new TextEncoder().encode(rpc("ping", {}, 4));
      socket.send(rpc("ping", {}, 3));
      socket.send(bytes.buffer);
      socket.send(new Uint8Array([9, 8, 7, 6, 5, 4]).subarray(1, 4));
      socket.send(new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 2));
      socket.send(new Blob([rpc("ping", {}, 5)], { type: "application/json" }));
      socket.send(new Blob([new Uint8Array([0xff, 0xfe])]));
      await until(() => seen.data.length === 6, "six echoes");
      socket.close();
      await closed(socket);
      return {
        seen: { connecting, log: seen.log, data: await plain(seen.data), server: (await stats(ctx)).wsReceived },
      };
    },
  },
  {
    name: "WebSocket: connection refused and a bad URL",
    async run(ctx) {
      const socket = new WebSocket(`${ctx.refused.replace(/^http/, "ws")}/ws`);
      const seen = watch(socket);
      await closed(socket);
      const badScheme = attempt(() => new WebSocket("ftp://127.0.0.1/"));
      const badProtocols = attempt(() => new WebSocket(wsUrl(ctx, "echo"), ["a", "a"]));
      return { seen: { log: seen.log, badScheme, badProtocols } };
    },
  },
];
