/**
 * The page script of the Chromium HAR test, bundled for the browser with esbuild: the real SDK clients, run by
 * the page so that Chromium itself records their traffic. Every request carries an Authorization header (and
 * the page sets a cookie), which the importer must never copy into a record.
 */
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import type { ElicitResult as ModernElicitResult } from "@modelcontextprotocol/client";

const clientInfo = { name: "chromium-har-page", version: "1.0.0" };

const withAuthorization =
  (authorization: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", authorization);
    return fetch(input, { ...init, headers });
  };

/** 2025-11-25: initialize, the GET stream, tools/call answered on its POST stream by elicitation/create. */
async function runLegacy(url: string, authorization: string): Promise<unknown> {
  const client = new LegacyClient(clientInfo, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { confirm: true } }));
  const transport = new LegacyTransport(new URL(url, location.href), { fetch: withAuthorization(authorization) });
  await client.connect(transport);
  const result = await client.callTool({ name: "confirm_action", arguments: {} });
  await transport.terminateSession();
  await client.close();
  return result;
}

/** 2026-07-28: tools/call answered by input_required twice, each retry echoing requestState. */
async function runModern(url: string, authorization: string): Promise<unknown> {
  const client = new ModernClient(clientInfo, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  client.setRequestHandler("elicitation/create", (request): ModernElicitResult => {
    const params = request.params;
    const field = "requestedSchema" in params ? Object.keys(params.requestedSchema.properties)[0] : undefined;
    return field === "city"
      ? { action: "accept", content: { city: "Lisbon" } }
      : { action: "accept", content: { nights: 3 } };
  });
  await client.connect(new ModernTransport(new URL(url, location.href), { fetch: withAuthorization(authorization) }));
  const result = await client.callTool({ name: "plan_trip", arguments: {} });
  await client.close();
  return result;
}

/**
 * 2025-11-25 URL mode, sign_in twice: the first time the page fetches the URL (a preview) before it accepts — what
 * url-no-prefetch is about; the second time it accepts and opens the URL afterwards, as a client should. The server
 * completes each sign-in once the URL was visited.
 */
async function runLegacyUrl(url: string, authorization: string): Promise<unknown> {
  const client = new LegacyClient(clientInfo, { capabilities: { elicitation: { form: {}, url: {} } } });
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; url?: string };
    if (params.mode !== "url" || typeof params.url !== "string") return { action: "decline" };
    const target = params.url;
    if (++asked === 1) await fetch(target, { mode: "no-cors" });
    else setTimeout(() => void fetch(target, { mode: "no-cors" }), 300);
    return { action: "accept" };
  });
  const transport = new LegacyTransport(new URL(url, location.href), { fetch: withAuthorization(authorization) });
  await client.connect(transport);
  const results = [
    await client.callTool({ name: "sign_in", arguments: {} }),
    await client.callTool({ name: "sign_in", arguments: {} }),
  ];
  await transport.terminateSession();
  await client.close();
  return results;
}

Object.assign(globalThis, { runLegacy, runModern, runLegacyUrl });
