// The bench page's script for BENCH_TAP_CLIENT=sdk (bundled by esbuild and inlined by server.ts): the same two
// tools as page.ts, called through the real 2025-11-25 SDK client (`@modelcontextprotocol/sdk` Client and its
// Streamable HTTP transport), so that a fetch costs the page what it costs a real MCP client: the SDK's own request
// building, SSE parsing and result validation besides the fetch. Same block functions and figures as page.ts; an
// SSE event's page-read time is when the SDK hands it over (onprogress, or the result).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chatBlock, plainBlock } from "./pageOther.ts";

const now = (): number => performance.timeOrigin + performance.now();
const client = new Client(
  { name: "bench-tap-sdk-page", version: "1.0.0" },
  { capabilities: { elicitation: { form: {}, url: {} } } },
);

async function init(): Promise<boolean> {
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  return crossOriginIsolated;
}

async function jsonBlock(n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const result = await client.callTool({ name: "lookup", arguments: { query: `item ${i}`, limit: 10 } });
    if (!Array.isArray(result.content)) throw new Error("no result");
    times.push(performance.now() - t0);
  }
  return times;
}

const sentAtOf = (meta: unknown): number | undefined => {
  const value = (meta as Record<string, unknown> | undefined)?.["bench/sentAt"];
  return typeof value === "number" ? value : undefined;
};

async function sseBlock(n: number): Promise<{ times: number[]; first: number[]; later: number[] }> {
  const out = { times: [] as number[], first: [] as number[], later: [] as number[] };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    let events = 0;
    const seen = (sentAt: number | undefined, at: number): void => {
      if (sentAt !== undefined) (events++ === 0 ? out.first : out.later).push(at - sentAt);
    };
    const result = await client.callTool({ name: "stream", arguments: { steps: 0 } }, undefined, {
      onprogress: (progress) => seen(sentAtOf((progress as { _meta?: unknown })._meta), now()),
    });
    seen(sentAtOf(result._meta), now());
    out.times.push(performance.now() - t0);
  }
  return out;
}

Object.assign(window, { benchReady: init(), jsonBlock, sseBlock, plainBlock, chatBlock });
