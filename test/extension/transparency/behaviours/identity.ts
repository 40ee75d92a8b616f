import { attempt, type Behaviour, mcpHeaders, rpc, settle } from "./kit.ts";

/** The functions the tap replaces (src/page/*Tap.ts), by the names a page would reach them. */
const wrapped = (): [string, unknown][] => [
  ["fetch", window.fetch],
  ["XMLHttpRequest.prototype.open", XMLHttpRequest.prototype.open],
  ["XMLHttpRequest.prototype.setRequestHeader", XMLHttpRequest.prototype.setRequestHeader],
  ["XMLHttpRequest.prototype.send", XMLHttpRequest.prototype.send],
  ["EventSource", EventSource],
  ["EventSource.prototype.close", EventSource.prototype.close],
  ["WebSocket", WebSocket],
  ["WebSocket.prototype.send", WebSocket.prototype.send],
];

const descriptor = (owner: object, key: string): unknown => {
  const d = Object.getOwnPropertyDescriptor(owner, key);
  return (
    d && {
      writable: d.writable,
      enumerable: d.enumerable,
      configurable: d.configurable,
      type: typeof d.value,
      get: typeof d.get,
      set: typeof d.set,
    }
  );
};

/** Own property names of the objects the tap touches: nothing added, nothing removed. */
const shapes = (): Record<string, string[]> => ({
  window: Object.getOwnPropertyNames(window).sort(),
  windowSymbols: Object.getOwnPropertySymbols(window).map(String),
  document: Object.getOwnPropertyNames(document).sort(),
  "EventTarget.prototype": Object.getOwnPropertyNames(EventTarget.prototype).sort(),
  "XMLHttpRequest.prototype": Object.getOwnPropertyNames(XMLHttpRequest.prototype).sort(),
  "EventSource.prototype": Object.getOwnPropertyNames(EventSource.prototype).sort(),
  "WebSocket.prototype": Object.getOwnPropertyNames(WebSocket.prototype).sort(),
  "Response.prototype": Object.getOwnPropertyNames(Response.prototype).sort(),
  "Request.prototype": Object.getOwnPropertyNames(Request.prototype).sort(),
  "Promise.prototype": Object.getOwnPropertyNames(Promise.prototype).sort(),
  "Function.prototype": Object.getOwnPropertyNames(Function.prototype).sort(),
  EventSource: Object.getOwnPropertyNames(EventSource).sort(),
  WebSocket: Object.getOwnPropertyNames(WebSocket).sort(),
  fetch: Object.getOwnPropertyNames(window.fetch).sort(),
});

