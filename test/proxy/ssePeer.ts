import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import type { PeerServer } from "../peers/legacyServer.ts";

/**
 * A real server on the older HTTP+SSE transport (sdk 1.32.2 SSEServerTransport): `GET /sse` opens the stream, whose
 * `endpoint` event names `/messages?sessionId=…` for the client's POSTs. One tool asks a form question.
 */
export async function startSsePeer(): Promise<PeerServer> {
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://peer");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      res.on("close", () => transports.delete(transport.sessionId));
      const mcp = new McpServer({ name: "sse-peer", version: "1.0.0" });
      mcp.registerTool("confirm_action", { description: "Asks for a yes/no confirmation." }, async (extra) => {
        const answer = await mcp.server.elicitInput(
          {
            message: "Delete the staging database?",
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          },
          { relatedRequestId: extra.requestId },
        );
        return {
          content: [{ type: "text", text: `confirm: ${answer.action} ${JSON.stringify(answer.content ?? null)}` }],
        };
      });
      void mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport)
      return void transport.handlePostMessage(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/sse`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
