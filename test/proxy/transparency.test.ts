import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, test } from "node:test";
import { gzipSync } from "node:zlib";
import { startProxy, type Proxy } from "../../src/cli/proxy/server.ts";
import { readCaptureFile, waitFor } from "./helpers.ts";

/**
 * Byte-level transparency against a plain node:http upstream that does what MCP servers do and what they should not:
 * the same status, headers and bytes with and without the proxy, SSE events passed on one at a time, disconnects
 * passed on both ways, Authorization and cookies forwarded and never recorded.
 */
const SECRET_AUTH = "Bearer sk-live-4f00ba7";
const SECRET_COOKIE = "sid=c00k1e-5ecret";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let upstream: Server;
let origin: string;
const seen: Seen[] = [];
/** Handlers of the upstream by path. */
const routes = new Map<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>();
let dir: string;
let proxy: Proxy;
let out: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-proxy-raw-"));
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const path = (req.url ?? "/").split("?")[0]!;
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    const handler = routes.get(path);
    if (handler) handler(req, res, body);
    else
      res.writeHead(404, "Nothing Here", { "content-type": "text/plain", "x-why": "no route" }).end("no such route\n");
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async (t) => {
  seen.length = 0;
  routes.clear();
  out = join(dir, `${t.name.replace(/\W+/g, "-")}.jsonl`);
  proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(`${origin}/mcp`) }], out, warn: () => {} });
});
afterEach(() => proxy.close());

interface Raw {
  status: number;
  statusMessage: string;
  headers: string[];
  body: Buffer;
}

/** A request as any HTTP client would send it, and the response exactly as it came (raw header list, bytes). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            statusMessage: res.statusMessage!,
            headers: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The end-to-end fields: the connection's own (and Date, which ticks) are each hop's. */
const endToEnd = (headers: string[]): string[][] => {
  const pairs: string[][] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(headers[i]!.toLowerCase()))
      pairs.push([headers[i]!, headers[i + 1]!]);
  }
  return pairs;
};

/** `path` on the upstream's origin; the proxy serves the upstream URL at /mcp and the rest of its origin below it. */
async function same(path: string, options: Parameters<typeof raw>[1] = {}): Promise<{ direct: Raw; via: Raw }> {
  const direct = await raw(`${origin}${path}`, options);
  const via = await raw(`${proxy.urls[0]!.url}${path === "/mcp" ? "" : path}`, options);
  assert.equal(via.status, direct.status);
  assert.equal(via.statusMessage, direct.statusMessage);
  assert.deepEqual(endToEnd(via.headers), endToEnd(direct.headers));
  assert.ok(via.body.equals(direct.body), "the same bytes");
  const hop = ({ connection, "keep-alive": _, ...rest }: IncomingHttpHeaders = {}) => rest;
  assert.deepEqual(hop(seen[1]?.headers), hop(seen[0]?.headers), "the upstream gets the same end-to-end headers");
  assert.equal(seen[1]?.body, seen[0]?.body, "and the same body");
  assert.equal(seen[1]?.method, seen[0]?.method);
  assert.equal(seen[1]?.url, seen[0]?.url);
  return { direct, via };
}

/** The capture file once every exchange has ended (a compressed body's copy is decoded after the agent has it). */
const capture = async () => {
  const exchanges = (ended: boolean) =>
    new Set(
      proxy.journal
        .records()
        .filter((r) => (r.kind === "end") === ended)
        .map((r) => r.exchange),
    );
  await waitFor(() => exchanges(true).size === exchanges(false).size);
  await proxy.close();
  return { text: await readFile(out, "utf8"), ...(await readCaptureFile(out)) };
};

