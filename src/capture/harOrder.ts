// A HAR holds no time per SSE event: har.ts spreads a stream's events between its first and last byte, which is
// a guess. The order that guess gives is never evidence: this pass moves the events of each stream to where what
// must have happened puts them, keeping each stream's own order (its events came in that order) within the
// stream's first and last byte:
// - a server request comes before the client's answer to it (same session, same id, the server's id space);
// - a stream's answer to its POST's request comes after the client's answers to the server requests it carried;
// - notifications/elicitation/complete comes after the elicitation that issued its elicitationId;
// - a server request on the standalone GET stream answered while exactly one call of the session was open: the
//   call's own answer is placed after that answer (the engine ties the two, and the flow says the tie is inferred).
import type { CaptureRecord, MessageRecord } from "./record.ts";

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

/** JSON-RPC ids are strings or numbers; any other value (null, an object with its own toString) is a key of its own that pairs with nothing. */
let unpaired = 0;
const idOf = (id: unknown): string => (typeof id === "string" ? `s:${id}` : typeof id === "number" ? `n:${id}` : `x:${unpaired++}`);

export function placeStreamEvents(drafts: readonly CaptureRecord[], streams: readonly HarStream[]): void {
  if (streams.length === 0) return;
  // The session of each exchange, from the request headers its records carry.
  const sessionOf = new Map<string, string>();
  for (const r of drafts) {
    const session = r.kind === "message" ? r.headers?.["mcp-session-id"] : undefined;
    if (session !== undefined && r.exchange !== undefined && !sessionOf.has(r.exchange)) sessionOf.set(r.exchange, session);
  }
  const scope = (r: CaptureRecord): string => `${r.url ?? ""}\u0000${r.client ?? ""}\u0000${(r.exchange && sessionOf.get(r.exchange)) ?? ""}`;
  // The client's answers to server requests (POST bodies: their times are real), and its own request ids per POST.
  const answers = new Map<string, number>();
  const requestIds = new Map<string, Set<string>>();
  for (const r of drafts) {
    if (r.kind !== "message" || r.direction !== "c2s") continue;
    for (const m of parse(r.text)) {
      if (m.method === undefined && m.id !== undefined && (m.result !== undefined || m.error !== undefined)) {
        const key = `${scope(r)}\u0000${idOf(m.id)}`;
        if (!answers.has(key)) answers.set(key, r.time);
      } else if (typeof m.method === "string" && m.id !== undefined && r.exchange !== undefined) {
        let ids = requestIds.get(r.exchange);
        if (!ids) requestIds.set(r.exchange, (ids = new Set()));
        ids.add(idOf(m.id));
      }
    }
  }
  const events = streams.map((s) => s.events.map((e) => ({ record: e, messages: parse(e.text) })));
  /** Where each elicitationId was issued: the record that carried it (an event, whose time may move). */
  const issuedBy = new Map<string, MessageRecord>();
  for (const r of drafts) {
    if (r.kind !== "message" || r.direction !== "s2c" || !r.text.includes('"elicitationId"')) continue;
    for (const m of parse(r.text)) {
      const id = m.method === "elicitation/create" ? m.params?.elicitationId : undefined;
      if (typeof id === "string") issuedBy.set(`${scope(r)}\u0000${id}`, r);
      const entries = (m.error as { data?: { elicitations?: { elicitationId?: unknown }[] } } | undefined)?.data?.elicitations;
      if (Array.isArray(entries)) for (const e of entries) if (typeof e?.elicitationId === "string") issuedBy.set(`${scope(r)}\u0000${e.elicitationId}`, r);
    }
  }

  // A server request on the GET stream answered while exactly one call of its session was open belongs to that
  // call (the engine ties it so, and says the tie is inferred): the call's answer comes after it.
  const sentAt = new Map<string, number>();
  for (const r of drafts) if (r.kind === "message" && r.direction === "c2s" && r.exchange !== undefined && !sentAt.has(r.exchange)) sentAt.set(r.exchange, r.time);
  const calls = streams.flatMap((stream, s) => {
    const first = stream.events[0]!;
    const start = first.exchange === undefined ? undefined : sentAt.get(first.exchange);
    if (first.stream !== "post-sse" || start === undefined) return [];
    const ids = requestIds.get(first.exchange!);
    const answer = events[s]!.findIndex(({ messages }) => messages.some((m) => m.method === undefined && m.id !== undefined && ids?.has(idOf(m.id))));
    return answer < 0 ? [] : [{ stream: s, answer, start, end: stream.to, scope: scope(first) }];
  });
  const inferredBound = new Map<string, number>();
  for (const list of events) {
    for (const { record, messages } of list) {
      if (record.stream !== "get-sse") continue;
      for (const m of messages) {
        if (typeof m.method !== "string" || m.id === undefined) continue;
        const key = scope(record);
        const answer = answers.get(`${key}\u0000${idOf(m.id)}`);
        if (answer === undefined) continue;
        const open = calls.filter((c) => c.scope === key && c.start <= answer && answer <= c.end);
        if (open.length !== 1) continue;
        const id = `${open[0]!.stream}:${open[0]!.answer}`;
        inferredBound.set(id, Math.max(inferredBound.get(id) ?? -Infinity, answer + EPSILON));
      }
    }
  }

  // The bounds refer to other events' times, which this pass moves: a few rounds settle them.
  for (let round = 0; round < 3; round++) {
    streams.forEach((stream, s) => {
      const list = events[s]!;
      const n = list.length;
      const lower = new Array<number>(n).fill(stream.from);
      const upper = new Array<number>(n).fill(stream.to);
      let answered = -Infinity;
      list.forEach(({ record, messages }, i) => {
        const key = scope(record);
        for (const m of messages) {
          if (typeof m.method === "string" && m.id !== undefined) {
            const answer = answers.get(`${key}\u0000${idOf(m.id)}`);
            if (answer !== undefined) {
              upper[i] = Math.min(upper[i]!, answer - EPSILON);
              answered = Math.max(answered, answer);
            }
          } else if (m.method === "notifications/elicitation/complete" && typeof m.params?.elicitationId === "string") {
            const issued = issuedBy.get(`${key}\u0000${m.params.elicitationId}`);
            // The stream's own order is what the capture does hold: an issuer later on this same stream bounds nothing.
            if (issued !== undefined && issued !== record && !list.some((e, j) => j > i && e.record === issued)) lower[i] = Math.max(lower[i]!, issued.time + EPSILON);
          } else if (m.method === undefined && m.id !== undefined && record.exchange !== undefined && requestIds.get(record.exchange)?.has(idOf(m.id))) {
            if (answered > -Infinity) lower[i] = Math.max(lower[i]!, answered + EPSILON);
          }
        }
      });
      for (let i = 0; i < n; i++) {
        const bound = inferredBound.get(`${s}:${i}`);
        if (bound !== undefined) lower[i] = Math.max(lower[i]!, bound);
      }
      // Each bound, then the stream's own order.
      for (let i = 0; i < n; i++) {
        const record = list[i]!.record;
        let t = record.time;
        t = Math.min(Math.max(t, lower[i]!), Math.max(upper[i]!, lower[i]!));
        record.time = t;
      }
      for (let i = 1; i < n; i++) list[i]!.record.time = Math.max(list[i]!.record.time, list[i - 1]!.record.time);
      for (let i = n - 2; i >= 0; i--) list[i]!.record.time = Math.min(list[i]!.record.time, list[i + 1]!.record.time);
    });
  }
}
