// The bench's real MCP server (sdk 1.32.2, Streamable HTTP, stateful) in a process of its own: `/json` answers
// POSTs with JSON (enableJsonResponse), `/sse` with an SSE stream. Tool `echo` answers at once; tool `stream` sends
// STREAM.count notifications/message on the request's stream, 1 ms apart, each carrying the time it was sent
// (performance.timeOrigin + performance.now(), which agrees across processes of one machine within ~0.05 ms);
// tool `bulk` sends BULK.count of BULK.size bytes back to back (throughput, for CPU per MB). Tells its origin to the
// parent over IPC.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const STREAM = { count: 40, size: 200, gapMs: 1 };
const BULK = { count: 256, size: 16_384, gapMs: 0 };

function makeServer(): McpServer {
  const mcp = new McpServer({ name: "bench-upstream", version: "1.0.0" }, { capabilities: { logging: {} } });
  mcp.registerTool("echo", { description: "Answers at once." }, async () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  for (const [name, { count, size, gapMs }] of [
    ["stream", STREAM],
    ["bulk", BULK],
  ] as const) {
    mcp.registerTool(name, { description: "Sends notifications on the request's stream." }, async (extra) => {
      const pad = "x".repeat(size);
      for (let i = 0; i < count; i++) {
        if (gapMs > 0) await sleep(gapMs);
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: { i, sentAt: now(), pad } },
        });
      }
      return { content: [{ type: "text", text: `sent ${count}` }] };
    });
  }
  return mcp;
}

const sessions = new Map<string, StreamableHTTPServerTransport>();

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0]!;
  if (path !== "/json" && path !== "/sse") return void res.writeHead(404).end();
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  const id = req.headers["mcp-session-id"];
  const session = typeof id === "string" ? sessions.get(id) : undefined;
  if (session) return session.handleRequest(req, res, body);
  if (!isInitializeRequest(body)) return void res.writeHead(400).end();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: path === "/json",
    onsessioninitialized: (sid) => void sessions.set(sid, transport),
  });
  await makeServer().connect(transport);
  await transport.handleRequest(req, res, body);
}

const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
server.listen(0, "127.0.0.1", () => {
  process.send!({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on("message", (m: { cpu?: boolean }) => {
  if (m.cpu) process.send!({ cpu: process.cpuUsage() });
});
process.on("disconnect", () => process.exit(0));
