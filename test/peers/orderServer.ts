// A real 2025-11-25 server (sdk 1.32.2, Streamable HTTP, stateful sessions) with the three patterns whose order a
// HAR does not record (issue 10, item 4), serving its own page and page script on the same origin:
// - two elicitation/create on one POST stream at once (the client answers them in reverse order);
// - notifications/elicitation/complete on the standalone GET stream while the tools/call is still open, as the
//   SDK's createElicitationCompletionNotifier(id) sends it without relatedRequestId;
// - elicitation/create on the GET stream, as server.elicitInput() without relatedRequestId sends it;
// - elicitation/create with relatedRequestId after the server closed the call's POST stream (closeSSEStream): the
//   client resumes it with a GET and Last-Event-ID, and the question and the call's answer come on that GET.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";

export const orderTools = {
  twoAtOnce: "two_at_once",
  completeOnGet: "sign_in_get_completion",
  askOnGet: "approve_on_get",
  askResumed: "confirm_after_reconnect",
} as const;

const field = (name: string) => ({
  type: "object" as const,
  properties: { [name]: { type: "string" as const, title: name } },
  required: [name],
});
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startOrderServer(pageScript: string): Promise<{ origin: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let origin = "";
  const makeServer = (): McpServer => {
    const mcp = new McpServer({ name: "order-peer", version: "1.0.0" }, { capabilities: { logging: {} } });
    const server = mcp.server;
    mcp.registerTool(
      orderTools.twoAtOnce,
      { description: "Asks two questions at once on its own stream." },
      async (extra) => {
        const [a, b] = await Promise.all([
          server.elicitInput(
            { message: "Your project's name, please", requestedSchema: field("project") },
            { relatedRequestId: extra.requestId },
          ),
          server.elicitInput(
            { message: "Your team's name, please", requestedSchema: field("team") },
            { relatedRequestId: extra.requestId },
          ),
        ]);
        return text(`two: ${a.action} ${b.action}`);
      },
    );
    mcp.registerTool(
      orderTools.completeOnGet,
      { description: "URL mode; the completion goes on the GET stream while the call is open." },
      async (extra) => {
        const elicitationId = `sign-in-${randomUUID()}`;
        const result = await server.elicitInput(
          {
            mode: "url",
            message: "Link your calendar account",
            url: `${origin}/consent/${elicitationId}`,
            elicitationId,
          },
          { relatedRequestId: extra.requestId },
        );
        if (result.action !== "accept") return text(`sign-in: ${result.action}`);
        await sleep(150);
        // No relatedRequestId: the SDK sends it on the standalone GET stream.
        await server.createElicitationCompletionNotifier(elicitationId)();
        await sleep(150);
        return text("sign-in: linked");
      },
    );
    mcp.registerTool(
      orderTools.askOnGet,
      { description: "Asks on the standalone GET stream (no related request)." },
      async () => {
        const result = await server.elicitInput({
          message: "Approve the background job, please",
          requestedSchema: field("approver"),
        });
        return text(`approve: ${result.action}`);
      },
    );
    mcp.registerTool(
      orderTools.askResumed,
      { description: "Closes its POST stream, then asks on the call's behalf: the client resumes with a GET." },
      async (extra) => {
        // A first event on the stream, so that the client's Last-Event-ID names an event the capture holds (a priming
        // event has no data, and no record).
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: "starting the migration" },
        });
        extra.closeSSEStream?.();
        await sleep(50);
        const result = await server.elicitInput(
          { message: "Confirm the migration, please", requestedSchema: field("confirmer") },
          { relatedRequestId: extra.requestId },
        );
        return text(`resumed: ${result.action}`);
      },
    );
    return mcp;
  };

  const http = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path === "/")
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><meta charset="utf-8"><title>MCP page</title><script src="/page.js"></script>`);
    if (path === "/page.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(pageScript);
    if (path.startsWith("/consent/")) return void res.writeHead(200, { "content-type": "text/plain" }).end("Done.");
    if (path !== "/mcp") return void res.writeHead(404).end();
    const sessionId = req.headers["mcp-session-id"];
    const transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (req.method !== "POST") {
      if (!transport) return void res.writeHead(400).end();
      return void (await transport.handleRequest(req, res));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    if (transport) return void (await transport.handleRequest(req, res, body));
    if (sessionId !== undefined || !isInitializeRequest(body)) return void res.writeHead(400).end();
    const mcp = makeServer();
    const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams, so that closeSSEStream makes the client come back with Last-Event-ID (soon).
      eventStore: new InMemoryEventStore(),
      retryInterval: 100,
      onsessioninitialized: (id) => void sessions.set(id, fresh),
    });
    fresh.onclose = () => void (fresh.sessionId && sessions.delete(fresh.sessionId));
    await mcp.connect(fresh);
    await fresh.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
