import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ElicitResult } from "@modelcontextprotocol/client";
import type { Asker } from "./ask.ts";
import { clientInfo } from "./legacySession.ts";

/**
 * A 2026-07-28 client (client@2.4.0 pinned to 2026-07-28): no session, capabilities in each request's `_meta`,
 * and multi round-trip requests: the SDK calls the `elicitation/create` handler once per `inputRequests` entry
 * of an `input_required` result and retries the request with the answers and the echoed `requestState`.
 */
export async function openModern(url: string, origin: string, ask: Asker): Promise<Client> {
  const client = new Client(clientInfo, {
    capabilities: { elicitation: { form: {}, url: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  client.setRequestHandler("elicitation/create", async (request): Promise<ElicitResult> => {
    const params = request.params;
    return params.mode === "url"
      ? ask({ era: "2026-07-28", origin, mode: "url", message: params.message, url: params.url })
      : ask({
          era: "2026-07-28",
          origin,
          mode: "form",
          message: params.message,
          requestedSchema: params.requestedSchema,
        });
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url, location.href)));
  return client;
}
