import type { RecordDraft } from "../shared/tapRecord.ts";
import { createBodyWatch, type BodyWatch } from "./bodyWatch.ts";
import { planFetch, watchInit, type Plan, type SeenBody } from "./fetchPlan.ts";
import { connectSummary, isHostMessageEvent } from "./hostApi.ts";
import { capped, failure, isEventStream, isJsonType, looksJsonRpc, pickHeaders, type Tap } from "./mcp.ts";
import type { Natives } from "./natives.ts";
import { looksRelayed } from "./relay.ts";
import {
  append,
  endpointOf,
  isBlank,
  JSONParse,
  PromiseCtor,
  PromisePrototypeThen,
  ReflectApply,
  ReflectConstruct,
  StringPrototypeIncludes,
} from "./primordials.ts";
import { createSseSplitter, readText } from "./sse.ts";
import type { Wrap } from "./wrap.ts";

/**
 * `fetch`: a Proxy that does first what fetch itself does first (Fetch §5.6 step 2): `new Request(input, init)`,
 * with the Request constructor captured at document_start. The browser so reads the page's arguments exactly once,
 * in its own order (a `toString` of the input, the init's getters, a Headers or Request subclass: nothing runs
 * twice, nothing extra), and the tap reads the URL, method and headers from that Request through the built-in
 * accessors. The `body` member the browser read is seen through a Proxy of the init that forwards every read. The
 * browser's fetch then gets that Request alone, which means the same as the two arguments. When the constructor
 * throws, the browser's fetch is called with the page's arguments, so that the page gets the browser's own
 * rejection (the message names `fetch`), without the tap's stack frames.
 *
 * Calls of a URL alone get the browser's promise, nothing attached. For other calls the page gets a promise that settles
 * with the very Response (or error) the browser gave, one microtask later: attaching our reaction to the browser's
 * promise would mark it handled and swallow the page's `unhandledrejection`. `text/event-stream` bodies are recorded
 * from the page's own reads (bodyWatch.ts); other bodies from `response.clone()`, a tee taken before the page can
 * touch the response. Of a call that is not MCP only texts that look like a relayed elicitation are kept
 * (relay.ts): its request body, its SSE events, a small JSON answer. A call for exactly the URL of a relayed URL-mode
 * ask the page received (relay.ts `createAskUrls`) is noted as a `page-request` (method, origin, path), once.
 */
export function tapFetch(win: Window & typeof globalThis, tap: Tap, N: Natives, wrap: Wrap): void {
  let bodies: BodyWatch;
  try {
    bodies = createBodyWatch(win, N, wrap);
  } catch {
    bodies = { watch: () => false }; // a browser without some stream API: SSE bodies go unrecorded, never broken
  }

  /** The browser's fetch with the page's own arguments, for calls it rejects: its own error, without our frames. */
  const plain = wrap.rejecting;
  const canParse = win.URL.canParse;
  const parses = (url: string): boolean =>
    typeof canParse !== "function" || ReflectApply(canParse, N.URL, [url, N.baseURI?.(win.document)]) === true;

  /** A URL string alone, resolved as fetch resolves it, checked against the relayed URL-mode asks (relay.ts). */
  const opened = (input: string): void => {
    try {
      tap.pageRequest(N.urlHref(new N.URL(input, N.baseURI?.(win.document))), "GET");
    } catch {
      // Never into the page.
    }
  };

  wrap.method(win, "fetch", (target, self, args) => {
    if ((self !== undefined && self !== null && self !== win) || args.length === 0) return plain(target, self, args);
    const input = args[0];
    const init = args[1];
    // A URL string alone sets no header: never MCP (an MCP GET stream asks for text/event-stream), unless a decode
    // rule or the Inspector's events path (hostApi.ts) may match it.
    if (
      typeof input === "string" &&
      init === undefined &&
      !tap.rules.any() &&
      !StringPrototypeIncludes(input, "/api/mcp/events")
    ) {
      if (!parses(input)) return plain(target, self, args);
      if (tap.askUrls.any()) opened(input);
      return ReflectApply(target, self, args);
    }
    const seen: SeenBody = { read: false, value: undefined };
    let request: Request;
    try {
      request = ReflectConstruct(
        N.Request,
        init !== null && (typeof init === "object" || typeof init === "function")
          ? [input, watchInit(init, seen)]
          : args.length > 1
            ? [input, init]
            : [input],
      ) as Request;
    } catch {
      return plain(target, self, args);
    }
    if (tap.askUrls.any()) {
      try {
        tap.pageRequest(N.requestUrl(request), N.requestMethod(request));
      } catch {
        // Never into the page.
      }
    }
    let plan: Plan | undefined;
    try {
      // A frame the worker does not record: the browser's promise, nothing followed.
      plan = tap.on() ? planFetch(tap, N, request, seen) : undefined;
    } catch {
      plan = undefined;
    }
    const promise = ReflectApply(target, self, [request]) as Promise<Response>;
    if (!plan) return promise;
    try {
      return follow(tap, N, wrap, bodies, plan, promise);
    } catch {
      return promise;
    }
  });
}

