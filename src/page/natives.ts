import { getter, ReflectApply, uncurry } from "./primordials.ts";

/**
 * The page's web platform built-ins as they were at document_start: constructors, uncurried methods and the getters
 * of every attribute the tap reads. The tap reads `response.status`, `event.data` or `xhr.readyState` only through
 * these, never by property access, so a page that later patches a prototype (or an accessor) never sees the tap
 * call through it and the tap never runs page code. Language built-ins are in primordials.ts.
 */
export function captureNatives(win: Window & typeof globalThis) {
  const perf = win.performance;
  const perfNow = uncurry(win.Performance.prototype.now);
  const timeOrigin = getter<number>(win.Performance.prototype, "timeOrigin")!(perf);
  const setTimeout = win.setTimeout;
  const clearTimeout = win.clearTimeout;
  const stream = win.ReadableStream?.prototype;
  const reader = win.ReadableStreamDefaultReader?.prototype;
  const byob = win.ReadableStreamBYOBReader?.prototype;
  const xhr = win.XMLHttpRequest?.prototype;
  const message = win.MessageEvent.prototype;
  return {
    listen: uncurry(win.EventTarget.prototype.addEventListener) as (
      target: EventTarget,
      type: string,
      listener: (event: Event) => void,
      capture?: boolean,
    ) => void,
    dispatch: uncurry(win.EventTarget.prototype.dispatchEvent),
    setTimeout: (fn: () => void, ms: number): number => ReflectApply(setTimeout, win, [fn, ms]) as unknown as number,
    clearTimeout: (handle: number): void => void ReflectApply(clearTimeout, win, [handle]),
    EventTarget: win.EventTarget,
    CustomEvent: win.CustomEvent,
    MouseEvent: win.MouseEvent,
    TextDecoder: win.TextDecoder,
    decode: uncurry(win.TextDecoder.prototype.decode) as (
      decoder: TextDecoder,
      input?: AllowSharedBufferSource,
      options?: TextDecodeOptions,
    ) => string,
    TextEncoder: win.TextEncoder,
    encode: uncurry(win.TextEncoder.prototype.encode) as (encoder: TextEncoder, input: string) => Uint8Array,
    URL: win.URL,
    urlHref: getter<string>(win.URL.prototype, "href")!,
    baseURI: getter<string>(win.Node?.prototype, "baseURI"),
    Request: win.Request,
    requestUrl: getter<string>(win.Request?.prototype, "url")!,
    requestMethod: getter<string>(win.Request?.prototype, "method")!,
    requestHeaders: getter<Headers>(win.Request?.prototype, "headers")!,
    requestSignal: getter<AbortSignal>(win.Request?.prototype, "signal")!,
    signalAborted: getter<boolean>(win.AbortSignal?.prototype, "aborted")!,
    requestClone: uncurry(win.Request.prototype.clone),
    requestText: uncurry(win.Request.prototype.text),
    headersGet: uncurry(win.Headers.prototype.get),
    responseHeaders: getter<Headers>(win.Response.prototype, "headers")!,
    responseStatus: getter<number>(win.Response.prototype, "status")!,
    responseBody: getter<ReadableStream<Uint8Array> | null>(win.Response.prototype, "body")!,
    responseBodyUsed: getter<boolean>(win.Response.prototype, "bodyUsed")!,
    responseClone: uncurry(win.Response.prototype.clone),
    blobSize: getter<number>(win.Blob?.prototype, "size"),
    blobType: getter<string>(win.Blob?.prototype, "type"),
    blobText: uncurry(win.Blob.prototype.text),
    getReader: uncurry(win.ReadableStream.prototype.getReader) as (
      stream: ReadableStream<Uint8Array>,
    ) => ReadableStreamDefaultReader<Uint8Array>,
    read: uncurry(win.ReadableStreamDefaultReader.prototype.read) as (
      reader: ReadableStreamDefaultReader<Uint8Array>,
    ) => Promise<ReadableStreamReadResult<Uint8Array>>,
    pipeTo: uncurry(win.ReadableStream.prototype.pipeTo),
    streamLocked: getter<boolean>(stream, "locked")!,
    writableLocked: getter<boolean>(win.WritableStream?.prototype, "locked"),
    TransformStream: win.TransformStream,
    transformReadable: getter<ReadableStream>(win.TransformStream?.prototype, "readable")!,
    transformWritable: getter<WritableStream>(win.TransformStream?.prototype, "writable")!,
    streamProto: stream,
    readerProto: reader,
    byobProto: byob,
    xhrReadyState: getter<number>(xhr, "readyState")!,
    xhrStatus: getter<number>(xhr, "status")!,
    xhrResponseType: getter<XMLHttpRequestResponseType>(xhr, "responseType")!,
    xhrResponseText: getter<string>(xhr, "responseText")!,
    xhrResponse: getter<unknown>(xhr, "response")!,
    xhrGetResponseHeader: xhr ? uncurry(xhr.getResponseHeader) : undefined!,
    customEventDetail: getter<unknown>(win.CustomEvent.prototype, "detail")!,
    messageData: getter<unknown>(message, "data")!,
    messageOrigin: getter<string>(message, "origin")!,
    messageSource: getter<MessageEventSource | null>(message, "source")!,
    messageLastEventId: getter<string>(message, "lastEventId")!,
    webSocketUrl: getter<string>(win.WebSocket?.prototype, "url")!,
    webSocketProtocol: getter<string>(win.WebSocket?.prototype, "protocol")!,
    webSocketReadyState: getter<number>(win.WebSocket?.prototype, "readyState")!,
    closeWasClean: getter<boolean>(win.CloseEvent?.prototype, "wasClean")!,
    eventSourceUrl: getter<string>(win.EventSource?.prototype, "url")!,
    eventSourceReadyState: getter<number>(win.EventSource?.prototype, "readyState")!,
    domExceptionName: getter<string>(win.DOMException.prototype, "name")!,
    domExceptionMessage: getter<string>(win.DOMException.prototype, "message")!,
    /** Sub-millisecond epoch time, the clock the recorder and the benchmarks use. */
    now: (): number => timeOrigin + perfNow(perf),
  };
}

export type Natives = ReturnType<typeof captureNatives>;
