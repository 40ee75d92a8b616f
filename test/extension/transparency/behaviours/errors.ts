import { type Behaviour, describeError, mcpHeaders, once, rpc, sleep, until } from "./kit.ts";

/** An error thrown synchronously by `fn`, with its stack as the page reads it; or a rejection of the promise it returns. */
async function stackOf(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
    return "no error";
  } catch (error) {
    return { error: describeError(error), stack: (error as { stack?: unknown }).stack };
  }
}

/** Errors: the page's own handlers throwing, and errors the browser throws through the wrapped built-ins. */
export const errorBehaviours: Behaviour[] = [
  {
    name: "errors: exceptions thrown by the page's own handlers reach window.onerror and unhandledrejection",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const seen: unknown[] = [];
      const thrown: unknown[] = [];
      const boom = (where: string): never => {
        const error = new Error(`thrown in ${where}`);
        thrown.push(error);
        throw error;
      };
      onerror = (message, source, lineno, colno, error) => {
        seen.push({ message, source, lineno, colno, error: describeError(error), same: thrown.includes(error) });
        return true;
      };
      const onUnhandled = (e: PromiseRejectionEvent): void => {
        e.preventDefault();
        seen.push({ unhandled: describeError(e.reason), same: thrown.includes(e.reason) });
      };
      addEventListener("unhandledrejection", onUnhandled);
      try {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", `/mcp?k=${ctx.token}`);
        xhr.setRequestHeader("Content-Type", "application/json");
        xhr.onload = () => boom("xhr onload");
        xhr.addEventListener("readystatechange", () => xhr.readyState === 4 && boom("xhr readystatechange listener"));
        const ended = once(xhr, "loadend");
        xhr.send(rpc("tools/call", {}, 1));
        await ended;

        void fetch(`/mcp?k=${ctx.token}`, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 2) }).then(
          () => boom("fetch then"),
        );
        await until(() => seen.length >= 3, "the fetch rejection");

        const socket = new WebSocket(`${ctx.origin.replace(/^http/, "ws")}/ws?mode=echo&k=${ctx.token}`);
        socket.onopen = () => socket.send(rpc("ping", {}, 3));
        socket.onmessage = () => boom("websocket onmessage");
        await until(() => seen.length >= 4, "the socket error");
        socket.close();

        const source = new EventSource(`/legacy/sse?k=${ctx.token}`);
        source.addEventListener("endpoint", () => boom("eventsource endpoint listener"));
        source.onmessage = () => {
          source.close();
          boom("eventsource onmessage");
        };
        await until(() => seen.length >= 6, "the EventSource errors");

        const listener = (e: MessageEvent): void => void (e.data?.jsonrpc && boom("message listener"));
        addEventListener("message", listener);
        postMessage(JSON.parse(rpc("notifications/message", {})), "*");
        await until(() => seen.length >= 7, "the message listener error");
        removeEventListener("message", listener);

        setTimeout(() => boom("setTimeout"), 0);
        await until(() => seen.length >= 8, "the timer error");
        await sleep(100);
      } finally {
        onerror = null;
        removeEventListener("unhandledrejection", onUnhandled);
      }
      return { seen };
    },
  },
  {
    name: "errors: the stack of an error thrown by a wrapped built-in is the page's own",
    bug: "T3",
    async run(ctx) {
      return {
        seen: {
          xhrOpen: await stackOf(() => new XMLHttpRequest().open("b a d", "/")),
          xhrHeaderBeforeOpen: await stackOf(() => new XMLHttpRequest().setRequestHeader("A", "b")),
          xhrSendTwice: await stackOf(() => {
            const x = new XMLHttpRequest();
            x.open("POST", `/mcp?k=${ctx.token}`);
            x.send(rpc("ping", {}, 1));
            x.send(rpc("ping", {}, 2));
          }),
          fetchIllegal: await stackOf(() => fetch.call({}, "/api/json")),
          fetchBadMethod: await stackOf(() =>
            fetch(`/mcp?k=${ctx.token}`, { method: "b a d", body: rpc("ping", {}, 3) }),
          ),
          webSocketScheme: await stackOf(() => new WebSocket("ftp://127.0.0.1/")),
          webSocketSendEarly: await stackOf(() =>
            new WebSocket(`${ctx.origin.replace(/^http/, "ws")}/ws?k=${ctx.token}`).send(rpc("ping", {}, 4)),
          ),
          eventSourceUrl: await stackOf(() => new EventSource("http://[::1")),
        },
      };
    },
  },
];
