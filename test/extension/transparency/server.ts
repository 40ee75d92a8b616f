import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { acceptWebSocket, type WsPeer } from "../../helpers/wsServer.ts";

/**
 * The battery's HTTP server on 127.0.0.1: the harness page, endpoints that behave like MCP (JSON-RPC bodies,
 * `text/event-stream` with timed events, `Mcp-Session-Id`) and like ordinary APIs, an EventSource feed that asks
 * for a reconnect, a WebSocket peer, and a second origin (another port) for the cross-origin iframe. A run token
 * (`k`) keeps what the server saw of each run apart; `/stats?k=` tells the page (and the test) what that was.
 */
export interface TransparencyServer {
  origin: string;
  /** The same handler on another port: a second origin. */
  crossOrigin: string;
  /** A port nothing listens on: connection refused. */
  refusedOrigin: string;
  close(): Promise<void>;
}

interface RunState {
  /** Bytes the server wrote on an SSE stream. */
  written: number;
  /** The client went away (aborted, cancelled) before the server ended the response. */
  closedEarly: boolean;
  /** The server wrote everything it meant to. */
  finished: boolean;
  connections: number;
  lastEventIds: (string | null)[];
  wsClose?: { code: number | undefined; reason: string };
  wsReceived: { kind: "text" | "binary"; value: string }[];
}

/** How much the flood stream writes at most when nothing holds it back. */
export const FLOOD_CAP = 24 << 20;

const SESSION = "sess-7f3a";
const HARNESS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>transparency</title><script src="/harness.js"></script></head><body><p>transparency battery</p></body></html>`;

/** The iframe peer: says `ready`, then on `go` posts JSON-RPC and ordinary payloads to its parent; echoes `{echo}`. */
const FRAME_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frame</title></head><body><script>
const payloads = [
  { jsonrpc: "2.0", id: 7, method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } }),
  "plain text, not JSON",
  "{\\"jsonrpc\\": broken",
  { kind: "app-state", items: [1, 2, 3], nested: { jsonrpc: "1.0" } },
  [{ jsonrpc: "2.0", id: 1, result: { action: "accept", content: { name: "x" } } }, { jsonrpc: "2.0", method: "ping" }],
  42,
  null,
];
addEventListener("message", (event) => {
  if (event.data === "go") {
    for (const payload of payloads) parent.postMessage(payload, "*");
    parent.postMessage("done", "*");
  } else if (event.data && typeof event.data === "object" && "echo" in event.data) {
    event.source.postMessage({ echoed: event.data.echo, sawOrigin: event.origin, sawSourceIsParent: event.source === parent }, event.origin);
  }
});
parent.postMessage("ready", "*");
</script></body></html>`;

