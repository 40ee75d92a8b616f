import type { RecordDraft } from "../shared/tapRecord.ts";
import { connectSummary, hostApiOf, isHostMessageEvent, type HostApi } from "./hostApi.ts";
import {
  capped,
  failure,
  isEventStream,
  isJsonType,
  looksJsonRpc,
  pickHeaders,
  scanHeaders,
  type KeptHeaders,
  type Tap,
} from "./mcp.ts";
import { dataJson } from "./json.ts";
import type { Natives } from "./natives.ts";
import {
  append,
  ArrayBufferIsView,
  endpointOf,
  isArrayBuffer,
  isBlank,
  PromisePrototypeThen,
  StringPrototypeIncludes,
  StringPrototypeToLowerCase,
  StringPrototypeToUpperCase,
  WeakMapCtor,
  WeakMapPrototypeDelete,
  WeakMapPrototypeGet,
  WeakMapPrototypeHas,
  WeakMapPrototypeSet,
} from "./primordials.ts";
import { createTextFeed } from "./sse.ts";
import type { Wrap } from "./wrap.ts";

interface XhrRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** send() was called since open(): a second send() throws and is not a request. */
  sent?: boolean;
  /** Set by send() when the request is MCP. */
  exchange?: string;
  kept?: KeptHeaders;
  headAt?: number;
  sse?: (whole: string) => void;
  ended?: boolean;
  /** The reserved place of a non-SSE response (emit.ts `reserve`). */
  fill?: (records: RecordDraft[]) => void;
  /** MCP Inspector v2's backend API (hostApi.ts), or a decode rule's match: set by send(). */
  host?: HostApi;
  decoded?: boolean;
}

/**
 * `XMLHttpRequest`: open/setRequestHeader/send are wrapped on the prototype (instances and the constructor stay
 * the browser's). The trap converts each string argument once, in WebIDL order, as the browser would (a template
 * literal: ToString, which throws on a Symbol as WebIDL does), and hands the converted strings to the browser, so
 * a method or URL object's `toString` runs once. An MCP send gets listeners of ours, added once per object:
 * readyState 2 gives the head, 3 the SSE events so far (text response types), 4 the body; abort/error/timeout give a
 * failed end. Everything is read through the built-in accessors (natives.ts).
 */
