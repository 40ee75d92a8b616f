/**
 * A fetch for the SDK clients that writes a HAR 1.2 the way a Node recorder (or Playwright's recordHar) does: one
 * entry per request in the order they started, `startedDateTime` to the millisecond, timings in fractions of a
 * millisecond from a monotonic clock (`wait` up to the response head, `receive` up to the body's end), and the
 * body as one text with no time per SSE event. The SDK reads every response in real time (SSE bodies pass through
 * chunk by chunk), so nothing waits for the recorder.
 */
export interface HarRecorder {
  fetch: typeof fetch;
  /** The HAR of what was sent so far (an entry whose body is still open has none yet). */
  har(): { log: Record<string, unknown> };
}

interface Pending {
  entry: Record<string, unknown> & { timings: Record<string, number>; time: number; response: Record<string, unknown> };
  started: number;
  head: number;
}

const now = (): number => performance.timeOrigin + performance.now();

export function createHarRecorder(send: typeof fetch = globalThis.fetch): HarRecorder {
  const entries: Pending["entry"][] = [];

  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const started = now();
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const headers = [...new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))].map(
      ([name, value]) => ({ name, value }),
    );
    const body = typeof init?.body === "string" ? init.body : undefined;
    const entry: Pending["entry"] = {
      startedDateTime: new Date(started).toISOString(),
      time: 0,
      request: {
        method,
        url,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers,
        queryString: [],
        headersSize: -1,
        bodySize: body === undefined ? 0 : Buffer.byteLength(body),
        ...(body !== undefined && { postData: { mimeType: "application/json", text: body } }),
      },
      response: {
        status: 0,
        statusText: "",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: "x-unknown" },
        redirectURL: "",
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
    };
    entries.push(entry);
    let response: Response;
    try {
      response = await send(input, init);
    } catch (error) {
      entry.time = now() - started;
      entry.response._failureText = error instanceof Error ? error.message : String(error);
      throw error;
    }
    const head = now();
    entry.timings.wait = head - started;
    const mimeType = response.headers.get("content-type") ?? "x-unknown";
    Object.assign(entry.response, {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers].map(([name, value]) => ({ name, value })),
      content: { size: 0, mimeType },
    });
    if (!response.body) {
      entry.time = head - started;
      return response;
    }
    let text = "";
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    const done = (): void => {
      const end = now();
      entry.timings.receive = end - head;
      entry.time = end - started;
      entry.response.content = { size: Buffer.byteLength(text), mimeType, text };
    };
    const copy = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done: ended, value } = await reader.read();
          if (ended) {
            text += decoder.decode();
            done();
            controller.close();
            return;
          }
          text += decoder.decode(value, { stream: true });
          controller.enqueue(value);
        } catch (error) {
          // A body the client aborted keeps none, as Chromium and Playwright write it.
          entry.response._failureText = "net::ERR_ABORTED";
          controller.error(error);
        }
      },
      cancel(reason) {
        entry.response._failureText = "net::ERR_ABORTED";
        return reader.cancel(reason);
      },
    });
    const out = new Response(copy, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(out, "url", { value: response.url });
    return out;
  };

  return {
    fetch: recordingFetch as typeof fetch,
    har: () => ({
      log: { version: "1.2", creator: { name: "node-har-recorder", version: "1.0.0" }, pages: [], entries },
    }),
  };
}
