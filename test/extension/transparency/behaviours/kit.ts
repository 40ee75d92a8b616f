/**
 * What every behaviour shares. Behaviours are page code: bundled by esbuild into /harness.js and run in Chromium,
 * once without the extension and once with dist/chrome loaded. Each returns what the page observed (`seen`,
 * compared deepEqual between the two browsers) and, for the timing sanity check only, `measured` (compared with
 * generous bounds in the test, never deepEqual).
 */
export interface Ctx {
  /** Unique per run: keeps the server's state of each run apart. The test replaces it by `<token>` before comparing. */
  token: string;
  origin: string;
  /** A second 127.0.0.1 origin (another port). */
  cross: string;
  /** An origin on a port nothing listens on. */
  refused: string;
}

export interface Observed {
  seen: unknown;
  measured?: Record<string, number | number[]>;
}

/** MCP-looking traffic of a behaviour: in the tapped browser the worker must hold a record of this transport and URL. */
export interface McpTraffic {
  transport: "http" | "eventsource" | "websocket" | "postMessage";
  /** A part of the record's URL (a path, or an origin for postMessage). */
  url: (ctx: Ctx) => string;
  /** Text no record of the tab may hold (credentials the traffic carried besides its MCP). */
  never?: string[];
}

export interface Behaviour {
  name: string;
  mcp?: McpTraffic;
  /**
   * What the page observes depends on when data arrives (chunk boundaries, progress events): on a loaded machine
   * a late main thread merges chunks in either browser, so a difference is retried before it counts.
   */
  timing?: boolean;
  /**
   * Traffic the tap must leave alone (issue 9: a chat page's own streams and API calls): in the tapped browser the
   * worker must hold no record whose URL contains this once the behaviour ran.
   */
  unrecorded?: (ctx: Ctx) => string;
  /** The entry of test/extension/TAP-BUGS.md this behaviour shows, while the tap has that bug. */
  bug?: string;
  run(ctx: Ctx): Promise<Observed>;
}

export const SESSION = "sess-7f3a";

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const rpc = (method: string, params: object, id?: number | string): string =>
  JSON.stringify(id === undefined ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id, method, params });

/** The request headers of a Streamable HTTP client (2025-11-25). */
export const mcpHeaders = (): Record<string, string> => ({
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "Mcp-Session-Id": SESSION,
  "MCP-Protocol-Version": "2025-11-25",
});

/** An error as a page sees it, without `stack` (the stack has a behaviour of its own). */
export function describeError(error: unknown): unknown {
  if (error === null || (typeof error !== "object" && typeof error !== "function"))
    return { thrown: typeof error, value: String(error) };
  const e = error as { name?: unknown; message?: unknown; code?: unknown; constructor?: { name?: unknown } };
  return {
    tag: Object.prototype.toString.call(error),
    ctor: e.constructor?.name,
    name: e.name,
    message: e.message,
    ...(typeof e.code === "number" && { code: e.code }),
    isError: error instanceof Error,
    isDomException: error instanceof DOMException,
  };
}

/** Settles a promise into a plain description: the page's view of a fulfilment or a rejection. */
export async function settle<T>(promise: Promise<T>, describe: (value: T) => unknown = (v) => v): Promise<unknown> {
  try {
    return { fulfilled: describe(await promise) };
  } catch (error) {
    return { rejected: describeError(error) };
  }
}

/** Runs `fn` and describes a synchronous throw (or the return value). */
export function attempt(fn: () => unknown): unknown {
  try {
    return { returned: fn() };
  } catch (error) {
    return { threw: describeError(error) };
  }
}

/** Response headers in iteration order; `date` (a clock) is left out. */
export const headerList = (headers: Headers): [string, string][] =>
  [...headers].filter(([name]) => name !== "date" && name !== "keep-alive");

export function responseHead(r: Response): unknown {
  return {
    status: r.status,
    statusText: r.statusText,
    ok: r.ok,
    type: r.type,
    url: r.url,
    redirected: r.redirected,
    headers: headerList(r.headers),
    bodyIsNull: r.body === null,
    bodyUsed: r.bodyUsed,
  };
}

export interface Chunk {
  text: string;
  bytes: number;
  at: number;
}

/** Reads a body with reader.read(), keeping each result as the page got it; `pause` runs after every read. */
export async function readChunks(
  body: ReadableStream<Uint8Array>,
  pause?: () => Promise<void>,
  until?: (soFar: string) => boolean,
): Promise<{ chunks: Chunk[]; reader: ReadableStreamDefaultReader<Uint8Array>; done: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const chunks: Chunk[] = [];
  let soFar = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, reader, done: true };
    const text = decoder.decode(value, { stream: true });
    soFar += text;
    chunks.push({ text, bytes: value.byteLength, at: performance.now() });
    if (until?.(soFar)) return { chunks, reader, done: false };
    if (pause) await pause();
  }
}

/** Gaps between consecutive chunk arrivals, ms. */
export const gaps = (chunks: Chunk[]): number[] =>
  chunks.slice(1).map((c, i) => Math.round((c.at - chunks[i]!.at) * 10) / 10);

/** The server's view of this run (`/stats`), fetched with an ordinary, non-MCP request. */
export async function stats(ctx: Ctx): Promise<{
  written: number;
  closedEarly: boolean;
  finished: boolean;
  connections: number;
  lastEventIds: (string | null)[];
  wsClose?: { code?: number; reason: string };
  wsReceived: { kind: string; value: string }[];
}> {
  const r = await fetch(`/stats?k=${ctx.token}`, { cache: "no-store" });
  return r.json();
}

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Resolves on the first event of `type` on `target` for which `accept` holds. */
export function once<E extends Event>(
  target: EventTarget,
  type: string,
  accept: (event: E) => boolean = () => true,
  timeoutMs = 8000,
): Promise<E> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event within ${timeoutMs} ms`)), timeoutMs);
    const listener = (event: Event): void => {
      if (!accept(event as E)) return;
      clearTimeout(timer);
      target.removeEventListener(type, listener);
      resolve(event as E);
    };
    target.addEventListener(type, listener);
  });
}

/** Waits until `check` holds, polling; throws after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
