import { MESSAGE_CAP } from "../shared/tags.ts";
import { hostApiOf, type HostApi } from "./hostApi.ts";
import { isJsonType, looksJsonRpc, scanHeaders, type KeptHeaders, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import {
  ArrayBufferIsView,
  byteLengthOf,
  endpointOf,
  isArrayBuffer,
  ProxyCtor,
  ReflectGet,
  StringPrototypeIncludes,
} from "./primordials.ts";

/** What the tap knows of one fetch it decided (or may decide) to record. */
export interface Plan {
  exchange: string;
  url: string;
  method: string;
  time: number;
  headers: KeptHeaders | undefined;
  /** The request body's text, or a promise of it (Blob and Request bodies are read from a copy). */
  body: string | undefined | Promise<string | undefined>;
  /** Known MCP at call time; undefined while an async body decides; false: followed only for relayed asks. */
  mcp: boolean | undefined;
  /** A call of MCP Inspector v2's backend API (hostApi.ts). */
  host: HostApi | undefined;
  /** A decode rule matches: the answer is recorded whatever its content type. */
  decoded: boolean;
  /** The request's signal was aborted (then every failure is an abort). */
  aborted(): boolean;
}

/** The `body` member of the page's RequestInit, as the browser read it. */
export interface SeenBody {
  read: boolean;
  value: unknown;
}

/** The page's init behind a Proxy that forwards every read (getters run once, with the init as `this`) and notes `body`. */
export function watchInit(init: object, seen: SeenBody): object {
  try {
    return new ProxyCtor(init, {
      __proto__: null,
      get(target: object, key: PropertyKey) {
        const value: unknown = ReflectGet(target, key, target);
        if (key === "body") {
          seen.read = true;
          seen.value = value;
        }
        return value;
      },
    } as ProxyHandler<object>);
  } catch {
    return init;
  }
}

export function planFetch(tap: Tap, N: Natives, request: Request, seen: SeenBody): Plan | undefined {
  const method = N.requestMethod(request);
  const headers = N.requestHeaders(request);
  const scan = scanHeaders((name) => N.headersGet(headers, name));
  const body = seen.value;
  const url = N.requestUrl(request);
  const host = hostApiOf(url, method);
  const decoded = tap.rules.any() && tap.rules.matches(url, method);
  let text: string | undefined;
  let pending: Promise<string | undefined> | undefined;

  if (typeof body === "string") text = body;
  else if (body !== undefined && body !== null) {
    if (isArrayBuffer(body) || ArrayBufferIsView(body)) {
      if (byteLengthOf(body) <= MESSAGE_CAP) text = tap.decode(body as ArrayBuffer);
    } else if (isBlob(N, body)) {
      const type = N.blobType!(body);
      if (N.blobSize!(body) <= MESSAGE_CAP && (type === "" || StringPrototypeIncludes(type, "json") || decoded))
        pending = N.blobText(body as Blob);
    }
    // FormData, URLSearchParams: not JSON-RPC. A ReadableStream body could be, but reading it needs a tee of what
    // the page sends (and `duplex`): not seen (docs/extension.md).
  } else if (
    body === undefined &&
    method !== "GET" &&
    method !== "HEAD" &&
    (isJsonType(scan.kept?.["content-type"]) || decoded)
  ) {
    // A Request input's body, read from a copy of the tap's own Request; what the browser sends is left as it was.
    pending = N.requestText(N.requestClone(request));
  }

  let mcp: boolean | undefined =
    (text !== undefined && looksJsonRpc(text)) || scan.mcp || host !== undefined || decoded ? true : undefined;
  if (!mcp && pending === undefined) {
    // The standalone GET stream of a client that sends no Mcp-* header there: known by its endpoint. Anything
    // else is not MCP, and is followed only for an elicitation the app relays in its own shape (relay.ts).
    mcp =
      method === "GET" &&
      tap.hasEndpoints() &&
      StringPrototypeIncludes(scan.accept, "text/event-stream") &&
      tap.hasEndpoint(endpointOf(url));
  }
  if (mcp) tap.addEndpoint(endpointOf(url));
  const signal = N.requestSignal(request);
  return {
    exchange: tap.id("f"),
    url,
    method,
    time: tap.now(),
    headers: scan.kept,
    body: pending ?? text,
    mcp,
    host,
    decoded,
    aborted: () => N.signalAborted(signal),
  };
}

function isBlob(N: Natives, value: unknown): value is Blob {
  try {
    N.blobSize!(value);
    return true;
  } catch {
    return false;
  }
}