type WhenDecided = (fn: () => void, otherwise?: () => void) => void;

function follow(
  tap: Tap,
  N: Natives,
  wrap: Wrap,
  bodies: BodyWatch,
  plan: Plan,
  promise: Promise<Response>,
): Promise<Response> {
  const common = { transport: "http" as const, exchange: plan.exchange, url: plan.url, client: tap.client };
  const draft = (record: Record<string, unknown>): RecordDraft => ({ ...common, ...record }) as RecordDraft;
  const emit = (record: Record<string, unknown>): void => tap.emit(draft(record));

  // The request body, then (once it is known to be MCP) everything else, in order.
  const request = (text: string | undefined): void => {
    if (plan.mcp === undefined) plan.mcp = text !== undefined && looksJsonRpc(text);
    if (!plan.mcp) {
      if (text !== undefined && looksRelayed(text))
        emit(relay({ time: plan.time, direction: "c2s", stream: "body", method: plan.method, ...capped(text) }));
      return;
    }
    tap.addEndpoint(endpointOf(plan.url));
    if (text && plan.host === "connect") text = connectSummary(text);
    if (text)
      emit({
        time: plan.time,
        kind: "message",
        direction: "c2s",
        stream: "body",
        method: plan.method,
        ...capped(text),
        ...(plan.headers && { headers: plan.headers }),
      });
  };
  let waiting: (() => void)[] | undefined;
  const whenDecided: WhenDecided = (fn, otherwise) => {
    const run = (): void => {
      try {
        if (plan.mcp) fn();
        else otherwise?.();
      } catch {
        // Never into the page.
      }
    };
    if (waiting) append(waiting, run);
    else run();
  };
  if (typeof plan.body === "object") {
    const queued: (() => void)[] = (waiting = []);
    const decide = (text: string | undefined): void => {
      request(text);
      waiting = undefined;
      for (let i = 0; i < queued.length; i++) queued[i]!();
    };
    PromisePrototypeThen(plan.body, decide, () => decide(undefined));
  } else request(plan.body);

  return new PromiseCtor<Response>((resolve, reject) => {
    PromisePrototypeThen(
      promise,
      (response: Response) => {
        try {
          onResponse(tap, N, bodies, plan, response, emit, draft, whenDecided);
        } catch {
          // Never into the page.
        }
        resolve(response);
      },
      (error: unknown) => {
        whenDecided(() => emit({ time: tap.now(), kind: "end", error: failure(N, error, plan.aborted()) }));
        reject(wrap.strip(error));
      },
    );
  });
}

