import type { RecordDraft } from "../shared/tapRecord.ts";
import { MESSAGE_CAP } from "../shared/tags.ts";
import type { Natives } from "./natives.ts";
import { capped, failure, isEventStream, isJsonType, looksJsonRpc, pickHeaders, scanHeaders, type KeptHeaders, type Tap } from "./mcp.ts";
import { readEvents, readText } from "./sse.ts";
import { replaceMethod } from "./wrap.ts";

/** What the tap knows of one fetch it decided (or may decide) to record. */
interface Plan {
  exchange: string;
  url: string;
  method: string;
  time: number;
  headers: KeptHeaders | undefined;
  /** The request body's text, or a promise of it (Blob and Request bodies are read from a copy). */
  body: string | undefined | Promise<string | undefined>;
  /** Known MCP at call time; undefined while an async body decides. */
  mcp: boolean | undefined;
}

/**
 * `fetch`: a Proxy that leaves every non-MCP call untouched (same promise, nothing attached) after a cheap look
 * at the body and headers. For an MCP call the page gets a promise that settles with the very Response (or
 * error) the browser gave, one microtask later: attaching our reaction to the browser's promise directly would mark
 * it handled and swallow the page's `unhandledrejection`. The body is read from `response.clone()`, a tee taken
 * before the page can touch the response; SSE events are recorded as the tee delivers them, so the page's branch
 * keeps its own timing and errors.
 */
export function tapFetch(win: Window & typeof globalThis, tap: Tap, N: Natives): void {
  replaceMethod(win, "fetch", {
    apply(target, thisArg, args: unknown[]) {
      let plan: Plan | undefined;
      try {
        plan = planFetch(win, tap, N, args);
      } catch {
        plan = undefined;
      }
      if (!plan) return Reflect.apply(target, thisArg, args);
      const promise = Reflect.apply(target, thisArg, args) as Promise<Response>;
      try {
        return follow(tap, N, plan, promise);
      } catch {
        return promise;
      }
    },
  });
}

function planFetch(win: Window, tap: Tap, N: Natives, args: unknown[]): Plan | undefined {
  const input = args[0];
  const init = args[1] as RequestInit | null | undefined;
  const request = N.Request && input instanceof N.Request ? input : undefined;
  const hasInit = init !== null && typeof init === "object";
  const rawBody = hasInit ? init.body : undefined;
  let text: string | undefined;
  let pending: Promise<string | undefined> | undefined;

  if (typeof rawBody === "string") text = rawBody;
  else if (rawBody != null) {
    if (rawBody instanceof ArrayBuffer || ArrayBuffer.isView(rawBody)) {
      if (rawBody.byteLength <= MESSAGE_CAP) text = tap.decode(rawBody);
    } else if (N.Blob && rawBody instanceof N.Blob) {
      if (rawBody.size <= MESSAGE_CAP && (rawBody.type === "" || rawBody.type.includes("json"))) pending = N.blobText.call(rawBody);
    }
    // FormData, URLSearchParams: not JSON-RPC. A ReadableStream body could be, but reading it needs a tee of what
    // the page sends (and `duplex`): not seen (docs/extension.md).
  }

  const scan = scanHeaders(hasInit && init.headers !== undefined ? init.headers : request?.headers, N.Headers);
  const method = String((hasInit && init.method) || request?.method || "GET").toUpperCase();
  if (request && rawBody == null && method !== "GET" && method !== "HEAD" && /json/i.test(scan.kept?.["content-type"] ?? "")) {
    // Copied before the browser takes the body; the page's Request is left as it was.
    pending = (N.requestClone.call(request) as Request).text();
  }

  let mcp: boolean | undefined = (text !== undefined && looksJsonRpc(text)) || scan.mcp ? true : undefined;
  if (!mcp && pending === undefined && (method !== "GET" || tap.endpoints.size === 0 || !scan.accept.includes("text/event-stream"))) return undefined;
  const url = request ? request.url : new N.URL(String(input), win.document.baseURI).href;
  if (!mcp && pending === undefined) {
    // The standalone GET stream of a client that sends no Mcp-* header there: known by its endpoint.
    if (!tap.endpoints.has(endpointOf(url))) return undefined;
    mcp = true;
  }
  if (mcp) tap.endpoints.add(endpointOf(url));
  return { exchange: tap.id("f"), url, method, time: tap.now(), headers: scan.kept, body: pending ?? text, mcp };
}

