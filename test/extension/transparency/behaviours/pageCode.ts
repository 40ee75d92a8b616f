import { type Behaviour, type Ctx, mcpHeaders, once, rpc, sleep, until } from "./kit.ts";

/**
 * "The tap never runs page code" (src/page/natives.ts): a page that patches built-ins after document_start — as
 * zone.js, analytics and anti-bot scripts do — must see only its own calls. Each behaviour patches a set of
 * members with counting wrappers that call the originals, makes MCP traffic of every kind, and returns the counts.
 */
type Target = [owner: object, key: string, label: string];

function spy(targets: Target[]): { counts: Map<string, number>; restore(): void } {
  const counts = new Map<string, number>();
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  let busy = false;
  const count = (label: string): void => {
    if (busy) return;
    busy = true;
    counts.set(label, (counts.get(label) ?? 0) + 1);
    busy = false;
  };
  const saved: [object, string, PropertyDescriptor][] = [];
  for (const [owner, key, label] of targets) {
    const d = Object.getOwnPropertyDescriptor(owner, key);
    if (!d) throw new Error(`no ${label}`);
    saved.push([owner, key, d]);
    if (d.get) {
      const get = d.get;
      Object.defineProperty(owner, key, {
        ...d,
        get: function (this: unknown) {
          count(label);
          return apply(get, this, []);
        },
      });
    } else if (typeof d.value === "function") {
      const original = d.value as (...args: unknown[]) => unknown;
      const wrapper = new Proxy(original, {
        apply(target, thisArg, args) {
          count(label);
          return apply(target, thisArg, args);
        },
        construct(target, args, newTarget) {
          count(label);
          return construct(target as unknown as new (...a: unknown[]) => object, args, newTarget);
        },
      });
      Object.defineProperty(owner, key, { ...d, value: wrapper });
    }
  }
  return {
    counts,
    restore() {
      for (const [owner, key, d] of saved.reverse()) Object.defineProperty(owner, key, d);
    },
  };
}

/** MCP traffic of every kind the tap watches; the page's own calls are the same in both browsers. */
async function traffic(ctx: Ctx): Promise<void> {
  const r = await fetch(`/mcp?k=${ctx.token}`, {
    method: "POST",
    headers: mcpHeaders(),
    body: rpc("tools/call", { name: "a" }, 1),
  });
  await r.text();
  const sse = await fetch(`/mcp/sse?k=${ctx.token}&n=3&gap=100`, {
    method: "POST",
    headers: mcpHeaders(),
    body: rpc("tools/call", { name: "b" }, 2),
  });
  const reader = sse.body!.getReader();
  while (!(await reader.read()).done);
  await (
    await fetch(new Request(`/mcp?k=${ctx.token}`, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 3) }))
  ).text();
  await (
    await fetch(`/mcp?k=${ctx.token}`, { method: "POST", headers: mcpHeaders(), body: new Blob([rpc("ping", {}, 4)]) })
  ).text();

  const xhr = new XMLHttpRequest();
  xhr.open("POST", `/mcp?k=${ctx.token}`);
  xhr.setRequestHeader("Content-Type", "application/json");
  const loaded = once(xhr, "loadend");
  xhr.send(rpc("tools/list", {}, 5));
  await loaded;

  const socket = new WebSocket(`${ctx.origin.replace(/^http/, "ws")}/ws?mode=echo&k=${ctx.token}`, "mcp");
  await once(socket, "open");
  socket.send(rpc("ping", {}, 6));
  await once(socket, "message");
  socket.close();
  await once(socket, "close");

  const source = new EventSource(`/legacy/sse?k=${ctx.token}`);
  let messages = 0;
  source.addEventListener("message", () => messages++);
  await until(() => messages >= 2, "two EventSource messages");
  source.close();

  postMessage(JSON.parse(rpc("notifications/message", { level: "info" })), "*");
  await once(window, "message");
  await sleep(300); // the tap posts its records within 250 ms (src/page/emit.ts)
}

/** `toJSON` getters on the shared prototypes, counting every lookup, while `run` makes its traffic. */
async function toJsonLookups(run: () => Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = { "Object.prototype.toJSON": 0, "Array.prototype.toJSON": 0 };
  const protos: [object, string][] = [
    [Object.prototype, "Object.prototype.toJSON"],
    [Array.prototype, "Array.prototype.toJSON"],
  ];
  for (const [proto, label] of protos)
    Object.defineProperty(proto, "toJSON", { configurable: true, get: () => void counts[label]!++ });
  try {
    await run();
  } finally {
    for (const [proto] of protos) delete (proto as { toJSON?: unknown }).toJSON;
  }
  return counts;
}

