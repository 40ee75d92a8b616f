// A HAR holds no time per SSE event: entry.ts spreads a stream's events between its first and last byte, which is
// a guess. The order that guess gives is never evidence: this pass moves the events of each stream to where what
// must have happened puts them, keeping each stream's own order (its events came in that order) within the
// stream's first and last byte:
// - a server request comes before the client's answer to it (same session, same id, the server's id space);
// - an answer on any stream comes after the client sent the request it answers, and a server request (but ping)
//   after the client's notifications/initialized where nothing above says otherwise;
// - a stream's answer to its POST's request comes after the client's answers to the server requests it carried;
// - notifications/elicitation/complete comes after the elicitation that issued its elicitationId;
// - a server request on the standalone GET stream answered while exactly one call of the session was open: it
//   comes after that call was sent (where nothing above says otherwise), and the call's own answer after the
//   client's answer (the engine ties the two, and the flow says the tie is inferred).
// A bound that would take an event past its stream's last byte stops there, and a bound set by a record after that
// byte is no bound: the capture breaks the order above and keeps showing it. (A streaming import places a stream
// once what it reads is past the stream's last byte: records after it may be read later, so a whole import must not
// use them either, or the two would differ.)
//
// A whole import learns every record first, then places every stream (placeStreamEvents). A HAR read as it streams
// (horizon.ts) learns records as they come and places each stream once its last byte is behind what was read,
// beside the streams still open: what it keeps across entries is in the placer, and it forgets what no stream to
// come can need.
import type { CaptureRecord, MessageRecord } from "../record.ts";

/** The events of one SSE response, in stream order, and the times of its first and last byte. */
export interface HarStream {
  events: MessageRecord[];
  from: number;
  to: number;
}

/** Moves past or before another record's time by this much (ms), so that a stable sort keeps the order. */
const EPSILON = 0.001;

interface Parsed {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: unknown;
  params?: { elicitationId?: unknown };
}

const parse = (text: string): Parsed[] => {
  try {
    const value: unknown = JSON.parse(text);
    const list = Array.isArray(value) ? value : [value];
    return list.filter((m): m is Parsed => typeof m === "object" && m !== null);
  } catch {
    return [];
  }
};

/**
 * An event's messages as placing reads them. Placing looks only at messages with an `id` and at completions (by
 * their `elicitationId`): a text that spells neither name, even escaped (`\u`), has none of either, so it is not
 * parsed (most events of a busy stream are progress and logging notifications).
 */
const placing = (text: string): Parsed[] =>
  text.includes('"id"') || text.includes('"elicitationId"') || text.includes("\\u") ? parse(text) : [];

/** JSON-RPC ids are strings or numbers; any other value (null, an object with its own toString) is a key of its own that pairs with nothing. */
let unpaired = 0;
const idOf = (id: unknown): string =>
  typeof id === "string" ? `s:${id}` : typeof id === "number" ? `n:${id}` : `x:${unpaired++}`;

/** A POST stream that answers its own request: the answer event, and the call's span and scope. */
interface Call {
  answer: MessageRecord;
  start: number;
  end: number;
  scope: string;
}

/** A GET stream's server requests: each bounds the call of its session open when the client answered it. */
interface GetRequest {
  scope: string;
  key: string;
  record: MessageRecord;
}

export interface StreamPlacer {
  /** Learns the session of a record's exchange (before `learn`, so that every scope knows it). */
  learnSession(record: CaptureRecord): void;
  /**
   * Learns what bounds events from one record: answers, request ids, where an elicitationId was issued. `requests`
   * false: its exchange has no SSE stream, so its request ids bound nothing (and a text that cannot be an answer
   * need not be parsed).
   */
  learn(record: CaptureRecord, requests?: boolean): void;
  /**
   * What a stream gives the placing of others, worked out while what it needs is known (a streaming import forgets
   * it later). True when the stream is a GET stream carrying server requests, which bound calls open beside them.
   */
  track(stream: HarStream): boolean;
  /** Places the events of `streams`; `context`: every stream whose call or GET requests may bound them (themselves included; only read when one of them is a GET stream with requests). */
  place(streams: readonly HarStream[], context: readonly HarStream[]): void;
  /** Forgets answers and issuers before `time` (no stream from then on needs them), and exchanges done with. */
  forget(time: number, exchanges: readonly string[]): void;
}

export function placeStreamEvents(drafts: readonly CaptureRecord[], streams: readonly HarStream[]): void {
  if (streams.length === 0) return;
  const placer = createStreamPlacer();
  // As a streaming import learns them: the request ids of an exchange without an SSE stream bound nothing.
  const streamed = new Set(streams.map((s) => s.events[0]?.exchange));
  for (const r of drafts) placer.learnSession(r);
  for (const r of drafts) placer.learn(r, streamed.has(r.exchange));
  placer.place(streams, streams);
}

