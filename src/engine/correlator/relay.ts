// The join of a hosted agent's two wires: the agent backend's MCP wire (records with `source: "backend"`, from
// `mcp-elicit proxy`) and the page's relayed elicitations (records stamped `relay:<shape>`, src/capture/envelopes/
// relay.ts). A backend elicitation and the page's relayed ask for it are one flow: server → agent → page → user →
// agent → server. Matched by the id they share, else message and schema, else message, else order, in time order;
// a join that is a guess says so (`inferred`). The join never judges: it tells the relay rules what happened.
import type { MessageRecord } from "../../capture/record.ts";
import { originAndPath } from "../../capture/record.ts";
import { canonicalJson, isObject } from "../../util/json.ts";
import type { Env } from "../env.ts";
import type { Emit } from "../facts.ts";
import { createElicitation, type Elicitation, type Flow, type Relay } from "../flow.ts";
import { attachState } from "../flowState.ts";

/** Clocks of the proxy and of the page may differ a little (two processes, one machine): asks this close still join. */
const SKEW_MS = 2000;
/**
 * How long after the agent's answer the page's ask may still come: the two wires reach the engine by different
 * roads (the tap batches up to 250 ms, the proxy's feed streams at once), so an ask is judged unshown only once
 * records (or the clock, `settle`) have passed this far beyond the answer.
 */
export const RELAY_GRACE_MS = 2000;
const RELAY_PREFIX = "relay:";

interface BackendAsk {
  flow: Flow;
  el: Elicitation;
  page: PageAsk | undefined;
}

interface PageAsk {
  relay: Relay;
  /** The flow shown for it: the backend's once joined, else a `relay` flow of its own. */
  flow: Flow;
  backend: BackendAsk | undefined;
  /** Its own `relay` flow, when it had one before the join. */
  own: Flow | undefined;
}

export interface RelayOptions {
  /** The page side is watched (a live tab): an ask the agent answered without relaying it is reported at once. */
  pageWatched?: boolean;
}