export function tapXhr(win: Window & typeof globalThis, tap: Tap, N: Natives, wrap: Wrap): void {
  const proto = win.XMLHttpRequest?.prototype;
  if (!proto) return;
  const requests = new WeakMapCtor<XMLHttpRequest, XhrRequest>();
  const watched = new WeakMapCtor<XMLHttpRequest, true>();

  const isXhr = (value: unknown): value is XMLHttpRequest => {
    try {
      N.xhrReadyState(value);
      return true;
    } catch {
      return false;
    }
  };
  /** The arguments with the first `count` converted to strings (ToString, in order), or a throw as the browser's. */
  const converted = (args: unknown[], count: number): unknown[] => {
    const out: unknown[] = [];
    try {
      for (let i = 0; i < args.length; i++) out[i] = i < count ? `${args[i] as string}` : args[i];
    } catch (error) {
      throw wrap.strip(error);
    }
    return out;
  };

  wrap.method(proto, "open", (target, xhr, args) => {
    if (args.length < 2 || !isXhr(xhr)) return wrap.invoke(target, xhr, args);
    const strings = converted(args, 2);
    const result = wrap.invoke(target, xhr, strings);
    try {
      const base = N.baseURI ? N.baseURI(win.document) : undefined;
      const method = strings[0] as string;
      const url = N.urlHref(new N.URL(strings[1] as string, base));
      WeakMapPrototypeSet(requests, xhr, {
        method: isStandardMethod(method) ? StringPrototypeToUpperCase(method) : method,
        url,
        headers: [],
        sent: false,
        exchange: undefined,
        kept: undefined,
        headAt: undefined,
        sse: undefined,
        ended: false,
        fill: undefined,
        host: undefined,
        decoded: false,
      });
    } catch {
      WeakMapPrototypeDelete(requests, xhr);
    }
    return result;
  });

  wrap.method(proto, "setRequestHeader", (target, xhr, args) => {
    if (args.length < 2 || !isXhr(xhr)) return wrap.invoke(target, xhr, args);
    const strings = converted(args, 2);
    const result = wrap.invoke(target, xhr, strings);
    const request = WeakMapPrototypeGet(requests, xhr);
    if (request && request.headers.length < 64) append(request.headers, [strings[0] as string, strings[1] as string]);
    return result;
  });

  wrap.method(proto, "send", (target, xhr, args) => {
    let request: XhrRequest | undefined;
    try {
      request = isXhr(xhr) ? start(xhr, args[0]) : undefined;
    } catch {
      request = undefined;
    }
    try {
      return wrap.invoke(target, xhr, args);
    } catch (error) {
      if (request) guard(() => end(request, failure(N, error)));
      throw error;
    }
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

  /** The header list as Headers would read it: case-insensitive, repeated names joined with ", ". */
  const headerOf =
    (request: XhrRequest) =>
    (name: string): string | null => {
      let value: string | null = null;
      for (let i = 0; i < request.headers.length; i++) {
        const pair = request.headers[i]!;
        if (StringPrototypeToLowerCase(pair[0]) === name) value = value === null ? pair[1] : `${value}, ${pair[1]}`;
      }
      return value;
    };

  function start(xhr: XMLHttpRequest, body: unknown): XhrRequest | undefined {
    const request = WeakMapPrototypeGet(requests, xhr);
    // Only a first send() after open() (in the OPENED state) sends anything.
    if (!request || request.sent || N.xhrReadyState(xhr) !== 1) return undefined;
    request.sent = true;
    let text =
      typeof body === "string"
        ? body
        : isArrayBuffer(body) || ArrayBufferIsView(body)
          ? tap.decode(body as ArrayBuffer)
          : undefined;
    const scan = scanHeaders(headerOf(request));
    const endpoint = endpointOf(request.url);
    request.host = hostApiOf(request.url, request.method);
    request.decoded = tap.rules.any() && tap.rules.matches(request.url, request.method);
    const mcp =
      (text !== undefined && looksJsonRpc(text)) ||
      scan.mcp ||
      request.host !== undefined ||
      request.decoded ||
      (request.method === "GET" &&
        StringPrototypeIncludes(scan.accept, "text/event-stream") &&
        tap.hasEndpoint(endpoint));
    if (!mcp) return undefined;
    tap.addEndpoint(endpoint);
    request.exchange = tap.id("x");
    request.kept = scan.kept;
    if (text && request.host === "connect") text = connectSummary(text);
    if (text)
      emit(request, {
        time: tap.now(),
        kind: "message",
        direction: "c2s",
        stream: "body",
        method: request.method,
        ...capped(text),
        ...(scan.kept && { headers: scan.kept }),
      });
    if (!WeakMapPrototypeHas(watched, xhr)) {
      WeakMapPrototypeSet(watched, xhr, true);
      N.listen(xhr, "readystatechange", () => guard(() => onState(xhr)));
      N.listen(xhr, "progress", () => guard(() => onState(xhr)));
      const failures = [
        ["abort", "abort"],
        ["error", "network"],
        ["timeout", "timeout"],
      ] as const;
      for (let i = 0; i < failures.length; i++) {
        const error = failures[i]![1];
        N.listen(xhr, failures[i]![0], () =>
          guard(() => {
            const current = WeakMapPrototypeGet(requests, xhr);
            if (current?.exchange) end(current, error);
          }),
        );
      }
    }
    return request;
  }

  function onState(xhr: XMLHttpRequest): void {
    const request = WeakMapPrototypeGet(requests, xhr);
    if (!request?.exchange || request.ended) return;
    const state = N.xhrReadyState(xhr);
    const status = N.xhrStatus(xhr);
    if (state >= 2 && request.headAt === undefined) {
      if (status === 0) return; // failed: the abort/error/timeout listener ends it
      request.headAt = tap.now();
      const contentType = N.xhrGetResponseHeader(xhr, "content-type");
      if (isEventStream(contentType)) {
        const stream = request.method === "GET" ? "get-sse" : "post-sse";
        emit(request, { time: request.headAt, kind: "response", status, ...headers(xhr), emptyBody: false });
        request.sse = createTextFeed((event) => {
          if (isBlank(event.data) || (request.host === "events" && !isHostMessageEvent(event))) return;
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
    const type = N.xhrResponseType(xhr);
    if (request.sse && state >= 3 && (type === "" || type === "text")) request.sse(N.xhrResponseText(xhr));
    if (state !== 4 || status === 0) return;
    if (request.sse) return end(request);
    const head = { time: request.headAt, kind: "response", status, ...headers(xhr) };
    const finish = (text: string | undefined, cut?: { text: string; truncated?: number }): void => {
      const records = [draft(request, { ...head, ...(text !== undefined && { emptyBody: text.length === 0 }) })];
      if (text && (isJsonType(N.xhrGetResponseHeader(xhr, "content-type")) || request.decoded))
        append(
          records,
          draft(request, {
            time: tap.now(),
            kind: "message",
            direction: "s2c",
            stream: "body",
            method: request.method,
            ...(cut ?? capped(text)),
          }),
        );
      append(records, draft(request, { time: tap.now(), kind: "end" }));
      request.ended = true;
      request.fill?.(records);
      request.fill = undefined;
    };
    if (type === "" || type === "text") return finish(N.xhrResponseText(xhr));
    const response = N.xhrResponse(xhr);
    if (type === "json") {
      const json = response === null ? undefined : dataJson(response);
      finish(json?.text, json);
    } else if (type === "arraybuffer" && response) finish(tap.decode(response as ArrayBuffer));
    else if (type === "blob" && response) {
      request.ended = true; // no abort can follow a completed load; the end comes with the text
      PromisePrototypeThen(N.blobText(response as Blob), finish, () => finish(undefined));
    } else finish(undefined);
  }

  const headers = (xhr: XMLHttpRequest) => {
    const kept = pickHeaders((name) => N.xhrGetResponseHeader(xhr, name));
    return kept ? { headers: kept } : {};
  };
}

/** The methods XHR and fetch upper-case (Fetch "normalize a method"); others keep their case. */
const STANDARD_METHODS = ["delete", "get", "head", "options", "post", "put"];
function isStandardMethod(method: string): boolean {
  const lower = StringPrototypeToLowerCase(method);
  for (let i = 0; i < STANDARD_METHODS.length; i++) if (STANDARD_METHODS[i] === lower) return true;
  return false;
}

function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // Never into the page.
  }
}