export function createStreamPlacer(): StreamPlacer {
  // The session of each exchange, from the request headers its records carry.
  const sessionOf = new Map<string, string>();
  const scope = (r: CaptureRecord): string =>
    `${r.url ?? ""}\u0000${r.client ?? ""}\u0000${(r.exchange && sessionOf.get(r.exchange)) ?? ""}`;
  // The client's answers to server requests (POST bodies: their times are real), and its own request ids per POST.
  const answers = new Map<string, number>();
  const requestIds = new Map<string, Set<string>>();
  /** Where each elicitationId was issued: the record that carried it (an event, whose time may move). */
  const issuedBy = new Map<string, MessageRecord>();
  const sentAt = new Map<string, number>();
  /** When the client sent notifications/initialized, by scope, and each of its requests, by scope and id. */
  const initializedAt = new Map<string, number>();
  const requestAt = new Map<string, number>();
  const calls = new WeakMap<HarStream, Call | null>();
  const getRequests = new WeakMap<HarStream, GetRequest[]>();

  /** The stream's call: a POST stream that answers its own request. */
  const callOf = (stream: HarStream, parsed?: readonly { messages: Parsed[] }[]): Call | undefined => {
    const known = calls.get(stream);
    if (known !== undefined) return known ?? undefined;
    const first = stream.events[0]!;
    const start = first.exchange === undefined ? undefined : sentAt.get(first.exchange);
    let call: Call | null = null;
    if (first.stream === "post-sse" && start !== undefined) {
      const ids = requestIds.get(first.exchange!);
      const answers = (m: Parsed): boolean =>
        m.method === undefined && m.id !== undefined && ids?.has(idOf(m.id)) === true;
      const at = parsed
        ? parsed.findIndex(({ messages }) => messages.some(answers))
        : stream.events.findIndex((e) => placing(e.text).some(answers));
      if (at >= 0) call = { answer: stream.events[at]!, start, end: stream.to, scope: scope(first) };
    }
    calls.set(stream, call);
    return call ?? undefined;
  };

  const requestsOf = (stream: HarStream): GetRequest[] => {
    let known = getRequests.get(stream);
    if (known) return known;
    known = [];
    for (const record of stream.events) {
      if (record.stream !== "get-sse") continue;
      const at = scope(record);
      for (const m of placing(record.text)) {
        if (typeof m.method === "string" && m.id !== undefined)
          known.push({ scope: at, key: `${at}\u0000${idOf(m.id)}`, record });
      }
    }
    getRequests.set(stream, known);
    return known;
  };

  return {
    learnSession(r) {
      const session = r.kind === "message" ? r.headers?.["mcp-session-id"] : undefined;
      if (session !== undefined && r.exchange !== undefined && !sessionOf.has(r.exchange))
        sessionOf.set(r.exchange, session);
    },
    learn(r, requests = true) {
      if (r.kind !== "message") return;
      if (r.direction === "c2s") {
        if (r.exchange !== undefined && !sentAt.has(r.exchange)) sentAt.set(r.exchange, r.time);
        const bounds =
          r.text.includes('"result"') || r.text.includes('"error"') || r.text.includes("notifications/initialized");
        if (!requests && !bounds) return;
        for (const m of parse(r.text)) {
          if (m.method === undefined && m.id !== undefined && (m.result !== undefined || m.error !== undefined)) {
            const key = `${scope(r)}\u0000${idOf(m.id)}`;
            if (!answers.has(key)) answers.set(key, r.time);
          } else if (typeof m.method === "string" && m.id !== undefined && r.exchange !== undefined) {
            let ids = requestIds.get(r.exchange);
            if (!ids) requestIds.set(r.exchange, (ids = new Set()));
            ids.add(idOf(m.id));
            const key = `${scope(r)}\u0000${idOf(m.id)}`;
            if (!requestAt.has(key)) requestAt.set(key, r.time);
          } else if (m.method === "notifications/initialized" && m.id === undefined) {
            const key = scope(r);
            if (!initializedAt.has(key)) initializedAt.set(key, r.time);
          }
        }
      } else if (r.text.includes('"elicitationId"')) {
        for (const m of parse(r.text)) {
          const id = m.method === "elicitation/create" ? m.params?.elicitationId : undefined;
          if (typeof id === "string") issuedBy.set(`${scope(r)}\u0000${id}`, r);
          const entries = (m.error as { data?: { elicitations?: { elicitationId?: unknown }[] } } | undefined)?.data
            ?.elicitations;
          if (Array.isArray(entries))
            for (const e of entries)
              if (typeof e?.elicitationId === "string") issuedBy.set(`${scope(r)}\u0000${e.elicitationId}`, r);
        }
      }
    },
    track: (stream) => requestsOf(stream).length > 0,
    place(streams, context) {
      if (streams.length === 0) return;
      const events = streams.map((s) => s.events.map((e) => ({ record: e, messages: placing(e.text) })));
      streams.forEach((s, k) => callOf(s, events[k]));
      // A server request on the GET stream answered while exactly one call of its session was open belongs to that
      // call (the engine ties it so, and says the tie is inferred): the call's answer comes after it.
      const inferredBound = new Map<MessageRecord, number>();
      /** The GET-stream request that bounds the call comes after the call was sent. */
      const inferredAfter = new Map<MessageRecord, number>();
      const requests = context.flatMap(requestsOf);
      const open = requests.length ? context.flatMap((s) => callOf(s) ?? []) : [];
      for (const request of requests) {
        const answer = answers.get(request.key);
        if (answer === undefined) continue;
        const during = open.filter((c) => c.scope === request.scope && c.start <= answer && answer <= c.end);
        if (during.length !== 1) continue;
        const target = during[0]!.answer;
        inferredBound.set(target, Math.max(inferredBound.get(target) ?? -Infinity, answer + EPSILON));
        const sent = during[0]!.start + EPSILON;
        inferredAfter.set(request.record, Math.max(inferredAfter.get(request.record) ?? -Infinity, sent));
      }

      // The bounds refer to other events' times, which this pass moves: a few rounds settle them.
      for (let round = 0; round < 3; round++) {
        streams.forEach((stream, s) => {
          const list = events[s]!;
          const n = list.length;
          const lower = new Array<number>(n).fill(stream.from);
          const upper = new Array<number>(n).fill(stream.to);
          // What is expected rather than certain (after initialized, after the inferred call) yields to the rest.
          const soft = new Array<number>(n).fill(-Infinity);
          let answered = -Infinity;
          list.forEach(({ record, messages }, i) => {
            const key = scope(record);
            for (const m of messages) {
              if (typeof m.method === "string" && m.id !== undefined) {
                const answer = answers.get(`${key}\u0000${idOf(m.id)}`);
                if (answer !== undefined && answer <= stream.to) {
                  upper[i] = Math.min(upper[i]!, answer - EPSILON);
                  answered = Math.max(answered, answer);
                }
                const initialized = m.method === "ping" ? undefined : initializedAt.get(key);
                if (initialized !== undefined && initialized <= stream.to)
                  soft[i] = Math.max(soft[i]!, initialized + EPSILON);
              } else if (
                m.method === "notifications/elicitation/complete" &&
                typeof m.params?.elicitationId === "string"
              ) {
                const issued = issuedBy.get(`${key}\u0000${m.params.elicitationId}`);
                // The stream's own order is what the capture does hold: an issuer later on this same stream bounds nothing.
                if (
                  issued !== undefined &&
                  issued !== record &&
                  issued.time <= stream.to &&
                  !list.some((e, j) => j > i && e.record === issued)
                )
                  lower[i] = Math.max(lower[i]!, issued.time + EPSILON);
              } else if (m.method === undefined && m.id !== undefined) {
                const sent = requestAt.get(`${key}\u0000${idOf(m.id)}`);
                if (sent !== undefined && sent <= stream.to)
                  lower[i] = Math.max(lower[i]!, Math.min(sent + EPSILON, stream.to));
                const own = record.exchange !== undefined && requestIds.get(record.exchange)?.has(idOf(m.id)) === true;
                if (answered > -Infinity && own) lower[i] = Math.max(lower[i]!, answered + EPSILON);
              }
            }
          });
          for (let i = 0; i < n; i++) {
            const bound = inferredBound.get(list[i]!.record);
            if (bound !== undefined && bound <= stream.to) lower[i] = Math.max(lower[i]!, bound);
            const after = inferredAfter.get(list[i]!.record);
            if (after !== undefined && after <= stream.to) soft[i] = Math.max(soft[i]!, after);
            lower[i] = Math.max(lower[i]!, Math.min(soft[i]!, upper[i]!));
          }
          // Each bound, then the stream's own order.
          for (let i = 0; i < n; i++) {
            const record = list[i]!.record;
            let t = record.time;
            t = Math.min(Math.max(t, lower[i]!), Math.max(upper[i]!, lower[i]!));
            record.time = t;
          }
          for (let i = 1; i < n; i++) list[i]!.record.time = Math.max(list[i]!.record.time, list[i - 1]!.record.time);
          for (let i = n - 2; i >= 0; i--)
            list[i]!.record.time = Math.min(list[i]!.record.time, list[i + 1]!.record.time);
        });
      }
    },
    forget(time, exchanges) {
      // Made in about time order: the oldest are first.
      for (const [key, at] of answers) {
        if (at >= time) break;
        answers.delete(key);
      }
      for (const [key, at] of requestAt) {
        if (at >= time) break;
        requestAt.delete(key);
      }
      for (const [key, record] of issuedBy) {
        if (record.time >= time) break;
        issuedBy.delete(key);
      }
      for (const x of exchanges) {
        sessionOf.delete(x);
        requestIds.delete(x);
        sentAt.delete(x);
      }
    },
  };
}