const sorted = (counts: Map<string, number>): Record<string, number> =>
  Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));

export const pageCodeBehaviours: Behaviour[] = [
  {
    // The built-in `then` and `await` ask a promise for its constructor (SpeciesConstructor, PromiseResolve).
    name: "page code: a getter the page put on Promise.prototype.constructor (MCP fetch with JSON and SSE bodies)",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const original = Object.getOwnPropertyDescriptor(Promise.prototype, "constructor")!;
      let calls = 0;
      Object.defineProperty(Promise.prototype, "constructor", {
        configurable: true,
        get() {
          calls++;
          return Promise;
        },
      });
      try {
        const r = await fetch(`/mcp?k=${ctx.token}`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("tools/call", { name: "a" }, 1),
        });
        const json = await r.text();
        const sse = await fetch(`/mcp/sse?k=${ctx.token}&n=3&gap=20`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("tools/call", { name: "b" }, 2),
        });
        const text = await sse.text();
        await new Promise((resolve) => setTimeout(resolve, 400)); // past the tap's post (src/page/emit.ts)
        return { seen: { calls, json: json.length > 0, text: text.length > 0 } };
      } finally {
        Object.defineProperty(Promise.prototype, "constructor", original);
      }
    },
  },
  {
    // Array destructuring calls Array.prototype[Symbol.iterator]; the tap looks at every request's URL for a host API.
    name: "page code: Array.prototype[Symbol.iterator] patched while the page calls a host's /api/mcp/ endpoints",
    async run(ctx) {
      const original = Array.prototype[Symbol.iterator];
      let calls = 0;
      // eslint-disable-next-line no-extend-native
      Array.prototype[Symbol.iterator] = function (this: unknown[]) {
        calls++;
        return original.call(this);
      };
      try {
        const r = await fetch(`/api/mcp/send?k=${ctx.token}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ message: JSON.parse(rpc("tools/list", {}, 1)) }),
        });
        const status = r.status;
        await r.text();
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { seen: { calls, status } };
      } finally {
        Array.prototype[Symbol.iterator] = original;
      }
    },
  },
  {
    // JSON.stringify would call an own toJSON the page planted on the parsed response before the tap read it.
    name: "page code: an own toJSON planted on xhr.response (responseType json) before the tap reads it",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      let calls = 0;
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/mcp?k=${ctx.token}`);
      xhr.setRequestHeader("Content-Type", "application/json");
      xhr.setRequestHeader("Accept", "application/json, text/event-stream");
      xhr.responseType = "json";
      xhr.onreadystatechange = () => {
        if (xhr.readyState !== 4 || xhr.response === null || typeof xhr.response !== "object") return;
        (xhr.response as { toJSON?: () => unknown }).toJSON = () => {
          calls++;
          return "the page's";
        };
      };
      const loaded = once(xhr, "loadend");
      xhr.send(rpc("tools/call", { name: "a" }, 1));
      await loaded;
      await sleep(400);
      return { seen: { calls, keys: Object.keys(xhr.response as object) } };
    },
  },
  {
    // The tap posts its records as JSON; JSON.stringify would ask each record for `toJSON` through these prototypes.
    name: "page code: toJSON getters the page put on Object.prototype and Array.prototype (fetch JSON and SSE)",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const seen = await toJsonLookups(async () => {
        const r = await fetch(`/mcp?k=${ctx.token}`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("tools/call", { name: "a" }, 1),
        });
        await r.json();
        const sse = await fetch(`/mcp/sse?k=${ctx.token}&n=3&gap=20`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("tools/call", { name: "b" }, 2),
        });
        const reader = sse.body!.getReader();
        while (!(await reader.read()).done);
        await sleep(400); // past the tap's post (src/page/emit.ts: within 250 ms)
      });
      return { seen };
    },
  },
  {
    // The postMessage and XHR taps write page data (a message's object, an XHR json response) as JSON text.
    name: "page code: toJSON getters the page put on Object.prototype and Array.prototype (postMessage and XHR json)",
    bug: "T9",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const seen = await toJsonLookups(async () => {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", `/mcp?k=${ctx.token}`);
        xhr.setRequestHeader("Content-Type", "application/json");
        xhr.setRequestHeader("Accept", "application/json, text/event-stream");
        xhr.responseType = "json";
        const loaded = once(xhr, "loadend");
        xhr.send(rpc("tools/call", { name: "a" }, 1));
        await loaded;
        postMessage(
          JSON.parse(rpc("tools/call", { name: "b", arguments: { list: [1, [2, { deep: true }]] } }, 2)),
          "*",
        );
        await once(window, "message");
        await sleep(400); // past the tap's post (src/page/emit.ts: within 250 ms)
      });
      return { seen };
    },
  },
  {
    name: "page code: getters and methods the page patched on Response, Request, Headers, XHR, events, sockets",
    timing: true,
    bug: "T5",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const targets: Target[] = [
        ...["status", "headers", "body", "ok", "url", "type"].map(
          (k): Target => [Response.prototype, k, `Response.${k}`],
        ),
        ...["clone", "text", "json", "arrayBuffer"].map((k): Target => [Response.prototype, k, `Response.${k}()`]),
        ...["url", "method", "headers", "body"].map((k): Target => [Request.prototype, k, `Request.${k}`]),
        ...["clone", "text"].map((k): Target => [Request.prototype, k, `Request.${k}()`]),
        [Headers.prototype, "get", "Headers.get()"] as Target,
        [Headers.prototype, "forEach", "Headers.forEach()"] as Target,
        ...["text", "arrayBuffer"].map((k): Target => [Blob.prototype, k, `Blob.${k}()`]),
        ...["size", "type"].map((k): Target => [Blob.prototype, k, `Blob.${k}`]),
        ...["readyState", "status", "responseText", "responseType", "response", "responseURL"].map(
          (k): Target => [XMLHttpRequest.prototype, k, `XMLHttpRequest.${k}`],
        ),
        [XMLHttpRequest.prototype, "getResponseHeader", "XMLHttpRequest.getResponseHeader()"] as Target,
        ...["data", "origin", "source", "lastEventId"].map(
          (k): Target => [MessageEvent.prototype, k, `MessageEvent.${k}`],
        ),
        ...["url", "protocol", "readyState", "binaryType"].map(
          (k): Target => [WebSocket.prototype, k, `WebSocket.${k}`],
        ),
        ...["url", "readyState"].map((k): Target => [EventSource.prototype, k, `EventSource.${k}`]),
        [CloseEvent.prototype, "wasClean", "CloseEvent.wasClean"] as Target,
        ...["getReader", "cancel", "tee"].map((k): Target => [ReadableStream.prototype, k, `ReadableStream.${k}()`]),
        [ReadableStreamDefaultReader.prototype, "read", "ReadableStreamDefaultReader.read()"] as Target,
        [Promise.prototype, "catch", "Promise.catch()"] as Target,
        [TextDecoder.prototype, "decode", "TextDecoder.decode()"] as Target,
      ].filter(([owner, key]) => Object.getOwnPropertyDescriptor(owner, key));
      const { counts, restore } = spy(targets);
      try {
        await traffic(ctx);
      } finally {
        restore();
      }
      return { seen: sorted(counts) };
    },
  },
  {
    name: "page code: built-ins the page replaced (Reflect, Object, Array, JSON, String, Set, WeakMap members)",
    bug: "T5",
    mcp: { transport: "http", url: () => "/mcp" },
    async run(ctx) {
      const targets: Target[] = [
        [Reflect, "apply", "Reflect.apply"],
        [Reflect, "construct", "Reflect.construct"],
        [Object, "keys", "Object.keys"],
        [Object, "defineProperty", "Object.defineProperty"],
        [Object, "getOwnPropertyDescriptor", "Object.getOwnPropertyDescriptor"],
        [Array, "isArray", "Array.isArray"],
        [ArrayBuffer, "isView", "ArrayBuffer.isView"],
        [JSON, "parse", "JSON.parse"],
        [JSON, "stringify", "JSON.stringify"],
        [window, "String", "String()"],
        [Math, "min", "Math.min"],
        [Symbol, "for", "Symbol.for"],
        ...["push", "includes", "slice", "indexOf", "join"].map((k): Target => [Array.prototype, k, `Array.${k}()`]),
        ...["includes", "toLowerCase", "toUpperCase", "split", "slice", "trim", "indexOf", "startsWith", "replace"].map(
          (k): Target => [String.prototype, k, `String.${k}()`],
        ),
        ...["add", "has"].map((k): Target => [Set.prototype, k, `Set.${k}()`]),
        ...["get", "set", "has"].map((k): Target => [WeakMap.prototype, k, `WeakMap.${k}()`]),
        ...["add", "has"].map((k): Target => [WeakSet.prototype, k, `WeakSet.${k}()`]),
        [RegExp.prototype, "test", "RegExp.test()"],
        [RegExp.prototype, "exec", "RegExp.exec()"],
      ];
      const { counts, restore } = spy(targets);
      try {
        await traffic(ctx);
      } finally {
        restore();
      }
      return { seen: sorted(counts) };
    },
  },
];
