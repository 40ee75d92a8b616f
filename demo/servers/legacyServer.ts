import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitRequestFormParams, ElicitResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * A real 2025-11-25 server (sdk 1.32.2, Streamable HTTP, stateful sessions) on 127.0.0.1.
 *
 * Routing of server→client messages in sdk 1.32.2 (server/webStandardStreamableHttp.js `send`): a message sent
 * with `relatedRequestId` goes on that request's POST SSE stream; one without it goes on the standalone GET
 * stream, or is dropped when no GET stream is open (only stored, when there is an event store).
 *
 * URL-mode consent pages live on the same server at `/consent/<elicitationId>`: a GET there stands in for the
 * user finishing the out-of-band step in a browser, and the server then sends `notifications/elicitation/complete`.
 * Shared by the tests (through test/peers/) and the demo host, which serves the consent pages on its own origin.
 */
export interface PeerServer {
  url: string;
  close(): Promise<void>;
}

export interface PeerOptions {
  /**
   * Where the user is sent for a URL-mode elicitation: the consent id is appended. Default `<origin>/consent/`.
   * The demo host sets its own origin here and forwards the visit to `/consent/<id>` of this server.
   */
  consentBase?: string;
}

export const legacyTools = {
  confirm: "confirm_action",
  form: "register_user",
  signIn: "sign_in",
  urlRequired: "list_repositories",
  twoQuestions: "plan_trip",
  getStream: "background_approval",
} as const;

const confirmSchema: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Confirm", description: "Go ahead?" } },
  required: ["confirm"],
};

const registerSchema: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    email: { type: "string", format: "email", title: "Email" },
    age: { type: "integer", minimum: 18, maximum: 120, title: "Age" },
    newsletter: { type: "boolean", default: false, title: "Newsletter" },
    plan: {
      type: "string",
      title: "Plan",
      oneOf: [
        { const: "free", title: "Free" },
        { const: "pro", title: "Pro" },
      ],
      default: "free",
    },
    topics: {
      type: "array",
      title: "Topics",
      minItems: 1,
      items: {
        anyOf: [
          { const: "mcp", title: "Model Context Protocol" },
          { const: "devtools", title: "Devtools" },
          { const: "security", title: "Security" },
        ],
      },
    },
  },
  required: ["email", "age", "plan"],
};

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const describe = (result: ElicitResult): string =>
  `${result.action}${result.content ? ` ${JSON.stringify(result.content)}` : ""}`;

