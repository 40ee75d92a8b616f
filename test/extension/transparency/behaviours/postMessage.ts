import { type Behaviour, rpc, sleep, until } from "./kit.ts";

/** The tap's envelope tag (src/shared/tags.ts TAP_SOURCE), as a page that knows it would write it. */
const TAP_TAG = "mcp-elicitation-inspector/tap";

/** Loads /frame.html from `origin`, asks it for its payloads, and logs every message the window receives. */
async function talkToFrame(origin: string): Promise<unknown> {
  const frame = document.createElement("iframe");
  const log: unknown[] = [];
  let done = false;
  let echo: unknown;
  const listener = (e: MessageEvent): void => {
    if (e.source !== frame.contentWindow) return void log.push({ foreign: true, data: e.data as unknown });
    if (e.data === "done") done = true;
    else if (e.data && typeof e.data === "object" && "echoed" in e.data) echo = e.data;
    else
      log.push({
        data: e.data as unknown,
        origin: e.origin,
        fromFrame: e.source === frame.contentWindow,
        ports: e.ports.length,
        lastEventId: e.lastEventId,
        trusted: e.isTrusted,
        ctor: e.constructor.name,
      });
  };
  addEventListener("message", listener);
  try {
    const ready = new Promise<void>((resolve) =>
      addEventListener("message", function r(e) {
        if (e.data === "ready") {
          removeEventListener("message", r);
          resolve();
        }
      }),
    );
    frame.src = `${origin}/frame.html`;
    document.body.append(frame);
    await ready;
    frame.contentWindow!.postMessage("go", origin);
    await until(() => done, "the frame's payloads");
    frame.contentWindow!.postMessage(
      { echo: JSON.parse(rpc("tools/call", { name: "from-parent" }, 9)) as unknown },
      origin,
    );
    await until(() => echo !== undefined, "the frame's echo");
  } finally {
    removeEventListener("message", listener);
    frame.remove();
  }
  return { log, echo };
}

/** Messages between windows: iframes of the same and of another origin, the window to itself. */
export const postMessageBehaviours: Behaviour[] = [
  {
    name: "postMessage: a same-origin iframe posts JSON-RPC and other payloads (origin, source)",
    mcp: { transport: "postMessage", url: (ctx) => ctx.origin },
    async run(ctx) {
      return { seen: await talkToFrame(ctx.origin) };
    },
  },
  {
    name: "postMessage: a cross-origin iframe posts JSON-RPC and other payloads (origin, source)",
    mcp: { transport: "postMessage", url: (ctx) => ctx.cross },
    async run(ctx) {
      return { seen: await talkToFrame(ctx.cross) };
    },
  },
  {
    name: "postMessage: the window to itself, onmessage and listeners in order, stopImmediatePropagation",
    mcp: { transport: "postMessage", url: (ctx) => ctx.origin },
    async run() {
      const log: unknown[] = [];
      const capture = (e: MessageEvent): void => {
        log.push(["capture", e.data as unknown, e.eventPhase]);
        if (e.data === "stop") e.stopImmediatePropagation();
      };
      const bubble = (e: MessageEvent): void => void log.push(["bubble", e.data as unknown, e.eventPhase]);
      addEventListener("message", capture, true);
      addEventListener("message", bubble);
      onmessage = (e) => log.push(["onmessage", e.data as unknown, e.origin, e.source === window]);
      try {
        const payloads: unknown[] = [
          JSON.parse(rpc("elicitation/create", { message: "hi" }, 1)),
          rpc("notifications/message", { level: "info" }),
          "plain",
          "stop",
          { jsonrpc: "2.0", id: 2, result: { action: "decline" } },
          "end",
        ];
        for (const payload of payloads) postMessage(payload, "*");
        await until(
          () => log.some((e) => (e as unknown[])[1] === "end" && (e as unknown[])[0] === "onmessage"),
          "the last message",
        );
        const channel = new MessageChannel();
        const viaPort: unknown[] = [];
        channel.port2.onmessage = (e) => viaPort.push(e.data);
        channel.port1.postMessage(JSON.parse(rpc("ping", {}, 3)));
        await until(() => viaPort.length === 1, "the port message");
        channel.port1.close();
        return { seen: { log, viaPort } };
      } finally {
        removeEventListener("message", capture, true);
        removeEventListener("message", bubble);
        onmessage = null;
      }
    },
  },
  {
    name: "postMessage: a page message and event that look like the tap's own still reach the page",
    bug: "T8",
    async run() {
      const got: unknown[] = [];
      const listener = (e: MessageEvent): void => void got.push(e.data);
      addEventListener("message", listener);
      const custom: unknown[] = [];
      const onCustom = (e: Event): void => void custom.push((e as CustomEvent).detail);
      addEventListener(TAP_TAG, onCustom);
      try {
        postMessage({ source: TAP_TAG, v: 1, kind: "records", records: [] }, "*");
        postMessage({ source: TAP_TAG, hello: "page" }, "*");
        postMessage("after", "*");
        await until(() => got.includes("after"), "the last message");
        dispatchEvent(new CustomEvent(TAP_TAG, { detail: "page's own event" }));
        await sleep(10);
        return { seen: { got, custom } };
      } finally {
        removeEventListener("message", listener);
        removeEventListener(TAP_TAG, onCustom);
      }
    },
  },
  {
    name: "postMessage: a JSON-RPC message holding an array of length 2^32 - 1 (sparse) arrives, and the next one after it",
    mcp: { transport: "postMessage", url: (ctx) => ctx.origin },
    async run() {
      const got: unknown[] = [];
      const listener = (e: MessageEvent): void => {
        const data = e.data as { x?: unknown[]; id?: unknown };
        got.push(Array.isArray(data?.x) ? { length: data.x.length, holes: !(0 in data.x), fifth: data.x[5] } : data);
      };
      addEventListener("message", listener);
      try {
        const sparse: unknown[] = [];
        sparse.length = 2 ** 32 - 1;
        sparse[5] = "kept";
        const sent = performance.now();
        postMessage({ jsonrpc: "2.0", x: sparse }, "*");
        postMessage({ jsonrpc: "2.0", id: 1, result: {} }, "*");
        await until(() => got.length === 2, "both messages", 20_000);
        return { seen: got, measured: { nextAfter: performance.now() - sent } };
      } finally {
        removeEventListener("message", listener);
      }
    },
  },
  {
    name: "postMessage: a MessageEvent the page dispatches itself, naming another origin, is the page's alone",
    unrecorded: () => "forged-origin.example",
    async run() {
      const got: unknown[] = [];
      const listener = (e: MessageEvent): void =>
        void got.push({ data: e.data as unknown, origin: e.origin, trusted: e.isTrusted });
      addEventListener("message", listener);
      try {
        const data = JSON.parse(
          rpc("elicitation/create", { message: "forged", requestedSchema: { type: "object", properties: {} } }, 1),
        ) as unknown;
        dispatchEvent(new MessageEvent("message", { data, origin: "https://forged-origin.example" }));
        dispatchEvent(
          new MessageEvent("message", {
            data: rpc("notifications/message", { level: "info" }),
            origin: "https://forged-origin.example",
          }),
        );
        await sleep(50);
        return { seen: got };
      } finally {
        removeEventListener("message", listener);
      }
    },
  },
];