export async function startTransparencyServer(harness: string): Promise<TransparencyServer> {
  const runs = new Map<string, RunState>();
  const state = (k: string | null): RunState => {
    const key = k ?? "";
    let s = runs.get(key);
    if (!s)
      runs.set(
        key,
        (s = { written: 0, closedEarly: false, finished: false, connections: 0, lastEventIds: [], wsReceived: [] }),
      );
    return s;
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const q = url.searchParams;
    void readBody(req).then((body) =>
      route({ url, q, req, res, body, run: state(q.get("k")), harness }).catch(() => res.destroy()),
    );
  };
  const main = createServer(handler);
  const cross = createServer(handler);
  for (const server of [main, cross]) {
    server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
      if (head.length) socket.unshift(head);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      webSocketPeer(req, socket, url.searchParams.get("mode") ?? "echo", state(url.searchParams.get("k")));
    });
  }
  const [origin, crossOrigin] = await Promise.all([listen(main), listen(cross)]);
  const refused = createServer();
  const refusedOrigin = await listen(refused);
  await new Promise<void>((resolve) => refused.close(() => resolve()));
  return {
    origin,
    crossOrigin,
    refusedOrigin,
    async close() {
      for (const server of [main, cross]) server.closeAllConnections();
      await Promise.all([main, cross].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", () => resolve(Buffer.concat(chunks)));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "Mcp-Session-Id, X-Multi" };

/** JSON-RPC id of a request body, when it is one. */
function idOf(body: Buffer): unknown {
  try {
    const message = JSON.parse(body.toString("utf8")) as { id?: unknown };
    return message && typeof message === "object" && "id" in message ? message.id : null;
  } catch {
    return null;
  }
}

/** What the server saw of a request, with the multipart boundary (random per request) taken out. */
function seenRequest(req: IncomingMessage, body: Buffer) {
  const type = String(req.headers["content-type"] ?? "");
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  const text = body.toString("utf8");
  const pick = (name: string): string | null => {
    const value = req.headers[name];
    return value === undefined ? null : String(value);
  };
  return {
    method: req.method,
    contentType: boundary ? type.replace(boundary, "<b>") : type,
    body: boundary ? text.split(boundary).join("<b>") : text,
    bytes: body.length,
    headers: {
      accept: pick("accept"),
      "mcp-session-id": pick("mcp-session-id"),
      "mcp-protocol-version": pick("mcp-protocol-version"),
      "x-app": pick("x-app"),
      authorization: pick("authorization"),
      "last-event-id": pick("last-event-id"),
    },
  };
}

interface Call {
  url: URL;
  q: URLSearchParams;
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
  run: RunState;
  harness: string;
}

async function route({ url, q, req, res, body, run, harness }: Call): Promise<void> {
  const path = url.pathname;
  res.on("close", () => {
    if (!res.writableFinished) run.closedEarly = true;
  });
  if (req.method === "OPTIONS") {
    res.writeHead(204, { ...CORS, "access-control-allow-headers": "*", "access-control-allow-methods": "*" }).end();
    return;
  }
  switch (path) {
    case "/page.html":
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(HARNESS_PAGE);
      return;
    case "/frame.html":
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(FRAME_PAGE);
      return;
    case "/harness.js":
      res
        .writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" })
        .end(harness);
      return;
    case "/stats":
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(run));
      return;
    case "/mcp":
    case "/slow": {
      await sleep(Number(q.get("delay") ?? (path === "/slow" ? 600 : 0)));
      if (res.destroyed) return;
      const type = q.get("type");
      const headers = { ...CORS, "mcp-session-id": SESSION, "x-multi": ["a", "b"], "cache-control": "no-store" };
      if (type === "html") {
        res
          .writeHead(200, { ...headers, "content-type": "text/html; charset=utf-8" })
          .end(
            `<!doctype html><html><head><title>doc</title></head><body><p id="x">hello <b>doc</b></p></body></html>`,
          );
      } else if (type === "broken") {
        // A JSON-RPC answer cut short: not JSON, though it says it is.
        res
          .writeHead(200, { ...headers, "content-type": "application/json" })
          .end(`{"jsonrpc":"2.0","id":${JSON.stringify(idOf(body))},"result":{"a":1,,}`);
      } else if (type === "xml") {
        res
          .writeHead(200, { ...headers, "content-type": "application/xml" })
          .end(`<?xml version="1.0"?><r><a n="1">one</a><a n="2">two</a></r>`);
      } else {
        const status = Number(q.get("status") ?? 200);
        res
          .writeHead(status, { ...headers, "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: idOf(body), result: { seen: seenRequest(req, body) } }));
      }
      run.finished = true;
      return;
    }
    case "/echo":
      res
        .writeHead(200, { ...CORS, "content-type": "application/json", "mcp-session-id": SESSION })
        .end(JSON.stringify(seenRequest(req, body)));
      return;
    case "/redirect":
      res.writeHead(Number(q.get("status") ?? 307), { ...CORS, location: q.get("to") ?? "/mcp" }).end();
      return;
    case "/api/json":
      res
        .writeHead(200, { "content-type": "application/json", "x-multi": ["a", "b"] })
        .end(JSON.stringify({ ok: true, items: [1, 2, 3], text: "caf\u00e9 \u2713" }));
      return;
    case "/api/text":
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("hello\nworld \u2713\n");
      return;
    case "/bin": {
      const bytes = Buffer.alloc(512);
      for (let i = 0; i < 512; i++) bytes[i] = i < 256 ? i : 511 - i;
      res.writeHead(200, { "content-type": "application/octet-stream", "mcp-session-id": SESSION }).end(bytes);
      return;
    }
    case "/form-response":
      res
        .writeHead(200, { "content-type": "application/x-www-form-urlencoded", "mcp-session-id": SESSION })
        .end("a=1&b=two+words&a=3&c=%E2%9C%93");
      return;
    case "/chunked": {
      // Transfer-Encoding: chunked (no Content-Length), each part a chunk on the wire, far enough apart to arrive alone.
      res.writeHead(200, {
        "content-type": "application/json",
        "mcp-session-id": SESSION,
        "cache-control": "no-store",
      });
      const parts = [
        '{"jsonrpc":"2.0",',
        `"id":${JSON.stringify(idOf(body))},`,
        '"result":{"parts":[1,2,',
        '3],"done":true}}',
      ];
      for (const part of parts) {
        res.write(part);
        await sleep(Number(q.get("gap") ?? 100));
      }
      res.end();
      return;
    }
    case "/mcp/sse":
      return sse(q, res, run);
    case "/legacy/sse":
      return legacySse(req, res, run);
    case "/sse/plain": {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      res.write("retry: 5000\n\n");
      for (const [i, line] of [
        "data: first\n\n",
        "event: tick\ndata: second\nid: t2\n\n",
        "data: third\ndata: line two\n\n",
      ].entries()) {
        await sleep(i === 0 ? 20 : 60);
        res.write(line);
      }
      return; // held open: the page closes it
    }
    case "/api/mcp/connect":
    case "/api/mcp/send":
    case "/api/mcp/events":
      return inspectorBackend(path, q, req, res, body, run);
    case "/chat/stream":
      return chatStream(q, res, run);
    case "/api/chat/history":
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(
        JSON.stringify({
          conversations: [{ id: "c1", title: "Trip to Porto", updated: 1767225600 }],
          cursor: null,
          seen: seenRequest(req, body),
        }),
      );
      return;
    case "/decoded/rpc":
      // Text, not JSON: a decode rule makes the tap keep it all the same.
      res
        .writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" })
        .end(
          JSON.stringify({ rpc: { jsonrpc: "2.0", id: idOf(body), result: { seen: body.toString("utf8").length } } }),
        );
      return;
    case "/decoded/events":
    case "/decoded/sse": {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      for (let i = 1; i <= 4; i++) {
        await sleep(40);
        if (res.destroyed) return;
        res.write(
          `id: d${i}\ndata: ${JSON.stringify({ rpc: { jsonrpc: "2.0", method: "notifications/progress", params: { progress: i } } })}\n\n`,
        );
      }
      if (path === "/decoded/events") res.end();
      return; // /decoded/sse is held open: the page closes it
    }
    case "/sse/wrongtype":
      res.writeHead(200, { "content-type": "text/plain" }).end("data: not an event stream\n\n");
      return;
    default:
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  }
}

/** SSE bodies of the MCP endpoint; `script` picks the shape. */
async function sse(q: URLSearchParams, res: ServerResponse, run: RunState): Promise<void> {
  const script = q.get("script") ?? "spaced";
  const n = Number(q.get("n") ?? 6);
  const gap = Number(q.get("gap") ?? 50);
  res.writeHead(200, {
    ...CORS,
    "content-type": "text/event-stream",
    "cache-control": "no-store",
    "mcp-session-id": SESSION,
  });
  res.flushHeaders();
  const write = (text: string): boolean => {
    if (res.destroyed) return false;
    run.written += Buffer.byteLength(text);
    return res.write(text);
  };
  const event = (i: number): string => {
    const data = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "t", progress: i, total: n },
    });
    switch (i % 4) {
      case 1:
        return `event: message\nid: e${i}\ndata: ${data}\n\n`;
      case 2:
        return `: a comment line\nid: e${i}\nretry: 3000\ndata: ${data}\n\n`;
      case 3:
        return `event: note\nid: e${i}\ndata: {"jsonrpc":"2.0",\ndata: "method":"notifications/message","params":{"i":${i}}}\n\n`;
      default:
        return `id: e${i}\ndata: ${data}\n\n`;
    }
  };
  if (script === "burst") {
    // Many events as fast as the socket takes them: the page reads slowly behind them.
    write("id: p0\ndata:\n\n");
    for (let i = 1; i <= n; i++) if (!write(event(i))) await drained(res);
    res.end(`id: last\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} })}\n\n`);
    run.finished = true;
    return;
  }
  if (script === "flood") {
    // One JSON-RPC event, then SSE comments (no events, so nothing for a tap to record) until FLOOD_CAP or until the
    // client stops reading: the page's own backpressure holds the server back.
    write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 0 } })}\n\n`);
    const comment = `: ${"x".repeat(65_533)}\n`;
    while (run.written < FLOOD_CAP && !res.destroyed) if (!write(comment)) await drained(res);
    if (!res.destroyed) res.end();
    run.finished = !res.destroyed;
    return;
  }
  await sleep(30);
  write("id: p0\ndata:\n\n");
  const hold = script === "hold";
  const count = hold ? 2 : n;
  for (let i = 1; i <= count; i++) {
    await sleep(gap);
    if (res.destroyed) return;
    write(event(i));
  }
  if (hold) return; // open until the client goes away
  await sleep(gap);
  res.end(`id: e-final\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { done: true } })}\n\n`);
  run.finished = true;
}

/** Runs' MCP Inspector v2 backends (inspectorBackend): the open events stream of each, and what waits for it. */
const backends = new Map<string, { stream?: ServerResponse; queue: string[] }>();

/**
 * An MCP Inspector v2-shaped backend (@modelcontextprotocol/inspector 2.12.0, docs/hosts-wire.md of the host
 * tests): connect → `{sessionId}`, send → `{"ok":true}` (for a request, once its answer went out on the events
 * stream), events: a priming comment, then `event: <type>` / `data: {"type","data"}` for the answer and, before
 * it, one of the backend's `fetch_request` reports.
 */
async function inspectorBackend(
  path: string,
  q: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  run: RunState,
): Promise<void> {
  const json = { ...CORS, "content-type": "application/json", "cache-control": "no-store" };
  const key = q.get("k") ?? "";
  const backend = backends.get(key) ?? { queue: [] };
  backends.set(key, backend);
  const push = (type: string, data: unknown): void => {
    const event = `event: ${type}\ndata: ${JSON.stringify({ type, data })}\n\n`;
    if (backend.stream && !backend.stream.destroyed) backend.stream.write(event);
    else backend.queue.push(event);
  };
  if (path === "/api/mcp/connect") {
    res.writeHead(200, json).end(JSON.stringify({ sessionId: `session-${key}` }));
    return;
  }
  if (path === "/api/mcp/events") {
    res.writeHead(200, { ...CORS, "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(":\n\n");
    backend.stream = res;
    for (const event of backend.queue.splice(0)) res.write(event);
    res.on("close", () => void (backend.stream = undefined));
    return; // held open until the page aborts it
  }
  let message: { id?: unknown; method?: unknown } = {};
  try {
    message = (JSON.parse(body.toString("utf8")) as { message?: typeof message }).message ?? {};
  } catch {
    // answered all the same
  }
  if (message.id !== undefined && typeof message.method === "string") {
    await sleep(30);
    push("fetch_request", {
      id: "f1",
      method: "POST",
      url: "http://127.0.0.1:9/mcp",
      requestHeaders: { authorization: "Bearer upstream-secret" },
      requestBody: JSON.stringify(message),
    });
    push("message", {
      jsonrpc: "2.0",
      id: message.id,
      result: { method: message.method, contentType: req.headers["content-type"] ?? null },
    });
    await sleep(20);
  }
  run.finished = true;
  res.writeHead(200, json).end('{"ok":true}');
}

/**
 * A chat app's own token stream, nothing MCP about it: `n` (2000) SSE events of OpenAI-style deltas in bursts of
 * 50, then `data: [DONE]`.
 */
async function chatStream(q: URLSearchParams, res: ServerResponse, run: RunState): Promise<void> {
  const n = Number(q.get("n") ?? 2000);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  res.flushHeaders();
  for (let i = 0; i < n; i += 50) {
    let burst = "";
    for (let j = i; j < Math.min(n, i + 50); j++)
      burst += `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: `tok${j} ` }, finish_reason: null }] })}\n\n`;
    if (res.destroyed) return;
    run.written += Buffer.byteLength(burst);
    if (!res.write(burst)) await drained(res);
    await sleep(5);
  }
  res.end("data: [DONE]\n\n");
  run.finished = true;
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** The deprecated HTTP+SSE transport: `endpoint`, messages with ids, a `retry`, then the server ends the stream and the client reconnects with Last-Event-ID. */
async function legacySse(req: IncomingMessage, res: ServerResponse, run: RunState): Promise<void> {
  run.connections++;
  run.lastEventIds.push(req.headers["last-event-id"] === undefined ? null : String(req.headers["last-event-id"]));
  if (run.connections > 2) {
    res.writeHead(204).end(); // no more reconnects
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  res.flushHeaders();
  const rpc = (method: string, params: object): string => JSON.stringify({ jsonrpc: "2.0", method, params });
  const first = [
    "retry: 150\n\n",
    "event: endpoint\ndata: /legacy/messages?sessionId=s1\n\n",
    `id: 1\ndata: ${rpc("notifications/message", { n: 1 })}\n\n`,
    `id: 2\nevent: ping\ndata: ${rpc("ping", {})}\n\n`,
    `id: 3\ndata: {"jsonrpc":"2.0",\ndata: "method":"notifications/message","params":{"n":3}}\n\n`,
  ];
  const second = [`id: 4\ndata: ${rpc("notifications/message", { n: 4 })}\n\n`, "id: 5\ndata: last one\n\n"];
  for (const chunk of run.connections === 1 ? first : second) {
    await sleep(40);
    if (res.destroyed) return;
    res.write(chunk);
  }
  if (run.connections === 1) {
    await sleep(40);
    res.end();
  }
}

function webSocketPeer(req: IncomingMessage, socket: Duplex, mode: string, run: RunState): void {
  const onText = (text: string, peer: WsPeer): void => {
    run.wsReceived.push({ kind: "text", value: text });
    const close = /^close-me:(\d+):(.*)$/.exec(text);
    if (close) return peer.close(Number(close[1]), close[2] ?? "");
    peer.sendText(text);
  };
  const peer = acceptWebSocket(req, socket, {
    onText,
    onBinary: (bytes, p) => {
      run.wsReceived.push({ kind: "binary", value: bytes.toString("hex") });
      p.sendBinary(bytes);
    },
    onClose: (code, reason) => void (run.wsClose = { code, reason }),
  });
  if (mode === "script") {
    const rpc = JSON.stringify({
      jsonrpc: "2.0",
      id: "ask-1",
      method: "elicitation/create",
      params: { mode: "form", message: "Proceed?", requestedSchema: { type: "object", properties: {} } },
    });
    peer.sendText(rpc);
    peer.sendBinary(
      Buffer.from(
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { binary: true } }),
        "utf8",
      ),
    );
    peer.sendBinary(Buffer.from([0, 1, 2, 250, 255, 0x7b]));
    peer.sendText("plain text frame");
    peer.sendText(JSON.stringify({ jsonrpc: "2.0", id: 2, result: { ok: true } }));
  }
}
