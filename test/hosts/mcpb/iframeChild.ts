/** The MCP-B iframe (bundled by esbuild): a real SDK 1.32.2 McpServer on @mcp-b/transports' IframeChildTransport. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { IframeChildTransport } from "@mcp-b/transports";
import { registerHostTools } from "../tools.ts";
import { logEnvelopes } from "./ui.ts";

logEnvelopes();
const parentOrigin = new URLSearchParams(location.search).get("parent") ?? "";
window.mcpbReady = (async () => {
  const server = new McpServer({ name: "mcpb-iframe", version: "1.0.0" });
  registerHostTools(server, "mcpb-iframe");
  await server.connect(new IframeChildTransport({ allowedOrigins: [parentOrigin] }));
})();
