import type { CaptureRecord, MessageRecord } from "../record.ts";
import { INSPECTOR_V2 } from "./inspectorV2.ts";

/**
 * HAR imports of MCP Inspector v2.
 *
 * A HAR keeps no body of a stream that was still open, or was cut, when it was saved (Chromium's recorder and
 * DevTools alike: Network.getResponseBody has no data for it), and the inspector's events stream is open for the
 * whole session; test/capture/fixtures/inspector-v2-aborted.har is such a file. Its sessions' client messages
 * alone would be judged against questions that are not in the file (an answer to an unknown elicitation id), so
 * they are left out and said so: `unheard`.
 *
 * When the events stream is in the file (it ended before the HAR was saved), a HAR has one time for an event stream's first byte and one for its last, and
 * importHar spreads the events evenly between them — which puts the server's answers before the requests they
 * answer, because the events stream stays open for the whole session. The backend's send API gives better
 * times: `/api/mcp/send` answers `{"ok":true}` only once the answer to a request went out on the events stream
 * (2.12.0 clients/web/build/index.js: `await responseWait` before `c.json({ ok: true })`), and the client's answer
 * to a server request is sent after that request arrived. So each event is placed as late as those bounds allow,
 * in stream order:
 *
 * - the answer to request N: after send N started, before send N's response head;
 * - a server request M: before the send carrying the client's answer to M started;
 * - a notification: before the next event.
 *
 * Only the order matters to the engine (and user time: a question answered at once in the HAR may have waited);
 * the live capture has the real times.
 */
export interface EntryTimes {
  start: number;
  /** start + blocked + dns + connect + send + wait: the response head. */
  headAt: number;
  endAt: number;
}

/** Apart by this much (ms) from what an event is placed before or after: times are fractional. */
const EPS = 1e-3;

const key = (id: unknown): string => (typeof id === "string" ? `s:${id}` : `n:${String(id)}`);

function messagesOf(text: string): Record<string, unknown>[] {
  try {
    const value: unknown = JSON.parse(text);
    return (Array.isArray(value) ? value : [value]).filter(
      (m): m is Record<string, unknown> => typeof m === "object" && m !== null && !Array.isArray(m),
    );
  } catch {
    return [];
  }
}

export interface InspectorHar {
  /** Backend sessions whose client messages are in the HAR and none of the server's, with how many were left out. */
  unheard: { session: string; messages: number }[];
  /** The records to import: without the messages of unheard sessions. */
  records: CaptureRecord[];
}

/** Places the events of every backend session (see above) and leaves out the sessions the server is not heard in. */
export function settleInspectorSessions(
  records: CaptureRecord[],
  times: ReadonlyMap<number, EntryTimes>,
): InspectorHar {
  const sessions = placeInspectorEvents(records, times);
  const unheard = [...sessions]
    .filter(([, s]) => s.streams.size === 0)
    .map(([exchange, s]) => ({ session: exchange.slice("iv2:".length), messages: s.sent.length }));
  if (unheard.length === 0) return { unheard, records };
  const dropped = new Set(unheard.map((u) => `iv2:${u.session}`));
  return {
    unheard,
    records: records.filter(
      (r) =>
        !(r.kind === "message" && r.envelope === INSPECTOR_V2 && r.exchange !== undefined && dropped.has(r.exchange)),
    ),
  };
}

interface Session {
  sent: MessageRecord[];
  /** Events stream entry → its messages, in stream order. */
  streams: Map<number, MessageRecord[]>;
}

function placeInspectorEvents(
  records: readonly CaptureRecord[],
  times: ReadonlyMap<number, EntryTimes>,
): Map<string, Session> {
  const sessions = new Map<string, Session>();
  for (const r of records) {
    if (r.kind !== "message" || r.envelope !== INSPECTOR_V2 || r.exchange === undefined || r.entry === undefined)
      continue;
    let session = sessions.get(r.exchange);
    if (!session) sessions.set(r.exchange, (session = { sent: [], streams: new Map() }));
    if (r.direction === "c2s") session.sent.push(r);
    else {
      const stream = session.streams.get(r.entry);
      if (stream) stream.push(r);
      else session.streams.set(r.entry, [r]);
    }
  }
  for (const { sent, streams } of sessions.values()) {
    const requests = new Map<string, MessageRecord>();
    const answers = new Map<string, MessageRecord>();
    for (const r of sent) {
      for (const m of messagesOf(r.text)) {
        if (m.id === undefined) continue;
        const table = typeof m.method === "string" ? requests : answers;
        if (!table.has(key(m.id))) table.set(key(m.id), r);
      }
    }
    for (const [entry, events] of streams) {
      const stream = times.get(entry);
      if (!stream) continue;
      const lower = events.map(() => stream.headAt);
      // Not the stream's end: the HAR's timings of a stream cut by the page say little of when its events came.
      const upper = events.map(() => Infinity);
      events.forEach((event, k) => {
        for (const m of messagesOf(event.text)) {
          if (m.id === undefined) continue;
          if (typeof m.method === "string") {
            const answer = answers.get(key(m.id));
            if (answer) upper[k] = Math.min(upper[k]!, answer.time - EPS);
          } else {
            const request = requests.get(key(m.id));
            if (!request) continue;
            lower[k] = Math.max(lower[k]!, request.time + EPS);
            const head = request.entry === undefined ? undefined : times.get(request.entry)?.headAt;
            if (head !== undefined) upper[k] = Math.min(upper[k]!, head - EPS);
          }
        }
      });
      // As late as the bounds allow, each before the next; then no earlier than its own lower bound or the previous.
      let next = Infinity;
      for (let k = events.length - 1; k >= 0; k--) {
        const latest = Math.min(upper[k]!, next - EPS);
        // Events after the last bound stay where the HAR put them (spread up to the stream's end).
        next = events[k]!.time = latest === Infinity ? Math.max(events[k]!.time, stream.endAt) : latest;
      }
      let previous = -Infinity;
      for (let k = 0; k < events.length; k++)
        previous = events[k]!.time = Math.max(events[k]!.time, lower[k]!, previous + EPS);
    }
  }
  return sessions;
}