function onResponse(
  tap: Tap,
  N: Natives,
  bodies: BodyWatch,
  plan: Plan,
  response: Response,
  emit: (record: Record<string, unknown>) => void,
  draft: (record: Record<string, unknown>) => RecordDraft,
  whenDecided: WhenDecided,
): void {
  const time = tap.now();
  const headers = N.responseHeaders(response);
  const get = (name: string): string | null => N.headersGet(headers, name);
  const contentType = get("content-type");
  const head = { time, kind: "response", status: N.responseStatus(response), ...optional("headers", pickHeaders(get)) };

  if (isEventStream(contentType)) {
    // Read as the page reads it: no tee, so the page's stream keeps its backpressure and its cancel.
    const stream = plan.method === "GET" ? "get-sse" : "post-sse";
    whenDecided(() => emit({ ...head, emptyBody: false }));
    const split = createSseSplitter((event) => {
      // Priming events (an id and empty data) carry no JSON-RPC text; the SDK clients skip them too.
      if (isBlank(event.data) || (plan.host === "events" && !isHostMessageEvent(event))) return;
      const at = tap.now();
      const relayed = (): void => {
        if (looksRelayed(event.data))
          emit(relay({ time: at, direction: "s2c", stream, method: plan.method, ...capped(event.data) }));
      };
      whenDecided(
        () =>
          emit({
            time: at,
            kind: "message",
            direction: "s2c",
            stream,
            method: plan.method,
            ...capped(event.data),
            ...(stream === "get-sse" && optional("headers", plan.headers)),
            ...optional("eventId", event.id),
            ...(event.event !== undefined && event.event !== "message" && { event: event.event }),
          }),
        relayed,
      );
    });
    const watched = bodies.watch(response, {
      text: split,
      end(how, error) {
        const at = tap.now();
        whenDecided(() =>
          emit({
            time: at,
            kind: "end",
            ...(how === "cancel"
              ? { error: "abort" }
              : how === "error"
                ? { error: failure(N, error, plan.aborted()) }
                : {}),
          }),
        );
      },
    });
    if (!watched) whenDecided(() => emit({ time, kind: "end" }));
    return;
  }

  // Not MCP: a small JSON answer may still carry a relayed ask (relay.ts); anything else is left alone.
  if (plan.mcp === false && !(isJsonType(contentType) && smallBody(get("content-length")))) return;
  // Taken now, before the page can read the body. The response keeps its place ahead of whatever the page does
  // once it has read its own copy of the body.
  const clone = N.responseClone(response);
  const fill = tap.reserve();
  PromisePrototypeThen(readText(N, N.responseBody(clone)), ({ text, error }: { text: string; error?: string }) =>
    whenDecided(
      () => {
        // A body cut short by an abort is kept when what arrived is the whole JSON (the client read it, then aborted).
        const whole = error === undefined || isWholeJson(text);
        const body =
          text.length > 0 && (isJsonType(contentType) || plan.decoded)
            ? [
                draft({
                  time: tap.now(),
                  kind: "message",
                  direction: "s2c",
                  stream: "body",
                  method: plan.method,
                  ...capped(text),
                }),
              ]
            : [];
        const records = [draft({ ...head, ...(whole && { emptyBody: text.length === 0 }) })];
        for (let i = 0; i < body.length; i++) append(records, body[i]!);
        append(records, draft({ time: tap.now(), kind: "end", ...(error !== undefined && !whole && { error }) }));
        fill(records);
      },
      () =>
        fill(
          looksRelayed(text)
            ? [
                draft(
                  relay({ time: tap.now(), direction: "s2c", stream: "body", method: plan.method, ...capped(text) }),
                ),
              ]
            : [],
        ),
    ),
  );
}

/**
 * A relayed ask or answer on traffic that is not MCP: a message record without an exchange, and no head or end
 * (an exchange the emitter waited on would never end; the capture side needs none: relay.ts).
 */
const relay = (record: Record<string, unknown>): Record<string, unknown> => ({
  ...record,
  kind: "message",
  exchange: undefined,
});

/** A declared length the tap tees for a relayed ask: an app's JSON answer, not a download. */
const RELAY_BODY_MAX = 65536;
function smallBody(length: string | null): boolean {
  const n = length === null ? NaN : +length;
  return n >= 0 && n <= RELAY_BODY_MAX;
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });

function isWholeJson(text: string): boolean {
  try {
    JSONParse(text);
    return text.length > 0;
  } catch {
    return false;
  }
}
