import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { createParser } from "eventsource-parser";
import type { MessageRecord, Transport } from "../../capture/record.ts";
import { createBodyCopy } from "./bodyCopy.ts";
import { createEndpointRewriter, type EndpointRewriter } from "./endpointEvent.ts";
import { endToEnd, essence, isJson, keptOf, rawValue } from "./headers.ts";
import type { Journal, RecordDraft } from "./journal.ts";
import type { Route, Routes } from "./routes.ts";

/** The most of one HTTP body the capture keeps; a longer one is recorded cut (the engine says so). */
const BODY_CAP = 32 * 2 ** 20;

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse, route: Route): void;
  /** Closes the kept-alive upstream connections once every body copy still being decoded has been recorded. */
  close(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

/**
 * Runs work after the bytes in hand have gone out. Node writes a response chunk to the socket on the next tick
 * (OutgoingMessage corks it), so recording in the same callback would delay the agent by the recording's time:
 * the copy is parsed and recorded from setImmediate instead, in arrival order, several chunks at a time.
 */
function createLater() {
  let queue: (() => void)[] = [];
  let running = false;
  const flush = (): void => {
    const work = queue;
    queue = [];
    running = true;
    try {
      for (const fn of work) fn();
    } finally {
      running = false;
    }
  };
  return (fn: () => void): void => {
    // Work queued by work in hand runs in its turn, right away.
    if (running) return fn();
    if (queue.push(fn) === 1) setImmediate(flush);
  };
}

/**
 * Forwards one request to its upstream and its answer back, unchanged (status, end-to-end headers, bytes), each
 * piece as it arrives; a copy of each is recorded once it has been passed on, so recording never holds up the
 * agent. Disconnects are passed on as they happen: the upstream's by cutting the agent's response, the agent's
 * by cutting the upstream request.
 */
export function createForwarder(journal: Journal, routes: Routes, warn: (message: string) => void): Forwarder {
  const agents = {
    http: new HttpAgent({ keepAlive: true, noDelay: true }),
    https: new HttpsAgent({ keepAlive: true, noDelay: true }),
  };
  let exchanges = 0;
  const later = createLater();
  /** Body copies still being decoded (a compressed one finishes after the agent has its bytes). */
  let decoding = 0;
  let idle: (() => void) | undefined;
  const decoded = (): void => {
    if (--decoding === 0) idle?.();
  };

  function forward(req: IncomingMessage, res: ServerResponse, route: Route): void {
    const exchange = `backend:x${exchanges++}`;
    const method = (req.method ?? "GET").toUpperCase();
    const { target } = route;
    const base = { source: "backend" as const, exchange, url: target.href, client: "backend" };
    const requestHeaders = keptOf(req.rawHeaders);
    let ended = false;
    let transport: Transport = "http";
    const record = (draft: RecordDraft): void => later(() => void journal.push(draft));
    const end = (error?: string): void => {
      if (ended) return;
      ended = true;
      const time = now();
      later(() => void journal.push({ ...base, transport, time, kind: "end", ...(error !== undefined && { error }) }));
    };

    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const upstream = send(target, {
      method,
      headers: endToEnd(req.rawHeaders, target.host) as unknown as Record<string, string>,
      agent: target.protocol === "https:" ? agents.https : agents.http,
    });

    // The request body: streamed to the upstream as it comes, a copy kept for the record.
    const contentType = essence(rawValue(req.rawHeaders, "content-type"));
    const keepBody = contentType === "" || isJson(contentType);
    const body: Buffer[] = [];
    let bodySize = 0;
    req.on("data", (chunk: Buffer) => {
      if (!upstream.write(chunk)) req.pause();
      if (keepBody && bodySize < BODY_CAP) body.push(chunk);
      bodySize += chunk.length;
    });
    upstream.on("drain", () => req.resume());
    req.on("end", () => {
      upstream.end();
      if (bodySize === 0 || !keepBody) return;
      let text = Buffer.concat(body).toString("utf8");
      const cut = bodySize > BODY_CAP ? text.length : undefined;
      if (cut === undefined && contentType === "" && !/^\s*[[{]/.test(text)) text = "";
      if (text === "") return;
      record({
        ...base,
        transport: "http",
        time: now(),
        kind: "message",
        via: route.via,
        direction: "c2s",
        stream: "body",
        method,
        text,
        ...(requestHeaders && { headers: requestHeaders }),
        ...(cut !== undefined && { truncated: cut }),
      });
    });

    // The agent went away: so does the upstream request (a cancelled POST, a closed GET stream).
    res.on("close", () => {
      if (res.writableFinished) return;
      upstream.destroy();
      end("abort");
    });

    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // Refused, reset, unreachable: the agent's connection is cut as well, so it sees a network failure as it would
      // have without the proxy (a 502 would be the proxy's own answer, not the server's).
      if (!res.destroyed) res.destroy();
      end(error.code ? `network: ${error.code}` : "network");
    });

    upstream.on("response", (answer: IncomingMessage) => {
      const headAt = now();
      const responseHeaders = keptOf(answer.rawHeaders);
      const type = essence(rawValue(answer.rawHeaders, "content-type"));
      const sse = type === "text/event-stream";
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
      // A stream's head goes out when it comes (the agent learns the stream is open); a finite body's goes with it.
      if (sse) res.flushHeaders();

      let responded = false;
      const respond = (emptyBody: boolean | undefined): void => {
        if (responded || ended) return;
        responded = true;
        record({
          ...base,
          transport,
          time: headAt,
          kind: "response",
          status: answer.statusCode ?? 0,
          ...(responseHeaders && { headers: responseHeaders }),
          ...(emptyBody !== undefined && { emptyBody }),
        });
      };

      let rewriter: EndpointRewriter | undefined;
      /** Runs once the copy of a finite body has been decoded whole. */
      let copyDone: (() => void) | undefined;
      let onText: (text: string) => void;
      let size = 0;
      /** When the chunk being parsed arrived: the time of the events it completes. */
      let chunkAt = headAt;
      if (sse) {
        const stream = method === "GET" ? "get-sse" : "post-sse";
        // Only a GET stream that names no Streamable HTTP session or version can be the HTTP+SSE transport's
        // (opened before any session exists); its first event says whether it is.
        const streamable =
          requestHeaders?.["mcp-session-id"] !== undefined || requestHeaders?.["mcp-protocol-version"] !== undefined;
        let decided = method !== "GET" || streamable;
        if (!decided) {
          rewriter = createEndpointRewriter((data) => {
            const local = routes.rewriteEndpoint(route, data);
            if (local === undefined) {
              const names = `${target.href}: its endpoint event names ${data.trim()}`;
              warn(`${names}, which the proxy cannot serve; the agent's POSTs will bypass the proxy`);
            }
            return local;
          });
        } else {
          respond(false);
        }
        const parser = createParser({
          onEvent(event) {
            if (!decided) {
              decided = true;
              if (event.event === "endpoint") transport = "eventsource";
              respond(false);
            }
            // Priming events (an id, no data) are kept: they are what a Last-Event-ID resumes from.
            if (event.data.trim() === "" && event.id === undefined) return;
            const legacy = transport === "eventsource";
            journal.push({
              ...base,
              transport,
              time: chunkAt,
              kind: "message",
              via: route.via,
              direction: "s2c",
              stream: legacy ? "eventsource" : stream,
              method,
              text: event.data,
              ...(stream === "get-sse" && requestHeaders && { headers: requestHeaders }),
              ...(event.id !== undefined && { eventId: event.id }),
              ...(event.event !== undefined && event.event !== "message" && { event: event.event }),
            } as RecordDraft & MessageRecord);
          },
        });
        onText = (text) => parser.feed(text);
      } else {
        const parts: string[] = [];
        onText = (text) => {
          if (size <= BODY_CAP) parts.push(text);
        };
        copyDone = () => {
          const text = parts.join("");
          respond(size === 0);
          if (text !== "" && isJson(type)) {
            record({
              ...base,
              transport,
              time: chunkAt,
              kind: "message",
              via: route.via,
              direction: "s2c",
              stream: "body",
              method,
              text: size > BODY_CAP ? text.slice(0, BODY_CAP) : text,
              ...(size > BODY_CAP && { truncated: BODY_CAP }),
            });
          }
        };
      }
      const copy = createBodyCopy(rawValue(answer.rawHeaders, "content-encoding"), (text) => onText(text));

      answer.on("data", (chunk: Buffer) => {
        const out = rewriter ? rewriter.push(chunk) : chunk;
        if (out && !res.write(out)) {
          answer.pause();
          res.once("drain", () => answer.resume());
        }
        size += chunk.length;
        const at = now();
        later(() => {
          chunkAt = at;
          copy.write(chunk);
        });
      });
      decoding++;
      answer.on("end", () => {
        const rest = rewriter?.flush();
        if (rest) res.write(rest);
        res.end();
        later(() =>
          copy.end(() => {
            copyDone?.();
            respond(size === 0);
            end();
            decoded();
          }),
        );
      });
      answer.on("close", () => {
        if (answer.complete) return;
        // The upstream cut its answer mid-body: the agent's is cut the same way.
        res.destroy();
        later(() =>
          copy.end(() => {
            copyDone?.();
            respond(undefined);
            end("network");
            decoded();
          }),
        );
      });
    });
  }

  return {
    forward,
    async close() {
      if (decoding > 0) await new Promise<void>((resolve) => (idle = resolve));
      await new Promise<void>((resolve) => later(resolve));
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
