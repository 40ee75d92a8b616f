// The bench's MCP server, run in a child process of its own (so the driver's CDP traffic never delays a send):
// 127.0.0.1, port 0, MCP Streamable HTTP in shape — JSON-RPC bodies, Mcp-Session-Id, MCP-Protocol-Version —
// with two tools: `lookup` answers with a JSON body, `stream` with a text/event-stream of progress notifications
// and the result, each stamped with the server's send time (`performance.timeOrigin + performance.now()`, the
// clock the page reads too). Beside MCP, the traffic of a chat page that is not MCP: `POST /api/search`, a JSON API
// call answered with ~1 KB of JSON, and `POST /v1/chat/completions`, a token stream (text/event-stream) of
// BENCH_TAP_CHAT_EVENTS chunks in the shape of OpenAI's chat completions, then `data: [DONE]`. It also serves the
// bench page with COOP/COEP, so the page's timers tick in 5 µs.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { buildSync } from "esbuild";

const SSE_EVENTS = Number(process.env.BENCH_TAP_SSE_EVENTS ?? 8);
const SSE_SPACING_MS = Number(process.env.BENCH_TAP_SSE_SPACING_MS ?? 4);
const CHAT_EVENTS = Number(process.env.BENCH_TAP_CHAT_EVENTS ?? 2000);
const CHAT_BURST = Number(process.env.BENCH_TAP_CHAT_BURST ?? 10);
const CHAT_SPACING_MS = Number(process.env.BENCH_TAP_CHAT_SPACING_MS ?? 1);
const PROTOCOL_VERSION = "2025-11-25";
const SESSION = `bench-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

/** The page script (page.ts with pageOther.ts, or pageSdk.ts with the SDK client), bundled once at start. */
const pageHtml = (entry: string, title: string): string => {
  const bundle = buildSync({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    write: false,
    logLevel: "warning",
  });
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module">${bundle.outputFiles[0]!.text.replaceAll("</script", "<\\/script")}</script>`;
};
const html = pageHtml("./page.ts", "bench:tap");
/** BENCH_TAP_CLIENT=sdk: the page calls the tools through the real SDK client (pageSdk.ts). */
const SDK_HTML =
  process.env.BENCH_TAP_CLIENT === "sdk" ? pageHtml("./pageSdk.ts", "bench:tap (SDK client)") : undefined;

const now = (): number => performance.timeOrigin + performance.now();

// ~1 KB of tool output, as a search tool might answer.
const LOOKUP_TEXT = Array.from(
  { length: 10 },
  (_, i) => `result ${i}: the quick brown fox jumps over the lazy dog (score ${(0.9 - i * 0.05).toFixed(2)})`,
).join("\n");
const STEP_TEXT =
  "working on it: step done, partial output follows — lorem ipsum dolor sit amet, consectetur adipiscing elit";

function mcpHeaders(extra: Record<string, string>): Record<string, string> {
  return { "mcp-session-id": SESSION, "mcp-protocol-version": PROTOCOL_VERSION, "cache-control": "no-store", ...extra };
}

