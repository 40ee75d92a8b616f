import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * The eliciting tools the host tests call through each host's own UI: a real 2025-11-25 server (sdk 1.32.2,
 * `McpServer` + `elicitInput`), served over Streamable HTTP on 127.0.0.1 (stateful sessions) or connected to any
 * transport (the MCP-B pages build the same server in the page with `registerHostTools`).
 *
 * `connect_service` asks for a form with an `api_key` field: a secret asked in form mode, which the engine reports
 * as `form-secret-field`. `confirm_action` asks a plain yes/no form.
 */
export const hostTools = {
  secret: "connect_service",
  confirm: "confirm_action",
} as const;

export const secretSchema: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    service: { type: "string", title: "Service", description: "Which service to connect" },
    api_key: { type: "string", title: "API key", description: "The service's API key" },
  },
  required: ["service", "api_key"],
};

export const confirmSchema: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Confirm", description: "Go ahead?" } },
  required: ["confirm"],
};

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const describe = (result: ElicitResult): string =>
  `${result.action}${result.content ? ` ${Object.keys(result.content).sort().join(",")}` : ""}`;

/** Registers the eliciting tools on a server (the result text names the action and the answered field names, never values). */
export function registerHostTools(mcp: McpServer, name = "host-peer"): void {
  const server = mcp.server;
  mcp.registerTool(
    hostTools.secret,
    { description: `Connects a service (${name}): asks for its API key (form mode).` },
    async (extra) => {
      const result = await server.elicitInput(
        { message: "Connect the weather service", requestedSchema: secretSchema },
        { relatedRequestId: extra.requestId },
      );
      return text(`${name} connect: ${describe(result)}`);
    },
  );
  mcp.registerTool(hostTools.confirm, { description: `Asks for a yes/no confirmation (${name}).` }, async (extra) => {
    const result = await server.elicitInput(
      { message: "Delete the staging database?", requestedSchema: confirmSchema },
      { relatedRequestId: extra.requestId },
    );
    return text(`${name} confirm: ${describe(result)}`);
  });
}
