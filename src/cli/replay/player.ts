import type { CaptureRecord } from "../../capture/record.ts";
import type { Channel } from "./channel.ts";
import { compareAnswer, compareRequest } from "./compare.ts";
import { describe, isAnswer, isRequest, messagesOf, requestName, type Timeline } from "./script.ts";

type Message = Record<string, unknown>;

/** Where the client did something other than the capture: the captured record, what was going on, what differed. */
export interface Divergence {
  record: number;
  entry?: number;
  context: string;
  message: string;
}

interface Waiting<T> {
  match(x: T): boolean;
  resolve(x: T): void;
}

/** The longest captured pause replay keeps between two records: a capture's idle minutes are not replayed. */
const MAX_GAP_MS = 1000;
/** How long a completion waits for the client to open its URL-mode link. */
const VISIT_WAIT_MS = 2000;

const idKey = (id: unknown): string => JSON.stringify(id) ?? "null";

/**
 * One captured session played back: its records walked in capture order. A client request the capture has next is
 * waited for, and its captured answer (with the client's own id) goes out on that request's response; a server
 * request goes out on the stream it was captured on, and the client's answer is waited for and compared.
 */
export function createPlayer(
  timeline: Timeline,
  options: {
    rewrite(text: string): string;
    diverge(d: Divergence): void;
    /** Settles when the client (the user's browser) has opened this URL of the replay. */
    visited(url: string): Promise<void>;
  },
) {
  const queue: { message: Message; channel: Channel }[] = [];
  let waitingRequest: Waiting<{ message: Message; channel: Channel }> | undefined;
  const answers = new Map<string, Message>();
  let waitingAnswer: Waiting<Message> | undefined;
  let getStream: Channel | undefined;
  let waitingGet: (() => void) | undefined;
  const bound = new Map<string, Channel>();
  /** Captured request id → the live client's id for the same request. */
  const ids = new Map<string, unknown>();
  /** Method of each server request sent, by id (what the client's answer answers). */
  const asked = new Map<string, string>();
  let index = 0;
  let finished = false;
  let context = "the session";
  let played = 0;

  const sameRequest = (captured: Message) => (live: Message) =>
    live.method === captured.method && requestName(live) === requestName(captured);
  const diverge = (step: CaptureRecord, message: string, about = context): void =>
    options.diverge({
      record: step.seq,
      ...(step.entry !== undefined && { entry: step.entry }),
      context: about,
      message,
    });

  /** Whether a request of this kind is still ahead in the capture: if not, the capture lacks what the client asked. */
  const ahead = (live: Message): boolean => {
    for (let i = index; i < timeline.steps.length; i++) {
      const step = timeline.steps[i]!;
      if (step.kind !== "message" || step.direction !== "c2s") continue;
      if (messagesOf(step.text).some((m) => isRequest(m) && sameRequest(m)(live))) return true;
    }
    return false;
  };

  async function nextRequest(captured: Message): Promise<{ message: Message; channel: Channel }> {
    const match = sameRequest(captured);
    const i = queue.findIndex((q) => match(q.message));
    if (i >= 0) return queue.splice(i, 1)[0]!;
    return new Promise((resolve) => (waitingRequest = { match: (q) => match(q.message), resolve }));
  }

  async function nextAnswer(id: unknown): Promise<Message> {
    const key = idKey(id);
    const had = answers.get(key);
    if (had) return (answers.delete(key), had);
    return new Promise((resolve) => (waitingAnswer = { match: (m) => idKey(m.id) === key, resolve }));
  }

  const stream = (): Promise<Channel> =>
    getStream && !getStream.ended
      ? Promise.resolve(getStream)
      : new Promise((resolve) => (waitingGet = () => resolve(getStream!)));

  /** The links of URL-mode elicitations sent, by elicitationId, as the client got them (rewritten). */
  const links = new Map<string, string>();
  const noteLinks = (m: Message): void => {
    const params = m.params as Message | undefined;
    const data = (m.error as Message | undefined)?.data as Message | undefined;
    const asks =
      m.method === "elicitation/create" && params
        ? [params]
        : Array.isArray(data?.elicitations)
          ? data.elicitations
          : [];
    for (const ask of asks as Message[]) {
      if (typeof ask?.elicitationId === "string" && typeof ask.url === "string")
        links.set(ask.elicitationId, options.rewrite(ask.url));
    }
  };
  /**
   * A completion is the server's answer to the user finishing its page: it goes out once the client has opened the
   * link (as in the capture), or after VISIT_WAIT_MS when it does not (a client under test may never open it).
   */
  async function afterVisit(m: Message): Promise<void> {
    const id = (m.params as Message | undefined)?.elicitationId;
    const link =
      m.method === "notifications/elicitation/complete" && typeof id === "string" ? links.get(id) : undefined;
    if (link === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([options.visited(link), new Promise((resolve) => (timer = setTimeout(resolve, VISIT_WAIT_MS)))]);
    clearTimeout(timer);
  }

  function outgoing(m: Message): Message {
    noteLinks(m);
    if (isRequest(m)) asked.set(idKey(m.id), String(m.method));
    if (isAnswer(m) && ids.has(idKey(m.id))) return { ...m, id: ids.get(idKey(m.id)) };
    return m;
  }

  async function step(record: CaptureRecord): Promise<void> {
    if (record.kind === "response") {
      bound
        .get(record.exchange!)
        ?.head(record.status, record.headers?.["content-type"], record.headers?.["mcp-session-id"]);
      return;
    }
    if (record.kind === "end") {
      bound.get(record.exchange!)?.end();
      return;
    }
    if (record.kind !== "message") return;
    const messages = messagesOf(record.text);
    if (record.direction === "s2c") {
      // The server's own pace: a message goes out as long after the record before it as it did in the capture
      // (at most MAX_GAP_MS), so a client sees a completion after its answer as it did then, not in the same tick.
      const before = timeline.steps[index - 1];
      const gap = before ? Math.min(record.time - before.time, MAX_GAP_MS) : 0;
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      const channel = record.stream === "get-sse" ? await stream() : bound.get(record.exchange!);
      if (!channel) return;
      for (const m of messages) await afterVisit(m);
      const out = messages.map(outgoing);
      const text =
        out.length === 0
          ? record.text
          : JSON.stringify(out.length === 1 && !record.text.trimStart().startsWith("[") ? out[0] : out);
      channel.send(options.rewrite(text), record.stream !== "body");
      return;
    }
    for (const m of messages) {
      if (isRequest(m)) {
        const live = await nextRequest(m);
        played++;
        ids.set(idKey(m.id), live.message.id);
        bound.set(record.exchange!, live.channel);
        context = describe(m);
        for (const d of compareRequest(m, live.message)) diverge(record, d);
      } else if (isAnswer(m)) {
        const live = await nextAnswer(m.id);
        const method = asked.get(idKey(m.id));
        for (const d of compareAnswer(method, m, live))
          diverge(record, d, `the answer to ${method ?? "a server request"} (id ${idKey(m.id)}) in ${context}`);
      }
    }
  }

  return {
    timeline,
    /** Plays the timeline to its end; settles when every captured record has been played. */
    async run(): Promise<void> {
      for (; index < timeline.steps.length; index++) await step(timeline.steps[index]!);
      finished = true;
    },
    finished: (): boolean => finished,
    played: (): number => played,
    /** A client request for this session. False when the capture has no such request ahead (the caller answers it). */
    request(message: Message, channel: Channel): boolean {
      const entry = { message, channel };
      if (waitingRequest?.match(entry)) {
        const w = waitingRequest;
        waitingRequest = undefined;
        w.resolve(entry);
        return true;
      }
      if (!ahead(message)) return false;
      queue.push(entry);
      return true;
    },
    /** A client's answer to a server request. */
    answer(message: Message): void {
      if (waitingAnswer?.match(message)) {
        const w = waitingAnswer;
        waitingAnswer = undefined;
        return w.resolve(message);
      }
      answers.set(idKey(message.id), message);
    },
    /** The session's GET stream opened (again). */
    openStream(channel: Channel): void {
      getStream = channel;
      const w = waitingGet;
      waitingGet = undefined;
      w?.();
    },
    /** What the player waits for, when stopped before the end: the client never sent it. */
    pending(): Divergence | undefined {
      if (finished) return undefined;
      const record = timeline.steps[index];
      if (!record) return undefined;
      const m = record.kind === "message" ? messagesOf(record.text)[0] : undefined;
      const what =
        record.kind === "message" && record.direction === "s2c"
          ? "opened the GET stream the capture's server sent on"
          : m && isRequest(m)
            ? `sent ${describe(m)}`
            : m && isAnswer(m)
              ? `answered ${asked.get(idKey(m.id)) ?? "a server request"} (id ${idKey(m.id)})`
              : "sent its next message";
      return {
        record: record.seq,
        ...(record.entry !== undefined && { entry: record.entry }),
        context,
        message: `the client never ${what}`,
      };
    },
  };
}

export type Player = ReturnType<typeof createPlayer>;
