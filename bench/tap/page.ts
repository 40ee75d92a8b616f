// The bench page's script (compiled by esbuild and inlined by server.ts). It talks to the bench server the way an
// MCP Streamable HTTP client does — JSON-RPC POSTs with Accept, MCP-Protocol-Version and Mcp-Session-Id — and
// times each fetch from the call to the last byte read, on the page's own sub-millisecond clock. Its traffic that is
// not MCP is pageOther.ts's.
import { chatBlock, plainBlock } from "./pageOther.ts";

interface SseBlock {
  /** Per fetch: call → stream end (ms). */
  times: number[];
  /** server-send → page-read (ms) of the first event of each fetch, and of every later event. */
  first: number[];
  later: number[];
}

const PROTOCOL_VERSION = "2025-11-25";
const now = (): number => performance.timeOrigin + performance.now();
let sessionId = "";
let nextId = 1;

function headers(): Record<string, string> {
  const h: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
  };
  if (sessionId) h["mcp-session-id"] = sessionId;
  return h;
}

const post = (message: unknown): Promise<Response> =>
  fetch("/mcp", { method: "POST", headers: headers(), body: JSON.stringify(message) });

function call(name: string, args: Record<string, unknown>) {
  const id = nextId++;
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: { progressToken: id } } };
}

async function init(): Promise<boolean> {
  const response = await post({
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { elicitation: { form: {}, url: {} } },
      clientInfo: { name: "bench-tap-page", version: "1.0.0" },
    },
  });
  sessionId = response.headers.get("mcp-session-id") ?? "";
  await response.json();
  const ack = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  await ack.text();
  return crossOriginIsolated;
}

async function jsonBlock(n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await post(call("lookup", { query: `item ${i}`, limit: 10 }));
    const body = (await response.json()) as { result?: unknown };
    if (!body.result) throw new Error("no result");
    times.push(performance.now() - t0);
  }
  return times;
}

async function sseBlock(n: number): Promise<SseBlock> {
  const out: SseBlock = { times: [], first: [], later: [] };
  const decoder = new TextDecoder();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await post(call("stream", { steps: 0 }));
    const reader = response.body!.getReader();
    let text = "";
    let events = 0;
    for (;;) {
      const { done, value } = await reader.read();
      const readAt = now();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        if (!data) continue;
        const message = JSON.parse(data) as {
          params?: { _meta?: Record<string, number> };
          result?: { _meta?: Record<string, number> };
        };
        const sentAt = (message.params?._meta ?? message.result?._meta)?.["bench/sentAt"];
        if (typeof sentAt !== "number") continue;
        (events++ === 0 ? out.first : out.later).push(readAt - sentAt);
      }
    }
    out.times.push(performance.now() - t0);
  }
  return out;
}

Object.assign(window, { benchReady: init(), jsonBlock, sseBlock, plainBlock, chatBlock });