test("a JSON POST: status, headers (cookies, session, repeated fields) and bytes as they were; credentials forwarded, never recorded", async () => {
  routes.set("/mcp", (_req, res, body) => {
    const id = (JSON.parse(body) as { id: number }).id;
    res.writeHead(200, "Fine", [
      "Content-Type",
      "application/json",
      "Mcp-Session-Id",
      "sess-1",
      "Set-Cookie",
      "a=1; HttpOnly",
      "Set-Cookie",
      "b=2",
      "X-Custom",
      "kept",
    ]);
    res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } }));
  });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  await same("/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: SECRET_AUTH,
      cookie: SECRET_COOKIE,
      "mcp-protocol-version": "2025-11-25",
      "mcp-session-id": "sess-1",
    },
    body,
  });
  assert.equal(seen[1]!.headers.authorization, SECRET_AUTH);
  assert.equal(seen[1]!.headers.cookie, SECRET_COOKIE);
  const { text, records } = await capture();
  assert.ok(
    !text.includes("sk-live") && !text.includes("c00k1e") && !/authorization|"cookie"|set-cookie/i.test(text),
    "no credential in the capture",
  );
  assert.deepEqual(
    records.map((r) => r.kind),
    ["message", "response", "message", "end"],
  );
  const [sent, head] = records;
  assert.equal(sent?.kind === "message" && sent.text, body);
  assert.deepEqual(sent?.kind === "message" && sent.headers, {
    "mcp-session-id": "sess-1",
    "mcp-protocol-version": "2025-11-25",
    "content-type": "application/json",
  });
  assert.deepEqual(head?.kind === "response" && head.headers, {
    "mcp-session-id": "sess-1",
    "content-type": "application/json",
  });
});

test("error answers, 202 and DELETE pass as they were", async () => {
  routes.set("/mcp", (req, res) => {
    if (req.method === "DELETE")
      return void res.writeHead(200, { "mcp-session-id": String(req.headers["mcp-session-id"]) }).end();
    if (req.headers["x-want"] === "202") return void res.writeHead(202).end();
    res
      .writeHead(400, "Bad Request", { "content-type": "application/json" })
      .end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: no valid session"},"id":null}');
  });
  await same("/mcp/nowhere");
  await same("/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  seen.length = 0;
  await same("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", "x-want": "202" },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });
  seen.length = 0;
  await same("/mcp", { method: "DELETE", headers: { "mcp-session-id": "sess-9" } });
  assert.equal(seen[1]!.method, "DELETE");
  const { records } = await capture();
  const deleted = records.filter((r) => r.exchange === records.at(-1)!.exchange);
  assert.deepEqual(
    deleted.map((r) => r.kind),
    ["response", "end"],
  );
  assert.equal(deleted[0]?.kind === "response" && deleted[0].emptyBody, true);
});

test("a compressed answer reaches the agent compressed and the capture decoded", async () => {
  const json = '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"zipped"}]}}';
  routes.set(
    "/mcp",
    (_req, res) =>
      void res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(json)),
  );
  await same("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", "accept-encoding": "gzip" },
    body: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}',
  });
  const { records } = await capture();
  assert.equal(
    records.filter((r) => r.kind === "message" && r.direction === "s2c").map((r) => r.kind === "message" && r.text)[0],
    json,
  );
});

test("Last-Event-ID reaches the upstream; a GET stream's events are recorded with their ids and the GET's headers", async () => {
  routes.set("/mcp", (req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(
      `id: 8\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after ${String(req.headers["last-event-id"])}"}}\n\n`,
    );
  });
  await same("/mcp", { headers: { accept: "text/event-stream", "last-event-id": "7", "mcp-session-id": "s" } });
  assert.equal(seen[1]!.headers["last-event-id"], "7");
  const { records } = await capture();
  const event = records.find((r) => r.kind === "message");
  assert.equal(event?.kind === "message" && event.stream, "get-sse");
  assert.equal(event?.kind === "message" && event.eventId, "8");
  assert.deepEqual(event?.kind === "message" && event.headers, { "mcp-session-id": "s", "last-event-id": "7" });
});

test("SSE is not buffered: each event reaches the agent before the upstream sends the next", async () => {
  let delivered!: () => void;
  const firstDelivered = new Promise<void>((resolve) => (delivered = resolve));
  let waited: "delivered" | "timed out" | undefined;
  routes.set("/mcp", (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(
      'data: {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"one?","requestedSchema":{"type":"object","properties":{}}}}\n\n',
    );
    const timeout = new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), 3000));
    void Promise.race([firstDelivered.then(() => "delivered" as const), timeout]).then((outcome) => {
      waited = outcome;
      res.end('data: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n');
    });
  });
  const texts: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const req = request(
      proxy.urls[0]!.url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (text: string) => {
          texts.push(text);
          if (text.includes("elicitation/create")) delivered();
        });
        res.on("end", resolve);
      },
    );
    req.on("error", reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}');
  });
  assert.equal(waited, "delivered");
  assert.ok(
    texts[0]?.includes("elicitation/create") && !texts[0].includes('"id":1,"result"'),
    "the first event came alone",
  );
  const { records } = await capture();
  assert.deepEqual(
    records.filter((r) => r.kind === "message").map((r) => r.kind === "message" && r.stream),
    ["body", "post-sse", "post-sse"],
  );
});

