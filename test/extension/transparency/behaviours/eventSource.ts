import { type Behaviour, once, sleep, stats, until } from "./kit.ts";

/** Every event of an EventSource as the page sees it: type, data, lastEventId, origin and the readyState then. */
function watch(source: EventSource, types: string[]): unknown[] {
  const log: unknown[] = [];
  source.onopen = () => log.push({ on: "open", readyState: source.readyState });
  source.onerror = (e) => log.push({ on: "error", readyState: source.readyState, isEvent: e.constructor.name });
  source.onmessage = (e) =>
    log.push({
      on: "message",
      data: e.data as unknown,
      lastEventId: e.lastEventId,
      origin: e.origin,
      readyState: source.readyState,
    });
  for (const type of types)
    source.addEventListener(type, (e) =>
      log.push({
        listener: type,
        data: (e as MessageEvent).data as unknown,
        lastEventId: (e as MessageEvent).lastEventId,
        ctor: e.constructor.name,
      }),
    );
  return log;
}

/** EventSource: the deprecated HTTP+SSE transport and ordinary streams. */
export const eventSourceBehaviours: Behaviour[] = [
  {
    name: "EventSource: endpoint event, messages, named events, lastEventId, reconnect after the server ends (retry)",
    mcp: { transport: "eventsource", url: () => "/legacy/sse" },
    async run(ctx) {
      const source = new EventSource(`/legacy/sse?k=${ctx.token}`);
      const states = [source.readyState];
      const log = watch(source, ["endpoint", "ping", "message"]);
      await until(
        () => log.some((e) => (e as { lastEventId?: string }).lastEventId === "5"),
        "event 5 after the reconnect",
      );
      source.close();
      states.push(source.readyState);
      await sleep(200);
      const server = await stats(ctx);
      return {
        seen: {
          log,
          states,
          url: source.url,
          withCredentials: source.withCredentials,
          lastEventIds: server.lastEventIds,
          connections: server.connections,
        },
      };
    },
  },
  {
    name: "EventSource: wrong content type and refused connection fail through onerror, readyState CLOSED",
    async run(ctx) {
      const wrong = new EventSource(`/sse/wrongtype?k=${ctx.token}`);
      const wrongLog = watch(wrong, []);
      await once(wrong, "error");
      await sleep(100);
      const refused = new EventSource(`${ctx.refused}/sse`);
      const refusedLog = watch(refused, []);
      await once(refused, "error");
      await sleep(100);
      return { seen: { wrongLog, wrong: wrong.readyState, refusedLog, refused: refused.readyState } };
    },
  },
  {
    name: "EventSource: an ordinary stream, named event listener, close()",
    async run(ctx) {
      const source = new EventSource(`/sse/plain?k=${ctx.token}`);
      const log = watch(source, ["tick"]);
      await until(() => log.filter((e) => (e as { on?: string }).on === "message").length === 2, "two messages");
      source.close();
      const afterClose = source.readyState;
      await sleep(200);
      return {
        seen: {
          log,
          afterClose,
          url: source.url.replace(ctx.token, "<token>"),
          constants: [EventSource.CONNECTING, EventSource.OPEN, EventSource.CLOSED, source.CLOSED],
        },
      };
    },
  },
  {
    name: "EventSource: close() inside onmessage and a second close()",
    mcp: { transport: "eventsource", url: () => "/legacy/sse" },
    async run(ctx) {
      const source = new EventSource(`/legacy/sse?k=${ctx.token}`);
      const log = watch(source, ["endpoint"]);
      const closes: number[] = [];
      source.addEventListener("message", () => {
        source.close();
        closes.push(source.readyState);
        source.close();
        closes.push(source.readyState);
      });
      await until(() => closes.length > 0, "the first message");
      await sleep(300);
      return { seen: { log, closes, connections: (await stats(ctx)).connections } };
    },
  },
];
