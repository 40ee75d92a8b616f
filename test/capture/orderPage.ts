/**
 * The page script of the HAR order test (test/capture/har-order.test.ts), bundled for the browser: the real SDK
 * 1.32.2 client against test/peers/orderServer.ts. It answers the first of two simultaneous questions last.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runOrder(): Promise<unknown> {
  const client = new Client(
    { name: "har-order-page", version: "1.0.0" },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; requestedSchema?: { properties: Record<string, unknown> } };
    if (params.mode === "url") return { action: "accept" };
    const name = Object.keys(params.requestedSchema?.properties ?? {})[0] ?? "value";
    // The first question of the two is answered after the second.
    if (name === "project") await sleep(400);
    return { action: "accept", content: { [name]: `my-${name}` } };
  });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", location.href));
  await client.connect(transport);
  // Give the client time to open its standalone GET stream.
  await sleep(300);
  const results = [];
  for (const name of ["two_at_once", "sign_in_get_completion", "approve_on_get", "confirm_after_reconnect"])
    results.push(await client.callTool({ name, arguments: {} }));
  // The server closes the GET stream on DELETE; Chromium keeps the body of a stream that ended (not of one the
  // client aborts), so the client waits for that before it closes.
  await transport.terminateSession();
  await sleep(300);
  await client.close();
  return results;
}

Object.assign(globalThis, { runOrder });
