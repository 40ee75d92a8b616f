// The bench's second corpus, shaped like real traffic (issue 10, item 5): payloads that never repeat, and four of
// five messages outside elicitation flows — tools/list, plain tool calls, progress and logging notifications —
// over Streamable HTTP sessions of both eras (2025-11-25 with SSE streams, 2026-07-28 with JSON answers and MRTR).
import type { CaptureRecord } from "../src/capture/record.ts";

/** A small deterministic PRNG (mulberry32): the corpus is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS =
  "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split(
    " ",
  );
export const PV = "io.modelcontextprotocol/protocolVersion";
export const CAPS = "io.modelcontextprotocol/clientCapabilities";

export function realShapedCorpus(targetMessages: number): {
  records: CaptureRecord[];
  messages: number;
  inFlows: number;
} {
  const random = prng(20261201);
  let counter = 0;
  /** A phrase no other message has: words plus a running number. */
  const phrase = (n = 4) =>
    `${Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ")} ${++counter}`;
  const records: CaptureRecord[] = [];
  let time = 1_800_000_000_000;
  let messages = 0;
  let inFlows = 0;
  let exchanges = 0;
  type Draft = CaptureRecord extends infer R ? (R extends CaptureRecord ? Omit<R, "seq" | "v"> : never) : never;
  const push = (r: Draft, counts = false, flow = false) => {
    records.push({ v: 1, seq: records.length, ...r } as CaptureRecord);
    if (counts) messages++;
    if (flow) inFlows++;
  };
  for (let session = 0; messages < targetMessages; session++) {
    const modern = session % 2 === 1;
    const url = `https://mcp${session % 7}.example.com/mcp`;
    const client = `https://app${session % 13}.example.com`;
    const sid = `session-${session}-${Math.floor(random() * 1e9)}`;
    const legacy = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    let id = 0;
    const base = () => ({ transport: "http" as const, url, client, time: (time += 1 + random() * 20) });
    const post = (body: unknown, headers: Record<string, string>, flow = false) => {
      const exchange = `b${++exchanges}`;
      push(
        {
          ...base(),
          kind: "message",
          direction: "c2s",
          stream: "body",
          method: "POST",
          exchange,
          ...(Object.keys(headers).length && { headers }),
          text: JSON.stringify(body),
        },
        true,
        flow,
      );
      return exchange;
    };
    const json = (exchange: string, body: unknown, flow = false) => {
      push({
        ...base(),
        kind: "response",
        exchange,
        status: 200,
        headers: { "content-type": "application/json" },
        emptyBody: false,
      });
      push(
        {
          ...base(),
          kind: "message",
          direction: "s2c",
          stream: "body",
          method: "POST",
          exchange,
          text: JSON.stringify(body),
        },
        true,
        flow,
      );
      push({ ...base(), kind: "end", exchange });
    };
    const sseOpen = (exchange: string) =>
      push({
        ...base(),
        kind: "response",
        exchange,
        status: 200,
        headers: { "content-type": "text/event-stream" },
        emptyBody: false,
      });
    const sse = (exchange: string, body: unknown, flow = false) =>
      push(
        {
          ...base(),
          kind: "message",
          direction: "s2c",
          stream: "post-sse",
          method: "POST",
          exchange,
          text: JSON.stringify(body),
        },
        true,
        flow,
      );
    const end = (exchange: string) => push({ ...base(), kind: "end", exchange });
    const accepted = (body: unknown, headers: Record<string, string>, flow = false) => {
      const x = post(body, headers, flow);
      push({ ...base(), kind: "response", exchange: x, status: 202, emptyBody: true });
      push({ ...base(), kind: "end", exchange: x });
    };
    const meta = { [PV]: "2026-07-28", [CAPS]: { elicitation: { form: {} } } };
    const mh = (method: string, name?: string) => ({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    });

    if (!modern) {
      const x = post(
        {
          jsonrpc: "2.0",
          id: id++,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: { form: {} } },
            clientInfo: { name: phrase(1), version: "1.0" },
          },
        },
        {},
      );
      push({
        ...base(),
        kind: "response",
        exchange: x,
        status: 200,
        headers: { "content-type": "application/json", "mcp-session-id": sid },
        emptyBody: false,
      });
      push(
        {
          ...base(),
          kind: "message",
          direction: "s2c",
          stream: "body",
          method: "POST",
          exchange: x,
          text: JSON.stringify({
            jsonrpc: "2.0",
            id: id - 1,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: phrase(1), version: "1.0" },
            },
          }),
        },
        true,
      );
      push({ ...base(), kind: "end", exchange: x });
      accepted({ jsonrpc: "2.0", method: "notifications/initialized" }, legacy);
    }
    // A session: a tools/list, then calls — plain ones with progress and logging on their streams, and some that ask.
    const calls = 6 + Math.floor(random() * 6);
    const listId = id++;
    const tools = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
      name: phrase(1).replace(/ /g, "_"),
      description: phrase(8),
      inputSchema: { type: "object", properties: { q: { type: "string", description: phrase(3) } } },
    }));
    json(
      post(
        { jsonrpc: "2.0", id: listId, method: "tools/list", params: modern ? { _meta: meta } : {} },
        modern ? mh("tools/list") : legacy,
      ),
      { jsonrpc: "2.0", id: listId, result: { tools, ...(modern ? { resultType: "complete" } : {}) } },
    );
    for (let c = 0; c < calls; c++) {
      const tool = tools[Math.floor(random() * tools.length)]!.name;
      const callId = id++;
      const args = { q: phrase(5), limit: Math.floor(random() * 100) };
      // One call in five asks the user.
      if (random() >= 0.2) {
        const content = [{ type: "text", text: phrase(12) }];
        if (modern)
          json(
            post(
              {
                jsonrpc: "2.0",
                id: callId,
                method: "tools/call",
                params: { name: tool, arguments: args, _meta: meta },
              },
              mh("tools/call", tool),
            ),
            { jsonrpc: "2.0", id: callId, result: { resultType: "complete", content } },
          );
        else {
          const x = post(
            {
              jsonrpc: "2.0",
              id: callId,
              method: "tools/call",
              params: { name: tool, arguments: args, _meta: { progressToken: `p${counter}` } },
            },
            legacy,
          );
          sseOpen(x);
          for (let p = 1; p <= 2; p++)
            sse(x, {
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: `p${counter}`, progress: p, total: 3, message: phrase(3) },
            });
          sse(x, {
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", logger: "tools", data: phrase(6) },
          });
          sse(x, { jsonrpc: "2.0", id: callId, result: { content } });
          end(x);
        }
        continue;
      }
      const field = phrase(1).replace(/ /g, "_");
      const schema = {
        type: "object",
        properties: {
          [field]: { type: "string", title: phrase(2), description: phrase(6) },
          count: { type: "integer", minimum: 1, maximum: 9 },
        },
        required: [field],
      };
      const question = { message: `${phrase(6)}?`, requestedSchema: schema };
      const answer = { action: "accept", content: { [field]: phrase(2), count: 1 + Math.floor(random() * 9) } };
      if (modern) {
        const state = `state-${phrase(1)}-${Math.floor(random() * 1e9)}`;
        const key = `ask_${counter}`;
        json(
          post(
            { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: args, _meta: meta } },
            mh("tools/call", tool),
            true,
          ),
          {
            jsonrpc: "2.0",
            id: callId,
            result: {
              resultType: "input_required",
              inputRequests: { [key]: { method: "elicitation/create", params: question } },
              requestState: state,
            },
          },
          true,
        );
        const retryId = id++;
        json(
          post(
            {
              jsonrpc: "2.0",
              id: retryId,
              method: "tools/call",
              params: {
                name: tool,
                arguments: args,
                inputResponses: { [key]: answer },
                requestState: state,
                _meta: meta,
              },
            },
            mh("tools/call", tool),
            true,
          ),
          {
            jsonrpc: "2.0",
            id: retryId,
            result: { resultType: "complete", content: [{ type: "text", text: phrase(10) }] },
          },
          true,
        );
      } else {
        const x = post(
          { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: args } },
          legacy,
          true,
        );
        sseOpen(x);
        const askId = 1000 + callId;
        sse(x, { jsonrpc: "2.0", id: askId, method: "elicitation/create", params: question }, true);
        accepted({ jsonrpc: "2.0", id: askId, result: answer }, legacy, true);
        sse(x, { jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text: phrase(10) }] } }, true);
        end(x);
      }
    }
  }
  return { records, messages, inFlows };
}
