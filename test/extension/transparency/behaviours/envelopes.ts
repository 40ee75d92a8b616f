import {
  type Behaviour,
  type Ctx,
  gaps,
  readChunks,
  responseHead,
  rpc,
  settle,
  sha256,
  sleep,
  stats,
  until,
} from "./kit.ts";

/** The decode rule the tapped browser of the battery has (transparency.test.ts): traffic under /decoded/ is MCP. */
export const BATTERY_DECODE_RULE = {
  label: "battery",
  url: "*/decoded/*",
  pointer: "/rpc",
  direction: "both",
} as const;

const plainChunks = (chunks: { text: string; bytes: number }[]) => chunks.map(({ text, bytes }) => ({ text, bytes }));
const api = (ctx: Ctx, path: string): string => `/api/mcp/${path}?k=${ctx.token}`;
const remoteAuth = { "content-type": "application/json", "x-mcp-remote-auth": "Bearer battery-token" };

/**
 * The paths the tap reads for the envelope adapters (issue 9): MCP Inspector v2's backend API, MCP-B's and the
 * generic postMessage envelopes, a decode rule's traffic; and the traffic it must leave alone however much of it
 * there is — a chat page's own SSE token stream and JSON API calls (`unrecorded`).
 */
export const envelopeBehaviours: Behaviour[] = [
  {
    name: "envelopes: MCP Inspector v2's backend API (connect, events read with a reader, send answered {ok:true})",
    // The connect body's OAuth token, the backend's report of its upstream request headers, the page's API token.
    mcp: {
      transport: "http",
      url: () => "/api/mcp",
      never: ["battery-secret", "upstream-secret", "battery-token", "fetch_request"],
    },
    async run(ctx) {
      // As RemoteClientTransport does it: connect, open the events stream (no Accept, no MCP header), send.
      const connect = await fetch(api(ctx, "connect"), {
        method: "POST",
        headers: remoteAuth,
        body: JSON.stringify({
          config: { type: "streamable-http", url: "http://127.0.0.1:9/mcp" },
          authState: { oauthTokens: { access_token: "battery-secret", token_type: "Bearer" } },
        }),
      });
      const connected = { head: responseHead(connect), body: await connect.json() };
      const abort = new AbortController();
      const events = await fetch(`/api/mcp/events?sessionId=session-${ctx.token}&k=${ctx.token}`, {
        headers: { "x-mcp-remote-auth": "Bearer battery-token" },
        signal: abort.signal,
      });
      const eventsHead = responseHead(events);
      const reading = readChunks(
        events.body!,
        undefined,
        (soFar) => (soFar.match(/event: message/g) ?? []).length >= 2,
      );
      const sent: unknown[] = [];
      for (const [i, message] of [
        JSON.parse(rpc("initialize", { protocolVersion: "2025-11-25" }, 0)),
        JSON.parse(rpc("notifications/initialized", {})),
        JSON.parse(rpc("tools/call", { name: "t" }, 1)),
      ].entries()) {
        const r = await fetch(api(ctx, "send"), {
          method: "POST",
          headers: remoteAuth,
          body: JSON.stringify({
            sessionId: `session-${ctx.token}`,
            message,
            ...(i > 0 && { protocolVersion: "2025-11-25" }),
          }),
        });
        sent.push({ status: r.status, body: await r.text() });
      }
      const { chunks, reader } = await reading;
      abort.abort();
      const after = await settle(reader.read());
      return {
        seen: {
          connected,
          eventsHead,
          sent,
          text: chunks.map((c) => c.text).join(""),
          after,
          server: (await stats(ctx)).finished,
        },
      };
    },
  },
  {
    name: "envelopes: MCP-B messages between two ends in one window, handshake strings and listeners as they were",
    mcp: { transport: "postMessage", url: (ctx) => ctx.origin },
    async run() {
      const log: unknown[] = [];
      const listener = (e: MessageEvent): void =>
        void log.push({ data: e.data as unknown, origin: e.origin, self: e.source === window, ports: e.ports.length });
      addEventListener("message", listener);
      try {
        const envelope = (direction: string, payload: unknown) => ({
          channel: "mcp-default",
          type: "mcp",
          direction,
          payload,
        });
        const payloads = [
          envelope("server-to-client", "mcp-server-ready"),
          envelope("client-to-server", "mcp-check-ready"),
          envelope("client-to-server", JSON.parse(rpc("tools/call", { name: "deploy" }, 1))),
          envelope(
            "server-to-client",
            JSON.parse(
              rpc(
                "elicitation/create",
                {
                  mode: "form",
                  message: "Key?",
                  requestedSchema: { type: "object", properties: { api_key: { type: "string" } } },
                },
                0,
              ),
            ),
          ),
          envelope("client-to-server", { jsonrpc: "2.0", id: 0, result: { action: "decline" } }),
          { channel: "mcp-default", type: "mcp", direction: "sideways", payload: {} },
          { type: "mcp" },
          "end",
        ];
        for (const payload of payloads) postMessage(payload, "*");
        await until(() => log.some((e) => (e as { data: unknown }).data === "end"), "the last message");
        return { seen: { log } };
      } finally {
        removeEventListener("message", listener);
      }
    },
  },
  {
    name: "envelopes: one JSON-RPC message nested in a postMessage object (the generic fallback), and objects that only look so",
    mcp: { transport: "postMessage", url: (ctx) => ctx.origin },
    async run() {
      const log: unknown[] = [];
      const listener = (e: MessageEvent): void => void log.push(e.data);
      addEventListener("message", listener);
      try {
        const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
        const payloads: unknown[] = [
          { rpc: JSON.parse(rpc("tools/list", {}, 5)), meta: { app: "x" } },
          { a: JSON.parse(rpc("ping", {}, 1)), b: JSON.parse(rpc("ping", {}, 2)) },
          { wrapper: { jsonrpc: "1.0" } },
          { ...many, rpc: JSON.parse(rpc("ping", {}, 3)) },
          "end",
        ];
        for (const payload of payloads) postMessage(payload, "*");
        await until(() => log.includes("end"), "the last message");
        return { seen: { log } };
      } finally {
        removeEventListener("message", listener);
      }
    },
  },
  {
    name: "envelopes: a chat page's own SSE token stream (2,000 events) and JSON API calls are not read",
    timing: true,
    unrecorded: () => "/chat/",
    async run(ctx) {
      const history = await fetch(`/api/chat/history?k=${ctx.token}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer chat" },
        body: JSON.stringify({ limit: 20, jsonrpcLike: false }),
      });
      const listed = await history.json();
      const start = performance.now();
      const r = await fetch(`/chat/stream?k=${ctx.token}&n=2000`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
      const { chunks, done } = await readChunks(r.body!);
      const text = chunks.map((c) => c.text).join("");
      const events = text.split("\n\n").filter((e) => e.startsWith("data: "));
      return {
        seen: {
          listed,
          head: responseHead(r),
          done,
          events: events.length,
          last: events.at(-1),
          sha: await sha256(new TextEncoder().encode(text)),
          server: (await stats(ctx)).finished,
        },
        measured: { gaps: gaps(chunks), first: Math.round(chunks[0]!.at - start), count: chunks.length },
      };
    },
  },
  {
    name: "envelopes: a decode rule's fetch, XHR, EventSource and WebSocket traffic (text answers too)",
    mcp: { transport: "http", url: () => "/decoded/rpc" },
    async run(ctx) {
      await sleep(50); // the rule reaches a new page's tap from storage at document_start
      const body = JSON.stringify({ rpc: JSON.parse(rpc("tools/list", {}, 7)) });
      const fetched = await fetch(`/decoded/rpc?k=${ctx.token}`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body,
      });
      const fetchedSeen = { head: responseHead(fetched), text: await fetched.text() };
      const stream = await fetch(`/decoded/events?k=${ctx.token}`);
      const { chunks } = await readChunks(stream.body!);
      const xhr = new XMLHttpRequest();
      const xhrStates: number[] = [];
      xhr.onreadystatechange = () => xhrStates.push(xhr.readyState);
      const loaded = new Promise((resolve) => (xhr.onloadend = resolve));
      xhr.open("POST", `/decoded/rpc?k=${ctx.token}`);
      xhr.send(body);
      await loaded;
      const source = new EventSource(`/decoded/sse?k=${ctx.token}`);
      const sourceLog: unknown[] = [];
      source.onmessage = (e) => sourceLog.push({ data: e.data as unknown, id: e.lastEventId });
      await until(() => sourceLog.length === 4, "four events");
      source.close();
      const socket = new WebSocket(`${ctx.origin.replace(/^http/, "ws")}/decoded/ws?mode=echo&k=${ctx.token}`);
      const echoes: unknown[] = [];
      socket.onmessage = (e) => echoes.push(e.data);
      await new Promise((resolve) => (socket.onopen = resolve));
      socket.send(body);
      socket.send("not json at all");
      await until(() => echoes.length === 2, "two echoes");
      const closed = new Promise((resolve) => (socket.onclose = resolve));
      socket.close(1000, "done");
      await closed;
      return {
        seen: {
          fetchedSeen,
          chunks: plainChunks(chunks),
          xhr: {
            status: xhr.status,
            text: xhr.responseText,
            type: xhr.getResponseHeader("content-type"),
            states: xhrStates,
          },
          sourceLog,
          echoes,
        },
      };
    },
  },
];
