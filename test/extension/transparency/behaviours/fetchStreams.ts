import {
  type Behaviour,
  type Ctx,
  describeError,
  gaps,
  mcpHeaders,
  readChunks,
  responseHead,
  rpc,
  settle,
  sha256,
  sleep,
  stats,
} from "./kit.ts";

const http = (url: string) => ({ transport: "http" as const, url: () => url });

/** The same cap as the server's flood stream (server.ts FLOOD_CAP). */
const FLOOD_CAP = 24 << 20;

const ssePost = (ctx: Ctx, query: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`/mcp/sse?k=${ctx.token}&${query}`, {
    method: "POST",
    headers: mcpHeaders(),
    body: rpc("tools/call", { name: "stream" }, 1),
    ...init,
  });

const plainChunks = (chunks: { text: string; bytes: number }[]) => chunks.map(({ text, bytes }) => ({ text, bytes }));

/** fetch of `text/event-stream` responses: chunking, timing, backpressure, cancellation, aborts and failures. */
export const fetchStreams: Behaviour[] = [
  {
    name: "fetch: SSE read incrementally, reader.read() results as the page sees them",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "n=6&gap=100");
      const locked = [r.body!.locked];
      const { chunks, done, reader } = await readChunks(r.body!);
      locked.push(r.body!.locked);
      reader.releaseLock();
      if (chunks.length < 6) throw new Error(`the events merged into ${chunks.length} chunks`);
      return { seen: { head: responseHead(r), chunks: plainChunks(chunks), done, locked, bodyUsed: r.bodyUsed } };
    },
  },
  {
    name: "fetch: SSE events are neither delayed nor merged (timing sanity check)",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const start = performance.now();
      const r = await ssePost(ctx, "n=10&gap=80");
      const { chunks } = await readChunks(r.body!);
      return {
        seen: { chunks: chunks.map((c) => c.text) },
        measured: { gaps: gaps(chunks), first: Math.round(chunks[0]!.at - start), count: chunks.length },
      };
    },
  },
  {
    name: "fetch: a slow reader behind a burst of SSE events gets every byte in order",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "script=burst&n=400");
      const { chunks } = await readChunks(r.body!, () => sleep(3));
      const text = chunks.map((c) => c.text).join("");
      const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
      return {
        seen: {
          bytes: chunks.reduce((n, c) => n + c.bytes, 0),
          sha: await sha256(new TextEncoder().encode(text)),
          ids,
          server: (await stats(ctx)).finished,
        },
      };
    },
  },
  {
    name: "fetch: a stalled SSE reader holds the server back (backpressure reaches the network)",
    bug: "T6",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "script=flood");
      const reader = r.body!.getReader();
      const first = await reader.read();
      await sleep(1500); // the page stops reading; the stream must stop too, not be drained behind its back
      const server = await stats(ctx);
      await reader.cancel();
      return {
        seen: { firstDone: first.done, stalled: server.written < FLOOD_CAP && !server.finished },
        measured: { written: server.written },
      };
    },
  },
  {
    name: "fetch: cancelling the page's reader closes the connection",
    bug: "T7",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "script=hold&gap=40");
      const { reader, chunks } = await readChunks(r.body!, undefined, (soFar) => soFar.includes("id: e1"));
      const cancelled = await settle(reader.cancel("page is done"));
      const next = await reader.read();
      await sleep(400);
      const server = await stats(ctx);
      return {
        seen: {
          read: plainChunks(chunks).length > 0,
          cancelled,
          next,
          locked: r.body!.locked,
          closedByClient: server.closedEarly,
          serverFinished: server.finished,
        },
      };
    },
  },
  {
    name: "fetch: cancelled SSE streams give their connections back (six cancelled, then one more request)",
    bug: "T7",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      // HTTP/1.1: Chromium keeps at most six connections per host; a stream whose cancel does not close its
      // connection holds one of them until the server ends it.
      for (let i = 0; i < 6; i++) {
        const r = await ssePost(ctx, "script=hold&gap=20");
        const { reader } = await readChunks(r.body!, undefined, (soFar) => soFar.includes("id: e1"));
        await reader.cancel();
      }
      const outcome = await Promise.race([
        fetch("/api/json").then(async (r) => ((await r.json()) as { ok: boolean }).ok && "answered"),
        sleep(4000).then(() => "still waiting after 4 s"),
      ]);
      return { seen: { outcome } };
    },
  },
  {
    name: "fetch: an SSE response cloned by the page, both branches read",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "n=4&gap=100");
      const c = r.clone();
      const [a, b] = await Promise.all([readChunks(r.body!), readChunks(c.body!)]);
      return { seen: { a: plainChunks(a.chunks), b: plainChunks(b.chunks), used: [r.bodyUsed, c.bodyUsed] } };
    },
  },
  {
    name: "fetch: bodyUsed and body.locked through a streamed read",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "n=2&gap=40");
      const flags: unknown[] = [];
      const note = (at: string): number => flags.push([at, r.bodyUsed, r.body?.locked, r.body === r.body]);
      note("resolved");
      const reader = r.body!.getReader();
      note("getReader");
      await reader.read();
      note("first read");
      while (!(await reader.read()).done);
      note("done");
      reader.releaseLock();
      note("released");
      return { seen: { flags, text: await settle(r.text()) } };
    },
  },
  {
    name: "fetch: BYOB reader on an SSE body",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const r = await ssePost(ctx, "n=3&gap=100");
      let reader: ReadableStreamBYOBReader;
      try {
        reader = r.body!.getReader({ mode: "byob" });
      } catch (error) {
        return { seen: { byob: describeError(error) } };
      }
      const sizes: number[] = [];
      let text = "";
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read(new Uint8Array(97));
        if (done) break;
        sizes.push(value.byteLength);
        text += decoder.decode(value, { stream: true });
      }
      return { seen: { sizes, text } };
    },
  },
  {
    name: "fetch: abort mid-stream (default reason)",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const controller = new AbortController();
      const order: string[] = [];
      controller.signal.addEventListener("abort", () => order.push("signal abort event"));
      const r = await ssePost(ctx, "script=hold&gap=40", { signal: controller.signal });
      const { reader } = await readChunks(r.body!, undefined, (soFar) => soFar.includes("id: e1"));
      const pending = reader.read().then(
        (v) => (order.push("read fulfilled"), { fulfilled: v.done }),
        (error: unknown) => (
          order.push("read rejected"), { rejected: describeError(error), isReason: error === controller.signal.reason }
        ),
      );
      controller.abort();
      order.push("abort() returned");
      const read = await pending;
      const text = await settle(r.text());
      await sleep(300);
      return {
        seen: {
          read,
          order,
          aborted: controller.signal.aborted,
          reason: describeError(controller.signal.reason),
          text,
          bodyUsed: r.bodyUsed,
          closedByClient: (await stats(ctx)).closedEarly,
        },
      };
    },
  },
  {
    name: "fetch: abort mid-stream with a custom reason",
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const out: unknown[] = [];
      for (const reason of [new RangeError("custom reason"), "a string reason", { code: 42 }]) {
        const controller = new AbortController();
        const r = await ssePost(ctx, "script=hold&gap=40", { signal: controller.signal });
        const { reader } = await readChunks(r.body!, undefined, (soFar) => soFar.includes("id: e1"));
        const pending = reader.read().then(
          () => "fulfilled",
          (error: unknown) => ({ rejected: describeError(error), isReason: error === reason }),
        );
        controller.abort(reason);
        out.push({ read: await pending, reasonKept: controller.signal.reason === reason });
      }
      return { seen: out };
    },
  },
  {
    name: "fetch: abort before the response arrives",
    mcp: http("/slow"),
    async run(ctx) {
      const out: unknown[] = [];
      for (const reason of [undefined, new SyntaxError("gave up")]) {
        const controller = new AbortController();
        const order: string[] = [];
        controller.signal.onabort = () => order.push("onabort");
        const p = fetch(`/slow?k=${ctx.token}&delay=800`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("tools/call", {}, 2),
          signal: controller.signal,
        });
        const settled = p.then(
          () => (order.push("fulfilled"), "fulfilled"),
          (error: unknown) => (
            order.push("rejected"), { error: describeError(error), isReason: error === controller.signal.reason }
          ),
        );
        await sleep(150);
        controller.abort(reason);
        order.push("abort() returned");
        out.push({ outcome: await settled, order });
      }
      await sleep(300);
      return { seen: { out, closedByClient: (await stats(ctx)).closedEarly } };
    },
  },
  {
    name: "fetch: an already-aborted signal and AbortSignal.timeout()",
    mcp: http("/slow"),
    async run(ctx) {
      const init = (signal: AbortSignal): RequestInit => ({
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("ping", {}, 3),
        signal,
      });
      const pre = AbortSignal.abort();
      const already = await settle(fetch(`/mcp?k=${ctx.token}`, init(pre)));
      const custom = AbortSignal.abort(new TypeError("nope"));
      const alreadyCustom = await settle(fetch(`/mcp?k=${ctx.token}`, init(custom)));
      const timeout = AbortSignal.timeout(120);
      const timedOut = await fetch(`/slow?k=${ctx.token}&delay=800`, init(timeout)).then(
        () => "fulfilled",
        (error: unknown) => ({ error: describeError(error), isReason: error === timeout.reason }),
      );
      return { seen: { already, alreadyCustom, timedOut } };
    },
  },
  {
    name: "fetch: network error (connection refused)",
    async run(ctx) {
      const mcp = await settle(
        fetch(`${ctx.refused}/mcp`, { method: "POST", headers: mcpHeaders(), body: rpc("initialize", {}, 1) }),
      );
      const plain = await settle(fetch(`${ctx.refused}/api/json`));
      const instance = await fetch(`${ctx.refused}/mcp`, { method: "POST", body: rpc("ping", {}, 2) }).catch(
        (error: unknown) => [error instanceof TypeError, Object.getPrototypeOf(error) === TypeError.prototype],
      );
      return { seen: { mcp, plain, instance } };
    },
  },
  {
    name: "fetch: an unhandled MCP fetch rejection reaches unhandledrejection and rejectionhandled",
    async run(ctx) {
      const events: unknown[] = [];
      let promise: Promise<Response> | undefined;
      const onUnhandled = (e: PromiseRejectionEvent): void => {
        e.preventDefault();
        events.push({ type: e.type, reason: describeError(e.reason), samePromise: e.promise === promise });
      };
      const onHandled = (e: PromiseRejectionEvent): void =>
        void events.push({ type: e.type, reason: describeError(e.reason), samePromise: e.promise === promise });
      addEventListener("unhandledrejection", onUnhandled);
      addEventListener("rejectionhandled", onHandled);
      try {
        promise = fetch(`${ctx.refused}/mcp`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("initialize", {}, 1),
        });
        await sleep(1000);
        promise.catch(() => undefined);
        await sleep(200);
      } finally {
        removeEventListener("unhandledrejection", onUnhandled);
        removeEventListener("rejectionhandled", onHandled);
      }
      return { seen: events };
    },
  },
];
