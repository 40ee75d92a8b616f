import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { registerHostTools } from "./tools.ts";

/** One JSON-RPC message as the server received (c2s) or sent (s2c) it: the wire, seen from the server's end. */
export interface WireMessage {
  direction: "c2s" | "s2c";
  message: unknown;
}

export interface HostPeer {
  url: string;
  name: string;
  /** Every message of every session, in order. */
  wire: WireMessage[];
  close(): Promise<void>;
}

/**
 * A real sdk 1.32.2 server with the host tools (tools.ts), Streamable HTTP at `http://127.0.0.1:<port 0>/mcp`,
 * stateful sessions. `name` is its serverInfo name and appears in every tool result, so two peers tell apart.
 */
export async function startHostPeer(name = "host-peer"): Promise<HostPeer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const wire: WireMessage[] = [];
  let origin = "";
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? "/", origin).pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (req.method !== "POST") {
      if (!session) {
        res.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32000, message: "Bad Request: no valid session" },
            id: null,
          }),
        );
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    if (session) {
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (sessionId === undefined && isInitializeRequest(body)) {
      const server = new McpServer({ name, version: "1.0.0" });
      registerHostTools(server, name);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      // The server's own view of the wire: what its transport hands it and what it sends (deep copies).
      const received = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        wire.push({ direction: "c2s", message: structuredClone(message) });
        received(message, extra);
      };
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        wire.push({ direction: "s2c", message: structuredClone(message) });
        return send(message, options);
      };
      await transport.handleRequest(req, res, body);
      return;
    }
    res.writeHead(sessionId === undefined ? 400 : 404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32000, message: sessionId === undefined ? "Bad Request: no session" : "Session not found" },
        id: null,
      }),
    );
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    name,
    wire,
    async close() {
      for (const { server } of [...sessions.values()]) await server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
