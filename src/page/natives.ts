/**
 * The page's built-ins as they were at document_start. The page (or a library such as zone.js) may replace
 * `Promise`, `addEventListener`, `setTimeout`… later; the tap keeps using the originals, so the page never sees the
 * tap call through its replacements and the tap never runs page code.
 */
export function captureNatives(win: Window & typeof globalThis) {
  const perf = win.performance;
  const perfNow = perf.now;
  return {
    Promise: win.Promise,
    then: win.Promise.prototype.then,
    listen: win.EventTarget.prototype.addEventListener,
    dispatch: win.EventTarget.prototype.dispatchEvent,
    setTimeout: win.setTimeout,
    postMessage: win.postMessage,
    CustomEvent: win.CustomEvent,
    TextDecoder: win.TextDecoder,
    URL: win.URL,
    Request: win.Request,
    Headers: win.Headers,
    Blob: win.Blob,
    blobText: win.Blob?.prototype.text,
    requestClone: win.Request?.prototype.clone,
    responseClone: win.Response?.prototype.clone,
    responseText: win.Response?.prototype.text,
    headersGet: win.Headers?.prototype.get,
    getReader: win.ReadableStream?.prototype.getReader,
    stringify: JSON.stringify,
    random: Math.random,
    /** Sub-millisecond epoch time, the clock the recorder and the benchmarks use. */
    now: (): number => perf.timeOrigin + perfNow.call(perf),
  };
}

export type Natives = ReturnType<typeof captureNatives>;
