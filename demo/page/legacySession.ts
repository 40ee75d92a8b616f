import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { Asker } from "./ask.ts";

/**
 * A 2025-11-25 session (sdk 1.32.2 client): initialize, an Mcp-Session-Id, the standalone GET stream, and
 * `elicitation/create` requests from the server answered by the person through `ask`. One session per scenario
 * run, so each flow in the inspector starts at its own initialize.
 */
export interface LegacySession {
  call(name: string): Promise<CallToolResult>;
  /** Settles when notifications/elicitation/complete for this elicitationId arrives (before or after the call). */
  completed(elicitationId: string): Promise<void>;
  /** Fails the pending call() and completed() at once: the person stopped waiting for a URL-mode page. */
  stopWaiting(): void;
  close(): Promise<void>;
}

export const clientInfo = { name: "mcp-elicitation-demo-host", version: "1.0.0" };

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export async function openLegacy(url: string, origin: string, ask: Asker): Promise<LegacySession> {
  const completions = new Map<string, ReturnType<typeof deferred>>();
  const completion = (id: string) => completions.get(id) ?? completions.set(id, deferred()).get(id)!;
  const getStream = deferred();
  let stopWaiting!: () => void;
  const stopped = new Promise<never>((_, reject) => {
    stopWaiting = () => reject(new Error("you stopped waiting for the page, so the host closed the session"));
  });
  stopped.catch(() => undefined);
  // sdk 1.32.2 drops a server message without a related request while no GET stream is open (the -32042
  // completion goes there), so the session is ready only once the GET stream is.
  const watch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET").toUpperCase() === "GET" && response.ok) getStream.resolve();
    return response;
  };

  const client = new Client(clientInfo, { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<ElicitResult> => {
    const params = request.params;
    const answer =
      params.mode === "url"
        ? await ask({
            era: "2025-11-25",
            origin,
            mode: "url",
            message: params.message,
            url: params.url,
            elicitationId: params.elicitationId,
            completed: completion(params.elicitationId).promise,
            stopWaiting,
          })
        : await ask({
            era: "2025-11-25",
            origin,
            mode: "form",
            message: params.message,
            requestedSchema: params.requestedSchema,
          });
    return answer;
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) =>
    completion(notification.params.elicitationId).resolve(),
  );
  const transport = new StreamableHTTPClientTransport(new URL(url, location.href), { fetch: watch });
  await client.connect(transport);
  await Promise.race([getStream.promise, new Promise((resolve) => setTimeout(resolve, 3000))]);

  return {
    call: async (name) => (await Promise.race([client.callTool({ name, arguments: {} }), stopped])) as CallToolResult,
    completed: (id) => Promise.race([completion(id).promise, stopped]),
    stopWaiting,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