export function createRelays(env: Env, emit: Emit, options: RelayOptions = {}) {
  const backendAsks: BackendAsk[] = [];
  const byElicitation = new WeakMap<Elicitation, BackendAsk>();
  /** Page asks in the order they came, and by `url NUL id` for their answers and repeats. */
  const pageAsks: PageAsk[] = [];
  const byId = new Map<string, PageAsk>();
  /** Backend asks the agent answered with no page ask joined yet: judged once RELAY_GRACE_MS have passed. */
  let unshown: { b: BackendAsk; record: number; at: number }[] = [];
  /**
   * Whether the capture holds the page's side of this agent: the tab is watched live, or the app's relays were
   * recognised in it. A page capture without any (another client's page, an app whose shape is not recognised and
   * has no decoder) says nothing of what the agent relayed.
   */
  let pageSeen = options.pageWatched === true;

  const addRecord = (flow: Flow, seq: number): void => {
    const records = flow.records;
    let i = records.length;
    while (i > 0 && records[i - 1]! > seq) i--;
    if (records[i - 1] !== seq) records.splice(i, 0, seq);
    env.flowChanged(flow);
  };

  const sameSchema = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);
  const sharesId = (relay: Relay, el: Elicitation): boolean =>
    relay.id !== undefined && (relay.id === el.elicitationId || relay.id === el.key);
  type Level = NonNullable<Relay["joinedBy"]>;
  function level(relay: Relay, el: Elicitation): Level | undefined {
    if ((relay.params.mode === "url") !== (el.mode === "url")) return undefined;
    if (sharesId(relay, el)) return "id";
    if (relay.params.message === el.message) {
      if (el.mode === "url" ? relay.params.url === el.url : sameSchema(relay.params.requestedSchema, el.schema))
        return "message+schema";
      return "message";
    }
    return "order";
  }
  const RANK: Record<Level, number> = { id: 3, "message+schema": 2, message: 1, order: 0 };

  /** The best of `candidates` for a relay: the highest level, then the earliest; a guess when it is by order or one of several. */
  function best<T>(
    candidates: T[],
    levelOf: (c: T) => Level | undefined,
  ): { pick: T; by: Level; inferred: boolean } | undefined {
    let pick: T | undefined;
    let by: Level | undefined;
    let ties = 0;
    for (const c of candidates) {
      const l = levelOf(c);
      if (l === undefined) continue;
      if (by === undefined || RANK[l] > RANK[by]) {
        pick = c;
        by = l;
        ties = 1;
      } else if (l === by) ties++;
    }
    if (pick === undefined || by === undefined) return undefined;
    return { pick, by, inferred: by === "order" || (by !== "id" && ties > 1) };
  }

  function join(b: BackendAsk, p: PageAsk, by: Level, inferred: boolean): void {
    b.page = p;
    p.backend = b;
    const relay = p.relay;
    relay.joinedBy = by;
    if (inferred) relay.inferred = true;
    relay.askMs = relay.askedAt - b.el.askedAt;
    b.el.relay = relay;
    if (p.own) {
      p.own.joinedInto = b.flow.id;
      env.flowChanged(p.own);
    }
    p.flow = b.flow;
    addRecord(b.flow, relay.askRecord);
    if (relay.answerRecord !== undefined) addRecord(b.flow, relay.answerRecord);
    emit("relayJoined", { flow: b.flow, revision: b.flow.revision, record: relay.askRecord, el: b.el, relay });
    if (relay.answeredAt !== undefined && b.el.answeredAt !== undefined) forwarded(b);
  }

  /** Both answers are known: the user's in the page, and what the agent sent the server. */
  function forwarded(b: BackendAsk): void {
    const relay = b.el.relay!;
    const at = b.el.answeredAt!;
    if (at + SKEW_MS < relay.answeredAt!) {
      // The agent answered the server before the user answered in the page: the user's answer went nowhere.
      emit("relayLost", {
        flow: b.flow,
        revision: b.flow.revision,
        record: relay.answerRecord!,
        el: b.el,
        relay,
        why: "answered-before",
      });
      return;
    }
    relay.answerMs = at - relay.answeredAt!;
    env.flowChanged(b.flow);
    emit("relayForwarded", { flow: b.flow, revision: b.flow.revision, record: b.el.answerRecord!, el: b.el, relay });
  }

  function relayFlow(record: MessageRecord, relay: Relay): Flow {
    const params = relay.params;
    const el = createElicitation(
      relay.id ?? `relay-${pageAsks.length + 1}`,
      params.mode === "url" ? "url" : "form",
      params.message,
      1,
      record.seq,
      "/params",
      record.time,
    );
    if (params.requestedSchema !== undefined) el.schema = params.requestedSchema;
    if (params.url !== undefined) el.url = params.url;
    if (typeof params.elicitationId === "string") el.elicitationId = params.elicitationId;
    el.relay = relay;
    const flow: Flow = {
      id: env.newFlowId(),
      kind: "relay",
      revision: null,
      method: "(relayed by the app)",
      target: null,
      server: originAndPath(record.url ?? "") ?? record.url ?? "(page)",
      envelope: record.envelope,
      session: "",
      elicitations: [el],
      rounds: [],
      status: "pending",
      startedAt: record.time,
      serverMs: 0,
      userMs: 0,
      records: [record.seq],
      endedAt: undefined,
    };
    attachState(flow, "user", record.time);
    env.flowChanged(flow);
    return flow;
  }

  function pageAsk(
    record: MessageRecord,
    shape: string,
    id: string | undefined,
    params: Record<string, unknown>,
  ): void {
    const key = id === undefined ? undefined : `${record.url ?? ""}\u0000${id}`;
    const known = key === undefined ? undefined : byId.get(key);
    if (known) return addRecord(known.flow, record.seq); // the app sent the same ask again (a state update)
    const relay: Relay = {
      shape,
      ...(id !== undefined && { id }),
      ...(record.url !== undefined && { url: record.url }),
      params,
      askRecord: record.seq,
      askedAt: record.time,
    };
    const p: PageAsk = { relay, flow: undefined as unknown as Flow, backend: undefined, own: undefined };
    pageAsks.push(p);
    if (key !== undefined) byId.set(key, p);
    const open = backendAsks.filter((b) => b.page === undefined && b.el.askedAt <= record.time + SKEW_MS);
    const found = best(open, (b) => level(relay, b.el));
    if (found) return join(found.pick, p, found.by, found.inferred);
    p.own = p.flow = relayFlow(record, relay);
  }

  function pageAnswer(record: MessageRecord, id: string | undefined, result: Record<string, unknown>): void {
    let p = id === undefined ? undefined : byId.get(`${record.url ?? ""}\u0000${id}`);
    // An answer on its own route (`POST /api/elicit/<id>`) has another URL than the stream that carried the ask.
    if (!p && id !== undefined) p = pageAsks.find((a) => a.relay.id === id && a.relay.answeredAt === undefined);
    let guessed = false;
    if (!p) {
      p = pageAsks.find((a) => a.relay.answeredAt === undefined && a.relay.askedAt <= record.time);
      guessed = true;
    }
    if (!p)
      return env.problem(
        record,
        "A relayed answer (an action the page sent) with no relayed ask before it: not joined.",
      );
    const relay = p.relay;
    relay.action = typeof result.action === "string" ? result.action : undefined;
    if ("content" in result) relay.content = result.content;
    relay.answerRecord = record.seq;
    relay.answeredAt = record.time;
    if (guessed && p.backend) relay.inferred = true;
    if (p.own && !p.backend) {
      const el = p.own.elicitations[0]!;
      el.action = relay.action ?? null;
      if ("content" in result) el.content = result.content;
      el.answerRecord = record.seq;
      el.answerPointer = "/result";
      el.answeredAt = record.time;
      el.completed = el.mode !== "url";
      p.own.userMs = Math.max(0, record.time - relay.askedAt);
      p.own.status = "complete";
      p.own.endedAt = record.time;
    }
    addRecord(p.flow, record.seq);
    if (p.backend && p.backend.el.answeredAt !== undefined) forwarded(p.backend);
  }

  return {
    /** A message stamped `relay:<shape>`: the page received an ask or sent an answer. */
    isRelay: (record: MessageRecord): boolean =>
      record.envelope !== undefined && record.envelope.startsWith(RELAY_PREFIX),

    page(record: MessageRecord): void {
      pageSeen = true;
      let body: unknown;
      try {
        body = JSON.parse(record.text);
      } catch {
        body = undefined;
      }
      if (!isObject(body))
        return env.problem(record, "A relayed elicitation record whose text is not the relay's JSON object.");
      const shape = record.envelope!.slice(RELAY_PREFIX.length);
      const id = typeof body.id === "string" ? body.id : undefined;
      if (body.relay === "ask" && isObject(body.params)) return pageAsk(record, shape, id, body.params);
      if (body.relay === "answer" && isObject(body.result)) return pageAnswer(record, id, body.result);
      env.problem(record, "A relayed elicitation record that is neither an ask nor an answer.");
    },

    /** The agent backend received an elicitation (its MCP wire). */
    backendAsked(flow: Flow, el: Elicitation): void {
      const b: BackendAsk = { flow, el, page: undefined };
      byElicitation.set(el, b);
      backendAsks.push(b);
      const waiting = pageAsks.filter((p) => p.backend === undefined && p.relay.askedAt + SKEW_MS >= el.askedAt);
      const found = best(waiting, (p) => level(p.relay, el));
      if (found) join(b, found.pick, found.by, found.inferred);
    },

    /** The agent answered the server. */
    backendAnswered(flow: Flow, el: Elicitation, record: MessageRecord): void {
      const b = byElicitation.get(el);
      if (!b) return;
      if (b.page) {
        if (b.page.relay.answeredAt !== undefined) forwarded(b);
        return;
      }
      unshown.push({ b, record: record.seq, at: record.time });
    },

    /** Judges the asks whose grace has passed by `now` (a record's time, the worker's clock, or Infinity at the end). */
    settle(now: number): void {
      if (unshown.length === 0) return;
      const due = unshown.filter((u) => u.at + RELAY_GRACE_MS <= now);
      if (due.length === 0) return;
      unshown = unshown.filter((u) => u.at + RELAY_GRACE_MS > now);
      for (const { b, record } of due) {
        if (b.page || !pageSeen) continue;
        emit("relayUnshown", { flow: b.flow, revision: b.flow.revision, record, el: b.el });
      }
    },

    /** Whether some judgement waits for its grace (the worker sets a timer for it). */
    unsettled: (): boolean => unshown.length > 0,

    /** A backend flow ended: answers the page gave that never reached the server are lost. */
    backendEnded(flow: Flow): void {
      for (const el of flow.elicitations) {
        const relay = el.relay;
        if (relay?.answeredAt !== undefined && el.answeredAt === undefined) {
          emit("relayLost", {
            flow,
            revision: flow.revision,
            record: relay.answerRecord!,
            el,
            relay,
            why: "never-forwarded",
          });
        }
      }
    },
  };
}
