/**
 * The MCP-B iframe host page (bundled by esbuild): a real SDK 1.32.2 Client on @mcp-b/transports'
 * IframeParentTransport, talking to the McpServer in the iframe `#server` (another origin, iframeChild.ts). The
 * client's elicitation answers come from this page's own dialog.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { IframeParentTransport } from "@mcp-b/transports";
import { answerWithDialog, logEnvelopes, toolButtons } from "./ui.ts";

logEnvelopes();
window.mcpbReady = (async () => {
  const iframe = document.querySelector<HTMLIFrameElement>("iframe#server")!;
  const client = new Client(
    { name: "mcpb-iframe-page", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  answerWithDialog(client);
  await client.connect(new IframeParentTransport({ iframe, targetOrigin: new URL(iframe.src).origin }));
  await toolButtons(client);
})();
