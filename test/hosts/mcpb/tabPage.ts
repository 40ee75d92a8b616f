/**
 * The MCP-B tab page (bundled by esbuild): a real SDK 1.32.2 McpServer on @mcp-b/transports' TabServerTransport and a
 * real SDK Client on its TabClientTransport, both in this one window, talking by window.postMessage. The client's
 * elicitation answers come from the page's own dialog.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { TabClientTransport, TabServerTransport } from "@mcp-b/transports";
import { registerHostTools } from "../tools.ts";
import { answerWithDialog, logEnvelopes, toolButtons } from "./ui.ts";

logEnvelopes();
window.mcpbReady = (async () => {
  const server = new McpServer({ name: "mcpb-tab", version: "1.0.0" });
  registerHostTools(server, "mcpb-tab");
  await server.connect(new TabServerTransport({ allowedOrigins: [location.origin] }));
  const client = new Client(
    { name: "mcpb-tab-page", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  answerWithDialog(client);
  await client.connect(new TabClientTransport({ targetOrigin: location.origin }));
  await toolButtons(client);
})();
