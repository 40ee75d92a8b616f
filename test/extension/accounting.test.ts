import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { listenToTap } from "../../src/content/listen.ts";
import { createUplink } from "../../src/content/uplink.ts";
import { createEmitter } from "../../src/page/emit.ts";
import type { Natives } from "../../src/page/natives.ts";
import { CONTENT_PORT, MAX_BATCH, MAX_ENVELOPE_CHARS } from "../../src/shared/tags.ts";
import type { RecordDraft } from "../../src/shared/tapRecord.ts";
import { portPair } from "./fakes.ts";

/** Waits until `check` holds (polling, up to 30 s: thousands of records go through the real engine). */
async function settle(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Every record the tap makes is stored or counted, through the real tap emitter, relay listener, uplink and
 * worker hub (Node's EventTarget stands in for the window; test/extension/load.test.ts does it in Chromium).
 */
class FakeMouseEvent extends Event {
  relatedTarget: EventTarget | null;
  constructor(type: string, init: { relatedTarget?: EventTarget | null }) {
    super(type);
    this.relatedTarget = init.relatedTarget ?? null;
  }
}

function natives(): Natives {
  return {
    EventTarget,
    CustomEvent,
    MouseEvent: FakeMouseEvent,
    dispatch: (target: EventTarget, event: Event) => target.dispatchEvent(event),
    listen: (target: EventTarget, type: string, listener: (event: Event) => void, capture?: boolean) =>
      target.addEventListener(type, listener, capture),
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms) as unknown as number,
    clearTimeout: (handle: number) => clearTimeout(handle as unknown as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  } as unknown as Natives;
}

/** A page in miniature: tap emitter → relay listener → uplink → worker, one tab. */
function pipe(options: { limits?: { maxBytes: number; maxRecordBytes: number }; maxQueue?: number } = {}) {
  const win = new EventTarget();
  const store = createMemoryStore();
  const hub = createHub({ store, flushMs: 5, ackMs: 0, limits: options.limits });
  let up = true;
  const relay = createUplink({
    doc: "d1",
    top: true,
    maxQueue: options.maxQueue,
    connect() {
      const pair = portPair(CONTENT_PORT, { tab: { id: 1 } });
      // Unreachable: the port drops at once (a worker that cannot start), and the relay backs off and retries.
      if (up) hub.connectContent(pair.server as HubPort);
      else setImmediate(() => pair.server.disconnect());
      return pair.client;
    },
  });
  const envelopes: string[] = [];
  listenToTap(win as unknown as Window, (items, rejected, tooLarge) => {
    envelopes.push(...items);
    relay.push(items, rejected, tooLarge);
  });
  const emitter = createEmitter(win as unknown as Window, natives(), 1, 5);
  return {
    emitter,
    envelopes,
    relay,
    store,
    hub,
    setUp(value: boolean) {
      up = value;
    },
    pagehide: () => win.dispatchEvent(new Event("pagehide")),
    stats: async () => (await hub.session(1)).stats(),
  };
}

const message = (
  i: number,
  text = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i}}}`,
): RecordDraft => ({
  time: 1_700_000_000_000 + i,
  transport: "http",
  exchange: "x1",
  url: "http://127.0.0.1/mcp",
  kind: "message",
  direction: "s2c",
  stream: "post-sse",
  text,
});

describe("every record stored or counted", () => {
  test("a burst of 12,000 records is split by count into envelopes the worker accepts; all are stored in order", async () => {
    const p = pipe();
    const n = 12_000;
    for (let i = 0; i < n; i++) p.emitter.emit(message(i));
    p.pagehide();
    assert.ok(p.envelopes.length >= Math.ceil(n / MAX_BATCH), `${p.envelopes.length} envelopes`);
    await settle(() => p.relay.state().queued === 0 && (p.store.tabs.get(1)?.records.length ?? 0) === n, "all stored");
    const stored = p.store.tabs.get(1)!.records;
    assert.deepEqual(
      stored.map((r) => (r.kind === "message" ? JSON.parse(r.text).params.progress : -1)),
      [...Array(n).keys()],
    );
    const stats = await p.stats();
    assert.deepEqual([stats.records, stats.dropped, stats.rejected, stats.tooLarge], [n, 0, 0, 0]);
  });

  test("a record too large for an envelope alone is counted as too large; the records around it are stored", async () => {
    const p = pipe();
    p.emitter.emit(message(0));
    p.emitter.emit(message(1, `"${"x".repeat(MAX_ENVELOPE_CHARS)}"`));
    p.emitter.emit(message(2));
    p.pagehide();
    await settle(async () => (await p.stats()).tooLarge === 1 && (await p.stats()).records === 2, "counted");
    assert.ok(p.envelopes.every((e) => e.length <= MAX_ENVELOPE_CHARS));
  });

  test("a record over the worker's per-record limit is dropped and counted as too large", async () => {
    const p = pipe({ limits: { maxBytes: 2 ** 30, maxRecordBytes: 10_000 } });
    p.emitter.emit(message(0));
    p.emitter.emit(message(1, `"${"y".repeat(20_000)}"`));
    p.emitter.emit(message(2));
    p.pagehide();
    await settle(async () => (await p.stats()).records + (await p.stats()).tooLarge === 3, "stored or counted");
    const stats = await p.stats();
    assert.deepEqual([stats.records, stats.tooLarge, stats.dropped, stats.rejected], [2, 1, 0, 0]);
  });

  test("past the memory budget records are dropped and counted: stored + dropped = sent", async () => {
    const p = pipe({ limits: { maxBytes: 200_000, maxRecordBytes: 8 * 2 ** 20 } });
    const n = 3_000;
    for (let i = 0; i < n; i++) p.emitter.emit(message(i));
    p.pagehide();
    await settle(async () => {
      const s = await p.stats();
      return s.records + s.dropped === n;
    }, "stored + dropped = sent");
    const stats = await p.stats();
    assert.ok(stats.records > 100 && stats.dropped > 100, JSON.stringify(stats));
    assert.ok(stats.bytes <= stats.budget);
    // The first records are kept, the rest counted: the stored ones are exactly the first `records` sent.
    const stored = p.store.tabs.get(1)!.records;
    assert.deepEqual(
      stored.map((r) => (r.kind === "message" ? JSON.parse(r.text).params.progress : -1)),
      [...Array(stats.records).keys()],
    );
  });

  test("a relay whose queue is full (worker unreachable) counts the records of every envelope it cannot keep", async () => {
    const p = pipe({ maxQueue: 3 });
    p.setUp(false);
    // Ten bursts, each its own envelope of 7 records.
    for (let burst = 0; burst < 10; burst++) {
      for (let i = 0; i < 7; i++) p.emitter.emit(message(burst * 7 + i));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    p.pagehide();
    assert.equal(p.envelopes.length, 10);
    p.setUp(true);
    p.emitter.emit(message(70));
    p.pagehide();
    await settle(async () => {
      const s = await p.stats();
      return s.records + s.dropped === 71;
    }, "stored + dropped = sent");
    const stats = await p.stats();
    // The three envelopes queued first are stored; the seven that met a full queue, and the last one (it came
    // before the relay got through again), are counted.
    assert.deepEqual([stats.records, stats.dropped], [3 * 7, 7 * 7 + 1]);
  });

  test("refused records are counted as many as the refused envelope carried", async () => {
    const store = createMemoryStore();
    const hub = createHub({ store, flushMs: 5, ackMs: 0 });
    const pair = portPair(CONTENT_PORT, { tab: { id: 2 } });
    hub.connectContent(pair.server as HubPort);
    const relay = createUplink({ connect: () => pair.client, doc: "d", top: true });
    // A tap envelope of another version: three records, none stored, all three counted.
    relay.push([
      JSON.stringify({
        source: "mcp-elicitation-inspector/tap",
        v: 99,
        kind: "records",
        records: [message(0), message(1), message(2)],
      }),
    ]);
    // One bad record among good ones.
    relay.push([
      JSON.stringify({
        source: "mcp-elicitation-inspector/tap",
        v: 1,
        kind: "records",
        records: [message(3), { kind: "message" }, message(4)],
      }),
    ]);
    await settle(async () => (await hub.session(2)).stats().rejected === 4, "refused");
    assert.equal((await hub.session(2)).stats().records, 2);
  });
});