const endpointOf = (url: string): string => url.split(/[?#]/)[0]!;

function follow(tap: Tap, N: Natives, plan: Plan, promise: Promise<Response>): Promise<Response> {
  const common = { transport: "http" as const, exchange: plan.exchange, url: plan.url, client: tap.client };
  const draft = (record: Record<string, unknown>): RecordDraft => ({ ...common, ...record }) as RecordDraft;
  const emit = (record: Record<string, unknown>): void => tap.emit(draft(record));

  // The request body, then (once it is known to be MCP) everything else, in order.
  const request = (text: string | undefined): void => {
    if (plan.mcp === undefined) plan.mcp = text !== undefined && looksJsonRpc(text);
    if (!plan.mcp) return;
    tap.endpoints.add(endpointOf(plan.url));
    if (text) tap.emitSent(draft({ time: plan.time, kind: "message", direction: "c2s", stream: "body", method: plan.method, ...capped(text), ...(plan.headers && { headers: plan.headers }) }));
  };
  let ready: Promise<void> | undefined;
  if (typeof plan.body === "object") ready = N.then.call(plan.body, request, () => request(undefined)) as Promise<void>;
  else request(plan.body);
  const whenDecided = (fn: () => void, otherwise?: () => void): void => {
    const run = (): void => {
      try {
        if (plan.mcp) fn();
        else otherwise?.();
      } catch {
        // Never into the page.
      }
    };
    if (ready) N.then.call(ready, run);
    else run();
  };

  return new N.Promise<Response>((resolve, reject) => {
    N.then.call(
      promise,
      (response: Response) => {
        try {
          onResponse(tap, N, plan, response, emit, draft, whenDecided);
        } catch {
          // Never into the page.
        }
        resolve(response);
      },
      (error: unknown) => {
        whenDecided(() => emit({ time: tap.now(), kind: "end", error: failure(error) }));
        reject(error);
      },
    );
  });
}

type WhenDecided = (fn: () => void, otherwise?: () => void) => void;

function onResponse(
  tap: Tap,
  N: Natives,
  plan: Plan,
  response: Response,
  emit: (record: Record<string, unknown>) => void,
  draft: (record: Record<string, unknown>) => RecordDraft,
  whenDecided: WhenDecided,
): void {
  if (plan.mcp === false) return;
  const time = tap.now();
  const get = (name: string): string | null => N.headersGet.call(response.headers, name);
  const contentType = get("content-type");
  // Taken now, before the page can read the body; dropped unread if the request turns out not to be MCP.
  const clone = N.responseClone.call(response) as Response;
  const head = { time, kind: "response", status: response.status, ...optional("headers", pickHeaders(get)) };

  if (isEventStream(contentType) && clone.body) {
    const body = clone.body;
    const stream = plan.method === "GET" ? "get-sse" : "post-sse";
    whenDecided(() => {
      emit({ ...head, emptyBody: false });
      tap.reading(1);
      void readEvents(
        N,
        body,
        (event) => {
          // Priming events (an id and empty data) carry no JSON-RPC text; the SDK clients skip them too.
          if (event.data.trim() === "") return;
          emit({
            time: tap.now(),
            kind: "message",
            direction: "s2c",
            stream,
            method: plan.method,
            ...capped(event.data),
            ...(stream === "get-sse" && optional("headers", plan.headers)),
            ...optional("eventId", event.id),
            ...(event.event !== undefined && event.event !== "message" && { event: event.event }),
          });
        },
        (error) => {
          tap.reading(-1);
          emit({ time: tap.now(), kind: "end", ...optional("error", error) });
        },
      );
    }, () => void body.cancel().catch(() => undefined)); // An unread tee branch would buffer the whole stream.
    return;
  }

  // The response keeps its place ahead of whatever the page does once it has read its own copy of the body.
  const fill = tap.reserve();
  N.then.call(readText(N, clone.body), ({ text, error }: { text: string; error?: string }) =>
    whenDecided(
      () => {
        // A body cut short by an abort is kept when what arrived is the whole JSON (the client read it, then aborted).
        const whole = error === undefined || isWholeJson(text);
        const body = text.length > 0 && isJsonType(contentType) ? [draft({ time: tap.now(), kind: "message", direction: "s2c", stream: "body", method: plan.method, ...capped(text) })] : [];
        fill([draft({ ...head, ...(whole && { emptyBody: text.length === 0 }) }), ...body, draft({ time: tap.now(), kind: "end", ...(error !== undefined && !whole && { error }) })]);
      },
      () => fill([]),
    ),
  );
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return text.length > 0;
  } catch {
    return false;
  }
}