/** An in-memory event store, so SSE events carry ids as they do behind a resumable deployment. */
function createEventStore(): EventStore {
  const events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  let next = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}_${next++}`;
      events.set(eventId, { streamId, message });
      return eventId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId ?? "";
      let after = false;
      for (const [id, event] of events) {
        if (after && event.streamId === streamId && Object.keys(event.message).length > 0)
          await send(id, event.message);
        if (id === lastEventId) after = true;
      }
      return streamId;
    },
  };
}

export async function startLegacyServer(options: PeerOptions = {}): Promise<PeerServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const consents = new Map<string, () => void>();
  let origin = "";
  let elicitations = 0;

  /** Registers a consent page; the promise settles when the "browser" visits it. */
  const consentPage = (): { elicitationId: string; url: string; visited: Promise<void> } => {
    const elicitationId = `consent-${++elicitations}`;
    const visited = new Promise<void>((resolve) => consents.set(elicitationId, resolve));
    return { elicitationId, url: `${options.consentBase ?? `${origin}/consent/`}${elicitationId}`, visited };
  };

  const makeServer = (): McpServer => {
    const mcp = new McpServer({ name: "legacy-peer", version: "1.0.0" });
    const server = mcp.server;
    /** Pending -32042 interactions of this session: elicitationId → completed. */
    const urlRequired = new Map<string, boolean>();

    mcp.registerTool(
      legacyTools.confirm,
      { description: "Asks for a yes/no confirmation (form mode)." },
      async (extra) => {
        const result = await server.elicitInput(
          { message: "Delete the staging database?", requestedSchema: confirmSchema },
          { relatedRequestId: extra.requestId },
        );
        return text(`confirm: ${describe(result)}`);
      },
    );

    mcp.registerTool(
      legacyTools.form,
      { description: "Asks for several fields at once (form mode)." },
      async (extra) => {
        const result = await server.elicitInput(
          { message: "Create your account", requestedSchema: registerSchema },
          { relatedRequestId: extra.requestId },
        );
        return text(`registered: ${describe(result)}`);
      },
    );

    mcp.registerTool(
      legacyTools.signIn,
      { description: "Sends the user to a page (URL mode) and reports completion." },
      async (extra) => {
        const page = consentPage();
        const result = await server.elicitInput(
          { mode: "url", message: "Link your calendar account", url: page.url, elicitationId: page.elicitationId },
          { relatedRequestId: extra.requestId },
        );
        if (result.action !== "accept") return text(`sign-in: ${result.action}`);
        await page.visited;
        await server.createElicitationCompletionNotifier(page.elicitationId, { relatedRequestId: extra.requestId })();
        return text("sign-in: linked");
      },
    );

    mcp.registerTool(
      legacyTools.urlRequired,
      { description: "Fails with -32042 until the user has authorised access." },
      async () => {
        for (const [id, completed] of urlRequired) {
          if (completed) {
            urlRequired.delete(id);
            return text("repositories: mcp-elicitation-inspector");
          }
        }
        const page = consentPage();
        urlRequired.set(page.elicitationId, false);
        // The request is answered by the error, so the completion goes on the standalone GET stream.
        void page.visited.then(async () => {
          urlRequired.set(page.elicitationId, true);
          await server.createElicitationCompletionNotifier(page.elicitationId)();
        });
        throw new UrlElicitationRequiredError([
          {
            mode: "url",
            message: "Authorise access to your repositories",
            url: page.url,
            elicitationId: page.elicitationId,
          },
        ]);
      },
    );

    mcp.registerTool(
      legacyTools.twoQuestions,
      { description: "Asks two questions one after the other." },
      async (extra) => {
        const where = await server.elicitInput(
          {
            message: "Where to?",
            requestedSchema: {
              type: "object",
              properties: { city: { type: "string", title: "City" } },
              required: ["city"],
            },
          },
          { relatedRequestId: extra.requestId },
        );
        if (where.action !== "accept") return text(`trip: ${where.action}`);
        const nights = await server.elicitInput(
          {
            message: `How many nights in ${String(where.content?.city)}?`,
            requestedSchema: {
              type: "object",
              properties: { nights: { type: "integer", minimum: 1, maximum: 30 } },
              required: ["nights"],
            },
          },
          { relatedRequestId: extra.requestId },
        );
        return text(`trip: ${describe(where)} then ${describe(nights)}`);
      },
    );

    mcp.registerTool(
      legacyTools.getStream,
      { description: "Asks on the standalone GET stream (no related request)." },
      async () => {
        // No relatedRequestId: the transport routes the request to the GET SSE stream.
        const result = await server.elicitInput({
          message: "Approve the background job?",
          requestedSchema: confirmSchema,
        });
        return text(`background: ${describe(result)}`);
      },
    );

    return mcp;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", origin).pathname;
    if (path.startsWith("/consent/")) {
      const visit = consents.get(decodeURIComponent(path.slice("/consent/".length)));
      res
        .writeHead(visit ? 200 : 404, { "content-type": "text/plain" })
        .end(visit ? "Done. You can close this tab." : "Unknown consent");
      visit?.();
      return;
    }
    if (path !== "/mcp") {
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
      const server = makeServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: createEventStore(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
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
    async close() {
      for (const { server } of [...sessions.values()]) await server.close();
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
