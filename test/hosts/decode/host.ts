import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as esbuild from "esbuild";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { acceptWebSocket } from "../../helpers/wsServer.ts";
import type { WireMessage } from "../peer.ts";
import { registerHostTools } from "../tools.ts";

/**
 * A host the test makes up, whose page carries MCP in an envelope of its own (decode/page.ts): the page and its
 * WebSocket bus on one 127.0.0.1 origin, a real sdk 1.32.2 McpServer per socket. Besides the MCP frames the host
 * sends a presence frame of its own when a socket opens and after each tool result. `wire` is the server's log.
 */
export interface BusHost {
  origin: string;
  url: string;
  /** The bus's WebSocket URL (what a decode rule matches). */
  bus: string;
  wire: WireMessage[];
  close(): Promise<void>;
}

export async function startBusHost(): Promise<BusHost> {
  const built = await esbuild.build({
    entryPoints: ["test/hosts/decode/page.ts"],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  const script = built.outputFiles[0]!.text;
  const wire: WireMessage[] = [];
  const servers = new Set<McpServer>();
  const sockets = new Set<import("node:stream").Duplex>();

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/")
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          '<!doctype html><meta charset="utf-8"><title>Bus host</title><h1>Bus host</h1><script src="/page.js"></script>',
        );
    if (url.pathname === "/page.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(404).end();
  });
  http.on("upgrade", (req, socket) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/bus") return void socket.destroy();
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let seq = 0;
    let users = 1;
    const transport: Transport = {
      async start() {},
      async send(message) {
        wire.push({ direction: "s2c", message: structuredClone(message) });
        peer.sendText(JSON.stringify({ type: "frame", seq: ++seq, body: { rpc: JSON.stringify(message) } }));
        if ("result" in message) peer.sendText(JSON.stringify({ type: "presence", users: ++users }));
      },
      async close() {},
    };
    const peer = acceptWebSocket(req, socket, {
      onText(text) {
        const frame = JSON.parse(text) as { type: string; body?: { rpc: string } };
        if (frame.type !== "frame" || !frame.body) return;
        const message = JSON.parse(frame.body.rpc) as JSONRPCMessage;
        wire.push({ direction: "c2s", message: structuredClone(message) });
        transport.onmessage?.(message);
      },
      onClose() {
        void server.close();
      },
    });
    const server = new McpServer({ name: "bus-host", version: "1.0.0" });
    registerHostTools(server, "bus");
    servers.add(server);
    void server.connect(transport).then(() => peer.sendText(JSON.stringify({ type: "presence", users })));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/`,
    bus: `${origin.replace(/^http/, "ws")}/bus`,
    wire,
    async close() {
      for (const server of servers) await server.close().catch(() => undefined);
      for (const socket of sockets) socket.destroy();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