function json(res: ServerResponse, message: unknown): void {
  const body = JSON.stringify(message);
  res.writeHead(
    200,
    mcpHeaders({ "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
  );
  res.end(body);
}

function stream(res: ServerResponse, id: unknown, token: unknown): void {
  res.writeHead(200, mcpHeaders({ "content-type": "text/event-stream", connection: "keep-alive" }));
  let step = 0;
  let closed = false;
  res.on("close", () => void (closed = true));
  const send = (): void => {
    if (closed) return;
    const last = step === SSE_EVENTS - 1;
    const sentAt = now();
    const message = last
      ? {
          jsonrpc: "2.0",
          id,
          result: {
            content: [{ type: "text", text: `done after ${SSE_EVENTS - 1} steps` }],
            isError: false,
            _meta: { "bench/sentAt": sentAt },
          },
        }
      : {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress: step + 1,
            total: SSE_EVENTS - 1,
            message: STEP_TEXT,
            _meta: { "bench/sentAt": sentAt },
          },
        };
    // The first event goes out with the headers, as an MCP server answering a tools/call over SSE does.
    res.write(`id: ${id}-${step}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
    step++;
    if (last) res.end();
    else setTimeout(send, SSE_SPACING_MS);
  };
  send();
}

// A search API's answer, about as big as the lookup tool's, with nothing of JSON-RPC in it.
const SEARCH_BODY = JSON.stringify({
  results: Array.from({ length: 10 }, (_, i) => ({
    id: i,
    title: `result ${i}`,
    snippet: "the quick brown fox jumps over the lazy dog",
    score: Number((0.9 - i * 0.05).toFixed(2)),
  })),
  total: 10,
});
const WORDS = ["The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."];

/** A chat model's token stream: CHAT_EVENTS chunks, CHAT_BURST per write, CHAT_SPACING_MS apart, then [DONE]. */
function chat(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 12)}`;
  const created = Math.floor(Date.now() / 1000);
  let sent = 0;
  let closed = false;
  res.on("close", () => void (closed = true));
  const send = (): void => {
    if (closed) return;
    let text = "";
    for (let k = 0; k < CHAT_BURST && sent < CHAT_EVENTS; k++, sent++) {
      const chunk = {
        id,
        object: "chat.completion.chunk",
        created,
        model: "bench-chat",
        choices: [
          {
            index: 0,
            delta: { content: WORDS[sent % WORDS.length] },
            finish_reason: sent === CHAT_EVENTS - 1 ? "stop" : null,
          },
        ],
      };
      text += `data: ${JSON.stringify(chunk)}\n\n`;
    }
    if (sent === CHAT_EVENTS) {
      res.end(`${text}data: [DONE]\n\n`);
      return;
    }
    res.write(text);
    setTimeout(send, CHAT_SPACING_MS);
  };
  send();
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  if (
    req.method === "GET" &&
    (url.startsWith("/bench.html") || (SDK_HTML !== undefined && url.startsWith("/bench-sdk.html")))
  ) {
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cache-control": "no-store",
    });
    res.end(url.startsWith("/bench-sdk.html") ? SDK_HTML : html);
    return;
  }
  if (req.method === "GET" && url === "/mcp") {
    // No standalone GET stream here (the SDK client asks for one after initialize): 405, as the spec allows.
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  if (url === "/favicon.ico") {
    res.writeHead(204, { "cross-origin-resource-policy": "same-origin" }).end();
    return;
  }
  if (req.method === "POST" && (url === "/api/search" || url === "/v1/chat/completions")) {
    // Read the request to its end, as the MCP route does, then answer.
    req.resume();
    req.on("end", () => {
      if (url === "/v1/chat/completions") return chat(res);
      res
        .writeHead(200, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(SEARCH_BODY)),
          "cache-control": "no-store",
        })
        .end(SEARCH_BODY);
    });
    return;
  }
  if (req.method !== "POST" || url !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let message: { id?: unknown; method?: string; params?: { name?: string; _meta?: { progressToken?: unknown } } };
    try {
      message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202, mcpHeaders({})).end(); // a notification
      return;
    }
    switch (message.method) {
      case "initialize":
        return json(res, {
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: PROTOCOL_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: "bench-tap-server", version: "1.0.0" },
          },
        });
      case "tools/call":
        if (message.params?.name === "stream") return stream(res, message.id, message.params._meta?.progressToken);
        return json(res, {
          jsonrpc: "2.0",
          id: message.id,
          result: { content: [{ type: "text", text: LOOKUP_TEXT }], isError: false },
        });
      default:
        return json(res, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  });
}

const server = createServer({ noDelay: true, keepAliveTimeout: 120_000 }, handle);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({
    port: typeof address === "object" && address ? address.port : 0,
    events: SSE_EVENTS,
    spacing: SSE_SPACING_MS,
    chat: { events: CHAT_EVENTS, burst: CHAT_BURST, spacing: CHAT_SPACING_MS },
  });
});
process.on("disconnect", () => process.exit(0));