/** What the page can learn about the wrapped built-ins: identity, reflection, global shape. */
export const identityBehaviours: Behaviour[] = [
  {
    name: "identity: Function.prototype.toString of fetch and of the wrapped XHR, EventSource and WebSocket members",
    bug: "T1",
    async run() {
      return {
        seen: wrapped().map(([name, fn]) => ({
          name,
          toString: Function.prototype.toString.call(fn),
          ownToString: (fn as { toString(): string }).toString(),
          viaString: String(fn),
          templ: `${fn as string}`,
        })),
      };
    },
  },
  {
    name: "identity: name, length, prototype, descriptors and equality of the wrapped built-ins",
    async run() {
      const fn = window.fetch;
      return {
        seen: {
          members: wrapped().map(([name, f]) => {
            const g = f as { name: string; length: number; prototype?: unknown };
            return {
              name,
              fnName: g.name,
              length: g.length,
              hasPrototype: "prototype" in g,
              proto: Object.getPrototypeOf(g) === Function.prototype,
              own: Reflect.ownKeys(g).map(String).sort(),
              typeof: typeof f,
            };
          }),
          equal: [
            window.fetch === globalThis.fetch,
            self.fetch === fn,
            fn === window.fetch,
            XMLHttpRequest.prototype.open === new XMLHttpRequest().open,
            EventSource.prototype.constructor === EventSource,
            WebSocket.prototype.constructor === WebSocket,
          ],
          descriptors: [
            descriptor(window, "fetch"),
            descriptor(window, "EventSource"),
            descriptor(window, "WebSocket"),
            descriptor(window, "XMLHttpRequest"),
            descriptor(XMLHttpRequest.prototype, "open"),
            descriptor(XMLHttpRequest.prototype, "send"),
            descriptor(WebSocket.prototype, "send"),
            descriptor(EventSource.prototype, "close"),
          ],
          newFetch: attempt(() => new (fn as unknown as new () => unknown)()),
          newOpen: attempt(() => new (XMLHttpRequest.prototype.open as unknown as new () => unknown)()),
          callEventSource: attempt(() => (EventSource as unknown as () => unknown)()),
          callWebSocket: attempt(() => (WebSocket as unknown as () => unknown)()),
          constants: [WebSocket.OPEN, WebSocket.CLOSING, EventSource.OPEN, WebSocket.prototype.OPEN],
          bound: [fn.bind(window).name, fn.call.name],
        },
      };
    },
  },
  {
    name: "identity: subclasses of EventSource and WebSocket, instanceof and constructor",
    mcp: { transport: "websocket", url: () => "/ws" },
    async run(ctx) {
      class MySource extends EventSource {
        tag = "mine";
      }
      class MySocket extends WebSocket {
        tag = "mine";
      }
      const s = new MySource(`/sse/plain?k=${ctx.token}`);
      const w = new MySocket(`${ctx.origin.replace(/^http/, "ws")}/ws?mode=echo&k=${ctx.token}`, "mcp");
      const seen = {
        source: [
          s instanceof MySource,
          s instanceof EventSource,
          s.constructor === MySource,
          Object.getPrototypeOf(MySource) === EventSource,
          s.tag,
          Object.prototype.toString.call(s),
        ],
        socket: [
          w instanceof MySocket,
          w instanceof WebSocket,
          w.constructor === MySocket,
          Object.getPrototypeOf(MySocket) === WebSocket,
          w.tag,
          Object.prototype.toString.call(w),
        ],
        plain: [
          new XMLHttpRequest().constructor === XMLHttpRequest,
          Object.getPrototypeOf(new XMLHttpRequest()) === XMLHttpRequest.prototype,
        ],
      };
      await new Promise((resolve) => (w.onopen = resolve));
      w.send(rpc("ping", {}, 1));
      await new Promise((resolve) => (w.onmessage = resolve));
      s.close();
      w.close();
      return { seen };
    },
  },
  {
    name: "identity: instanceof Response, ReadableStream and Promise for MCP and ordinary fetches",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const describe = async (p: Promise<Response>) => {
        const isPromise = [
          p instanceof Promise,
          Object.getPrototypeOf(p) === Promise.prototype,
          p.constructor === Promise,
          Object.prototype.toString.call(p),
        ];
        const r = await p;
        return {
          isPromise,
          response: [
            r instanceof Response,
            r.constructor === Response,
            Object.getPrototypeOf(r) === Response.prototype,
            Object.prototype.toString.call(r),
          ],
          body: [
            r.body instanceof ReadableStream,
            Object.prototype.toString.call(r.body),
            r.headers instanceof Headers,
          ],
          text: await r.text(),
        };
      };
      return {
        seen: {
          mcp: await describe(
            fetch(`/mcp?k=${ctx.token}`, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 1) }),
          ),
          sse: await describe(
            fetch(`/mcp/sse?k=${ctx.token}&n=1&gap=10`, {
              method: "POST",
              headers: mcpHeaders(),
              body: rpc("ping", {}, 2),
            }),
          ),
          plain: await describe(fetch("/api/json")),
          thenable: await settle(Promise.resolve(fetch("/api/text")).then((r) => r.text())),
        },
      };
    },
  },
  {
    name: "identity: no new globals or properties (names and symbols), at load and after traffic",
    bug: "T2",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const early = (window as unknown as { __transparency: { early: unknown } }).__transparency.early;
      await (
        await fetch(`/mcp?k=${ctx.token}`, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 1) })
      ).text();
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/mcp?k=${ctx.token}`, false);
      xhr.send(rpc("ping", {}, 2));
      postMessage(JSON.parse(rpc("ping", {}, 3)), "*");
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { seen: { early, now: shapes() } };
    },
  },
  {
    name: "identity: a fresh about:blank iframe's built-ins and globals look like the page's",
    bug: "T1, T2",
    async run() {
      const frame = document.createElement("iframe");
      document.body.append(frame);
      const look = (w: Window & typeof globalThis) => ({
        fetch: Function.prototype.toString.call(w.fetch),
        sameAsPage: [
          w.fetch === window.fetch,
          w.Function.prototype.toString.call(w.fetch) === Function.prototype.toString.call(window.fetch),
        ],
        symbols: Object.getOwnPropertySymbols(w).map(String),
        names: Object.getOwnPropertyNames(w).length,
      });
      const w = frame.contentWindow as Window & typeof globalThis;
      const now = look(w);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const later = look(w);
      frame.remove();
      return { seen: { now, later } };
    },
  },
];