test("an upstream that cuts its stream cuts the agent's; a refused upstream is a failed request for the agent", async () => {
  routes.set("/mcp", (req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n',
    );
    setTimeout(() => req.socket.destroy(), 20);
  });
  const cut = await new Promise<{ events: string; aborted: boolean }>((resolve, reject) => {
    const req = request(proxy.urls[0]!.url, { headers: { accept: "text/event-stream" } }, (res) => {
      let events = "";
      res.setEncoding("utf8");
      res.on("data", (text: string) => (events += text));
      res.on("close", () => resolve({ events, aborted: !res.complete }));
    });
    req.on("error", reject);
    req.end();
  });
  assert.match(cut.events, /notifications\/progress/);
  assert.equal(cut.aborted, true, "the agent's response ends incomplete, as the upstream's did");

  const refused = await startProxy({
    upstreams: [{ name: "mcp", url: new URL("http://127.0.0.1:9/mcp") }],
    warn: () => {},
  });
  try {
    await assert.rejects(raw(refused.urls[0]!.url, { method: "POST", body: "{}" }), /socket hang up|ECONNRESET/);
    await waitFor(() => refused.journal.records().some((r) => r.kind === "end"));
    const [end] = refused.journal.records().filter((r) => r.kind === "end");
    assert.equal(end?.kind === "end" && end.error, "network: ECONNREFUSED");
  } finally {
    await refused.close();
  }
  const { records } = await capture();
  assert.deepEqual(records.at(-1), { ...records.at(-1), kind: "end", error: "network" }, "the cut is recorded");
});

test("an agent that goes away closes the upstream request", async () => {
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
  routes.set("/mcp", (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(": open\n\n");
    res.on("close", upstreamClosed);
  });
  await new Promise<void>((resolve, reject) => {
    const req = request(proxy.urls[0]!.url, { headers: { accept: "text/event-stream" } }, (res) => {
      res.once("data", () => {
        req.destroy();
        resolve();
      });
    });
    req.on("error", reject);
    req.end();
  });
  await closed;
  await waitFor(() => proxy.journal.records().some((r) => r.kind === "end"));
  assert.equal((proxy.journal.records().find((r) => r.kind === "end") as { error?: string }).error, "abort");
});

test("stopping the proxy cuts open streams and records their end before the file is closed", async () => {
  routes.set("/mcp", (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(
      'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"open"}}\n\n',
    );
  });
  let stopped: Promise<void> | undefined;
  const cut = new Promise<boolean>((resolve) => {
    const req = request(
      proxy.urls[0]!.url,
      { headers: { accept: "text/event-stream", "mcp-session-id": "s" } },
      (res) => {
        res.once("data", () => (stopped = proxy.close()));
        res.on("close", () => resolve(!res.complete));
      },
    );
    req.on("error", () => resolve(true));
    req.end();
  });
  assert.equal(await cut, true, "the agent's stream is cut");
  await stopped;
  const { records, problems } = await readCaptureFile(out);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records.map((r) => r.kind),
    ["response", "message", "end"],
  );
  assert.equal((records[2] as { error?: string }).error, "abort");
});

test("a Streamable HTTP GET stream that stays silent is recorded open (its response) at once", async () => {
  routes.set("/mcp", (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s" });
    res.flushHeaders();
  });
  const req = request(proxy.urls[0]!.url, { headers: { accept: "text/event-stream", "mcp-session-id": "s" } });
  req.on("error", () => {});
  req.end();
  await waitFor(() => proxy.journal.count() > 0);
  const [head] = proxy.journal.records();
  assert.equal(head?.kind, "response");
  assert.equal(head?.transport, "http");
  req.destroy();
});
