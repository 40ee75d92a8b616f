import type { RecordDraft } from "../shared/tapRecord.ts";
import type { Natives } from "./natives.ts";
import { capped, isEventStream, isJsonType, looksJsonRpc, pickHeaders, scanHeaders, type KeptHeaders, type Tap } from "./mcp.ts";
import { createTextFeed } from "./sse.ts";
import { replaceMethod } from "./wrap.ts";

interface XhrRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** Set by send() when the request is MCP. */
  exchange?: string;
  kept?: KeptHeaders;
  headAt?: number;
  sse?: (whole: string) => void;
  ended?: boolean;
  /** The reserved place of a non-SSE response (emit.ts `reserve`). */
  fill?: (records: RecordDraft[]) => void;
}

/**
 * `XMLHttpRequest`: open/setRequestHeader/send are wrapped on the prototype (instances and the constructor stay
 * the browser's). An MCP send gets listeners of ours, added once per object: readyState 2 gives the head, 3 the
 * SSE events so far (text response types), 4 the body; abort/error/timeout give a failed end.
 */
export function tapXhr(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  const proto = win.XMLHttpRequest?.prototype;
  if (!proto) return;
  const requests = new WeakMap<XMLHttpRequest, XhrRequest>();
  const watched = new WeakSet<XMLHttpRequest>();

  replaceMethod(proto, "open", {
    apply(target, xhr: XMLHttpRequest, args: unknown[]) {
      const result = Reflect.apply(target, xhr, args);
      try {
        requests.set(xhr, { method: String(args[0]).toUpperCase(), url: new N.URL(String(args[1]), win.document.baseURI).href, headers: [] });
      } catch {
        requests.delete(xhr);
      }
      return result;
    },
  });

  replaceMethod(proto, "setRequestHeader", {
    apply(target, xhr: XMLHttpRequest, args: unknown[]) {
      const result = Reflect.apply(target, xhr, args);
      const request = requests.get(xhr);
      if (request && request.headers.length < 64) request.headers.push([String(args[0]), String(args[1])]);
      return result;
    },
  });

  replaceMethod(proto, "send", {
    apply(target, xhr: XMLHttpRequest, args: unknown[]) {
      let request: XhrRequest | undefined;
      try {
        request = start(xhr, args[0]);
      } catch {
        request = undefined;
      }
      if (!request) return Reflect.apply(target, xhr, args);
      try {
        return Reflect.apply(target, xhr, args);
      } catch (error) {
        end(request, error instanceof Error ? error.message : String(error));
        throw error;
      }
    },
  });

  const draft = (request: XhrRequest, record: Record<string, unknown>): RecordDraft =>
    ({ transport: "http", exchange: request.exchange, url: request.url, client: tap.client, ...record }) as RecordDraft;
  const emit = (request: XhrRequest, record: Record<string, unknown>): void => tap.emit(draft(request, record));
  const end = (request: XhrRequest, error?: string): void => {
    if (request.ended) return;
    request.ended = true;
    const record = draft(request, { time: tap.now(), kind: "end", ...(error !== undefined && { error }) });
    if (request.fill) request.fill([record]);
    else tap.emit(record);
    request.fill = undefined;
  };

  function start(xhr: XMLHttpRequest, body: unknown): XhrRequest | undefined {
    const request = requests.get(xhr);
    if (!request) return undefined;
    const text = typeof body === "string" ? body : body instanceof ArrayBuffer || ArrayBuffer.isView(body) ? tap.decode(body) : undefined;
    const scan = scanHeaders(request.headers, N.Headers);
    const mcp = (text !== undefined && looksJsonRpc(text)) || scan.mcp || (request.method === "GET" && scan.accept.includes("text/event-stream") && tap.endpoints.has(request.url.split(/[?#]/)[0]!));
    if (!mcp) return undefined;
    tap.endpoints.add(request.url.split(/[?#]/)[0]!);
    request.exchange = tap.id("x");
    request.kept = scan.kept;
    if (text) tap.emitSent(draft(request, { time: tap.now(), kind: "message", direction: "c2s", stream: "body", method: request.method, ...capped(text), ...(scan.kept && { headers: scan.kept }) }));
    if (!watched.has(xhr)) {
      watched.add(xhr);
      N.listen.call(xhr, "readystatechange", () => guard(() => onState(xhr)));
      N.listen.call(xhr, "progress", () => guard(() => onState(xhr)));
      for (const [type, error] of [["abort", "abort"], ["error", "network"], ["timeout", "timeout"]] as const) {
        N.listen.call(xhr, type, () => guard(() => {
          const current = requests.get(xhr);
          if (current?.exchange) end(current, error);
        }));
      }
    }
    return request;
  }

  function onState(xhr: XMLHttpRequest): void {
    const request = requests.get(xhr);
    if (!request?.exchange || request.ended) return;
    const state = xhr.readyState;
    if (state >= 2 && request.headAt === undefined) {
      if (xhr.status === 0) return; // failed: the abort/error/timeout listener ends it
      request.headAt = tap.now();
      const contentType = xhr.getResponseHeader("content-type");
      if (isEventStream(contentType)) {
        const stream = request.method === "GET" ? "get-sse" : "post-sse";
        emit(request, { time: request.headAt, kind: "response", status: xhr.status, ...headers(xhr), emptyBody: false });
        request.sse = createTextFeed((event) => {
          if (event.data.trim() === "") return;
          emit(request, {
            time: tap.now(),
            kind: "message",
            direction: "s2c",
            stream,
            method: request.method,
            ...capped(event.data),
            ...(stream === "get-sse" && request.kept && { headers: request.kept }),
            ...(event.id !== undefined && { eventId: event.id }),
            ...(event.event !== undefined && event.event !== "message" && { event: event.event }),
          });
        });
      } else request.fill = tap.reserve();
    }
    if (request.sse && state >= 3 && (xhr.responseType === "" || xhr.responseType === "text")) request.sse(xhr.responseText);
    if (state !== 4 || xhr.status === 0) return;
    if (request.sse) return end(request);
    const head = { time: request.headAt, kind: "response", status: xhr.status, ...headers(xhr) };
    const finish = (text: string | undefined): void => {
      const records = [draft(request, { ...head, ...(text !== undefined && { emptyBody: text.length === 0 }) })];
      if (text && isJsonType(xhr.getResponseHeader("content-type"))) records.push(draft(request, { time: tap.now(), kind: "message", direction: "s2c", stream: "body", method: request.method, ...capped(text) }));
      records.push(draft(request, { time: tap.now(), kind: "end" }));
      request.ended = true;
      request.fill?.(records);
      request.fill = undefined;
    };
    const type = xhr.responseType;
    if (type === "" || type === "text") finish(xhr.responseText);
    else if (type === "json") finish(xhr.response === null ? undefined : N.stringify(xhr.response));
    else if (type === "arraybuffer" && xhr.response) finish(tap.decode(xhr.response as ArrayBuffer));
    else if (type === "blob" && xhr.response) {
      request.ended = true; // no abort can follow a completed load; the end comes with the text
      N.then.call(N.blobText.call(xhr.response as Blob), finish, () => finish(undefined));
    } else finish(undefined);
  }

  const headers = (xhr: XMLHttpRequest) => {
    const kept = pickHeaders((name) => xhr.getResponseHeader(name));
    return kept ? { headers: kept } : {};
  };
}

function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // Never into the page.
  }
}
