import { createParser } from "eventsource-parser";
import { pickHeaders } from "../../src/capture/record.ts";
import type { CaptureRecord, EndRecord, MessageRecord, ResponseRecord, StreamKind } from "../../src/capture/record.ts";

/**
 * A fetch for the SDK clients that writes what travels into capture records, the way the page tap would:
 * the request body before it is sent, the response head, every JSON body or SSE `data` event, then an `end`.
 * The SDK gets a response it consumes as usual and in real time: SSE bodies are passed through chunk by chunk
 * (the standalone GET stream stays open), so nothing waits for the recorder.
 */
export interface Recorder {
  fetch: typeof fetch;
  records: CaptureRecord[];
  /** Exchanges sent and not yet ended, with their HTTP method (the GET stream stays here until it closes). */
  open(): { exchange: string; method: string }[];
  reset(): void;
}

export interface RecorderOptions {
  /** The `client` field of every record. */
  client?: string;
  /** The fetch that really sends; the global one by default. */
  fetch?: typeof fetch;
}

type Draft<T> = Omit<T, "seq" | "v">;

const now = (): number => performance.timeOrigin + performance.now();

export function createRecorder(options: RecorderOptions = {}): Recorder {
  const client = options.client ?? "test-client";
  const send = options.fetch ?? globalThis.fetch;
  const records: CaptureRecord[] = [];
  const pending = new Map<string, string>();
  let exchanges = 0;

  const push = <T extends CaptureRecord>(draft: Draft<T>): T => {
    const record = { v: 1, seq: records.length, ...draft } as T;
    records.push(record);
    if (record.kind === "end" && record.exchange !== undefined) pending.delete(record.exchange);
    return record;
  };

  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const exchange = `x${exchanges++}`;
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const requestHeaders = pickHeaders(
      new globalThis.Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)),
    );
    const common = { transport: "http" as const, exchange, url, client };
    pending.set(exchange, method);

    const body = await requestBodyText(input, init);
    if (body) {
      push<MessageRecord>({
        ...common,
        time: now(),
        kind: "message",
        direction: "c2s",
        stream: "body",
        method,
        text: body,
        ...(requestHeaders && { headers: requestHeaders }),
      });
    }

    let response: Response;
    try {
      response = await send(input, init);
    } catch (error) {
      push<EndRecord>({ ...common, time: now(), kind: "end", error: failure(error) });
      throw error;
    }

    const responseHeaders = pickHeaders(response.headers);
    const head = push<ResponseRecord>({
      ...common,
      time: now(),
      kind: "response",
      status: response.status,
      ...(responseHeaders && { headers: responseHeaders }),
    });
    const end = (error?: string): void =>
      void push<EndRecord>({ ...common, time: now(), kind: "end", ...(error !== undefined && { error }) });

    const isSse = (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    if (!isSse || !response.body) {
      // Finite bodies: read a clone to the end and hand the untouched original to the SDK.
      const text = await response
        .clone()
        .text()
        .catch((error: unknown) => ({ error: failure(error) }));
      if (typeof text !== "string") {
        end(text.error);
        return response;
      }
      head.emptyBody = text.length === 0;
      if (text.length > 0 && isJson(response.headers.get("content-type"))) {
        push<MessageRecord>({
          ...common,
          time: now(),
          kind: "message",
          direction: "s2c",
          stream: "body",
          method,
          text,
        });
      }
      end();
      return response;
    }

    head.emptyBody = false;
    const stream: StreamKind = method === "GET" ? "get-sse" : "post-sse";
    const parser = createParser({
      onEvent(event) {
        // Priming events (an id and empty data: sdk 1.32.2 with an event store, for 2025-11-25 clients) carry no
        // JSON-RPC text; the SDK clients skip them too.
        if (event.data.trim() === "") return;
        push<MessageRecord>({
          ...common,
          time: now(),
          kind: "message",
          direction: "s2c",
          stream,
          method,
          text: event.data,
          ...(stream === "get-sse" && requestHeaders && { headers: requestHeaders }),
          ...(event.id !== undefined && { eventId: event.id }),
          ...(event.event !== undefined && event.event !== "message" && { event: event.event }),
        });
      },
    });
    return passThrough(response, parser.feed, end, init?.signal ?? undefined);
  };

  return {
    fetch: recordingFetch as typeof fetch,
    records,
    open: () => [...pending].map(([exchange, method]) => ({ exchange, method })),
    reset() {
      records.length = 0;
      pending.clear();
      exchanges = 0;
    },
  };
}

/** A response whose body is the original one, read chunk by chunk as the consumer pulls and fed to `feed`. */
function passThrough(
  response: Response,
  feed: (text: string) => void,
  end: (error?: string) => void,
  signal?: AbortSignal,
): Response {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  // An abort while the consumer is not reading would otherwise go unseen until the next read.
  const onAbort = (): void => finish("abort");
  const finish = (error?: string): void => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener("abort", onAbort);
    end(error);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          feed(decoder.decode());
          finish();
          controller.close();
          return;
        }
        feed(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        finish(failure(error));
        controller.error(error);
      }
    },
    cancel(reason) {
      finish("abort");
      return reader.cancel(reason);
    },
  });
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // The SDKs read `url` to describe redirects; a constructed Response has none of its own.
  Object.defineProperty(copy, "url", { value: response.url });
  return copy;
}

async function requestBodyText(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<string | undefined> {
  const body = init?.body;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  if (body == null && input instanceof Request && input.body) return input.clone().text();
  // A stream body would have to be teed before sending; the SDKs only ever send strings.
  if (body == null || body instanceof ReadableStream) return undefined;
  return new Response(body).text().catch(() => undefined);
}

function isJson(contentType: string | null): boolean {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

function failure(error: unknown): string {
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return "abort";
  if (error instanceof TypeError) return "network";
  return error instanceof Error ? error.message : String(error);
}
