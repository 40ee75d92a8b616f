// Captures of a hosted agent, as its two wires carry them: the agent backend's MCP wire (records with
// `source: "backend"`, as `mcp-elicit proxy` writes them) and the page's traffic with the app's own relay messages
// (as the tap records them), run through the envelope stage and the engine.
import { createUnwrapper, type Draft } from "../../src/capture/envelopes/index.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze, type EngineOptions } from "../../src/engine/index.ts";

export const UPSTREAM = "http://127.0.0.1:4100/mcp";
export const APP = "http://127.0.0.1:3000";
export const schema = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Deploy?" }, region: { type: "string", enum: ["eu", "us"] } },
  required: ["confirm"],
};
export const message = "Deploy to production?";

const backend = (
  time: number,
  exchange: string,
  direction: "c2s" | "s2c",
  json: unknown,
  stream: "body" | "post-sse" = direction === "c2s" ? "body" : "post-sse",
): Draft => ({
  kind: "message",
  time,
  transport: "http",
  exchange: `backend:${exchange}`,
  url: UPSTREAM,
  client: "backend",
  source: "backend",
  direction,
  stream,
  method: "POST",
  ...(direction === "c2s" && {
    headers: { "mcp-session-id": "s1", "mcp-protocol-version": "2025-11-25", "content-type": "application/json" },
  }),
  text: JSON.stringify(json),
});

/** The backend's wire of one 2025-11-25 elicitation: tools/call, elicitation/create on its stream, the agent's answer, the result. */
export function backendFlow(
  t: number,
  answer: unknown,
  opts: { id?: number; schema?: unknown; message?: string; answered?: boolean } = {},
): Draft[] {
  const id = opts.id ?? 0;
  const out: Draft[] = [
    backend(t, `c${id}`, "c2s", {
      jsonrpc: "2.0",
      id: 10 + id,
      method: "tools/call",
      params: { name: "deploy", arguments: {} },
    }),
    backend(t + 5, `c${id}`, "s2c", {
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params: { mode: "form", message: opts.message ?? message, requestedSchema: opts.schema ?? schema },
    }),
  ];
  if (opts.answered !== false) {
    out.push(backend(t + 1000, `a${id}`, "c2s", { jsonrpc: "2.0", id, result: answer }));
    out.push(
      backend(t + 1010, `c${id}`, "s2c", {
        jsonrpc: "2.0",
        id: 10 + id,
        result: { content: [{ type: "text", text: "done" }] },
      }),
    );
  }
  return out;
}

/** An AI SDK UI message stream event relaying the ask (a `data-elicitation` part) on the page's POST /api/chat. */
export const aiSdkAsk = (
  time: number,
  id: string,
  params: unknown = { mode: "form", message, requestedSchema: schema },
): Draft => ({
  kind: "message",
  time,
  transport: "http",
  url: `${APP}/api/chat`,
  client: APP,
  direction: "s2c",
  stream: "post-sse",
  method: "POST",
  text: JSON.stringify({ type: "data-elicitation", id, data: { state: "pending", ...(params as object) } }),
});

/** The page's answer on the app's own route: POST /api/elicit/<id> {action, content}. */
export const aiSdkAnswer = (time: number, id: string, result: unknown): Draft => ({
  kind: "message",
  time,
  transport: "http",
  url: `${APP}/api/elicit/${id}`,
  client: APP,
  direction: "c2s",
  stream: "body",
  method: "POST",
  text: JSON.stringify(result),
});

/** Cloudflare agents: the app's WebSocket frames on /agents/<agent>/<name>. */
export const cfFrame = (time: number, direction: "c2s" | "s2c", json: unknown): Draft => ({
  kind: "message",
  time,
  transport: "websocket",
  url: "ws://127.0.0.1:8787/agents/my-agent/default",
  client: APP,
  direction,
  stream: "websocket",
  text: JSON.stringify(json),
});

/** The records of drafts (in the order given): through the envelope stage, numbered. */
export function relayRecords(drafts: readonly Draft[]): CaptureRecord[] {
  const unwrapper = createUnwrapper();
  const records: CaptureRecord[] = [];
  for (const draft of drafts) {
    for (const out of unwrapper.push(draft)) records.push({ v: 1, seq: records.length, ...out } as CaptureRecord);
  }
  return records;
}

/** Runs drafts (in the order given) through the envelope stage, numbers them, and analyses them. */
export function run(drafts: readonly Draft[], options: EngineOptions = {}) {
  const records = relayRecords(drafts);
  return { records, ...analyze(records, options) };
}

export const byTime = (drafts: Draft[]): Draft[] => [...drafts].sort((a, b) => a.time - b.time);
