import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { keptHeaders, type CaptureRecord } from "../../src/capture/record.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import { analyze } from "../../src/engine/index.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { recordBytes } from "../../src/background/budget.ts";
import { badgeFor } from "../../src/background/badge.ts";
import { createUplink } from "../../src/content/uplink.ts";
import { KEPT_HEADERS } from "../../src/page/mcp.ts";
import { senderRole } from "../../src/page/messageTap.ts";
import { CONTENT_PORT } from "../../src/shared/tags.ts";
import type { TapRecord } from "../../src/shared/tapRecord.ts";
import { connectPanel, portPair, settle, tick, type FakePort } from "./fakes.ts";

/** Real SDK traffic of both eras (demo/demo-capture.jsonl) as the tap would send it: no seq, no v. */
const capture = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;
const drafts = (records: readonly CaptureRecord[]): TapRecord[] =>
  records.map(({ seq: _seq, v: _v, entry: _entry, ...rest }) => rest as TapRecord);
/** What the tap sent: the worker adds the frame its relay runs in (frame 0, the port's sender origin). */
const strip = (records: readonly CaptureRecord[]) =>
  records.map(({ seq: _seq, frame: _frame, frameOrigin: _origin, ...rest }) => rest);

/** A browser in miniature: one worker (hub) at a time over one store, relays that connect to whichever is up. */
function world() {
  const store = createMemoryStore();
  let hub = createHub({ store, flushMs: 5 });
  const serverPorts: FakePort[] = [];
  const connectContent = (tabId: number) => () => {
    const pair = portPair(CONTENT_PORT, { tab: { id: tabId }, url: "http://127.0.0.1/" });
    serverPorts.push(pair.server);
    hub.connectContent(pair.server as HubPort);
    return pair.client;
  };
  const panel = (tabId: number) => {
    const connected = connectPanel(hub, tabId);
    serverPorts.push(connected.port);
    return connected;
  };
  return {
    store,
    get hub() {
      return hub;
    },
    connectContent,
    panel,
    /** The MV3 worker is stopped: its state is gone and every port drops. */
    restart() {
      for (const port of serverPorts.splice(0)) port.disconnect();
      hub = createHub({ store, flushMs: 5 });
    },
  };
}

describe("relay → worker → panel", () => {
  test("records get one seq space per tab and the engine sees what analyze() sees", async () => {
    const w = world();
    const relay = createUplink({ connect: w.connectContent(7), doc: "doc-a", top: true });
    relay.hello();
    const all = drafts(capture);
    for (let i = 0; i < all.length; i += 13) relay.push(all.slice(i, i + 13));
    await settle(() => relay.state().queued === 0, "acks");
    const stored = w.store.tabs.get(7)!.records;
    assert.deepEqual(
      stored.map((r) => r.seq),
      capture.map((_, i) => i),
    );
    assert.deepEqual(strip(stored), strip(capture));
    const s = await w.hub.session(7);
    const expected = analyze(capture);
    assert.deepEqual(JSON.parse(JSON.stringify(s.flows())), JSON.parse(JSON.stringify(expected.flows)));
    assert.deepEqual(JSON.parse(JSON.stringify(s.findings())), JSON.parse(JSON.stringify(expected.findings)));
  });

  test("a worker stopped mid-stream loses nothing and stores nothing twice", async () => {
    const w = world();
    const relay = createUplink({ connect: w.connectContent(3), doc: "doc-b", top: true });
    const all = drafts(capture);
    let sent = 0;
    for (let round = 0; sent < all.length; round++) {
      relay.push(all.slice(sent, sent + 17));
      sent += 17;
      // Stop the worker every few batches, sometimes before it could ack (or even store) what it got.
      if (round % 4 === 1) w.restart();
      await tick(round % 3);
    }
    await settle(() => relay.state().queued === 0, "acks after restarts");
    const stored = w.store.tabs.get(3)!.records;
    assert.equal(stored.length, capture.length);
    assert.deepEqual(
      stored.map((r) => r.seq),
      capture.map((_, i) => i),
    );
    assert.deepEqual(strip(stored), strip(capture));
    // The woken worker rebuilt its engine from the store: same flows as a single pass.
    const s = await w.hub.session(3);
    assert.deepEqual(JSON.parse(JSON.stringify(s.flows())), JSON.parse(JSON.stringify(analyze(capture).flows)));
    // A panel subscribing to the woken worker (panel/state/transport.ts resubscribes after every drop) sees all of it.
    const panel = w.panel(3);
    await settle(() => panel.messages.length > 0, "snapshot");
    assert.equal(panel.store.stats.value.records, capture.length);
    assert.equal(panel.store.flows.value.length, analyze(capture).flows.length);
  });

  test("the panel gets a snapshot on subscribe, then deltas; clear and preserve-log reach it", async () => {
    const w = world();
    const relay = createUplink({ connect: w.connectContent(5), doc: "doc-c", top: true });
    const half = Math.floor(capture.length / 2);
    relay.push(drafts(capture.slice(0, half)));
    await settle(() => relay.state().queued === 0, "first half");
    const panel = w.panel(5);
    await settle(() => panel.messages.length > 0, "snapshot");
    assert.equal(panel.messages[0]!.kind, "snapshot");
    relay.push(drafts(capture.slice(half)));
    await settle(() => panel.store.stats.value.records === capture.length, "deltas");
    assert.ok(panel.messages.some((m) => m.kind === "delta"));
    const expected = analyze(capture);
    assert.deepEqual(
      panel.store.flows.value.map((f) => [f.id, f.status, f.rounds.length]),
      expected.flows.map((f) => [f.id, f.status, f.rounds.length]),
    );
    assert.deepEqual(
      panel.store.findings.value.map((f) => f.id),
      expected.findings.map((f) => f.id),
    );

    panel.send("clear");
    await settle(() => panel.store.stats.value.records === 0, "clear");
    assert.equal(panel.store.flows.value.length, 0);
    assert.equal(w.store.tabs.get(5)!.records.length, 0);
    panel.send("preserveLog", { on: true });
    await settle(() => panel.store.stats.value.preserveLog, "preserve log");
  });

  test("navigation clears the tab unless preserve-log is on; tabs are isolated", async () => {
    const w = world();
    const few = drafts(capture.slice(0, 20));
    const page1 = createUplink({ connect: w.connectContent(1), doc: "p1", top: true });
    const other = createUplink({ connect: w.connectContent(2), doc: "o1", top: true });
    page1.push(few);
    other.push(few);
    await settle(() => page1.state().queued === 0 && other.state().queued === 0, "acks");
    // A new top document in tab 1: DevTools-like clear.
    const page2 = createUplink({ connect: w.connectContent(1), doc: "p2", top: true });
    page2.hello();
    await settle(() => w.store.tabs.get(1)!.records.length === 0, "navigation clear");
    assert.equal(w.store.tabs.get(2)!.records.length, 20);
    // Preserve log on: the next navigation keeps everything, seqs go on.
    const panel = w.panel(1);
    panel.send("preserveLog", { on: true });
    page2.push(few);
    await settle(
      () => w.store.tabs.get(1)!.records.length === 20 && w.store.tabs.get(1)!.meta.preserveLog,
      "page 2 records",
    );
    const page3 = createUplink({ connect: w.connectContent(1), doc: "p3", top: true });
    page3.push(few.slice(0, 5));
    await settle(() => w.store.tabs.get(1)!.records.length === 25, "preserved");
    assert.deepEqual(
      w.store.tabs.get(1)!.records.map((r) => r.seq),
      [...Array(25).keys()],
    );
    // Subframe documents never count as navigations.
    const frame = createUplink({ connect: w.connectContent(1), doc: "f1", top: false });
    frame.push(few.slice(0, 2));
    await settle(() => w.store.tabs.get(1)!.records.length === 27, "subframe");
  });

  test("the per-tab budget drops and counts; malformed input is refused and counted", async () => {
    const store = createMemoryStore();
    const budget = drafts(capture.slice(0, 10)).reduce((n, r) => n + recordBytes({ ...r, seq: 0, v: 1 }), 0);
    const hub = createHub({ store, flushMs: 5, limits: { maxBytes: budget, maxRecordBytes: 1e9 } });
    const pair = portPair(CONTENT_PORT, { tab: { id: 9 } });
    hub.connectContent(pair.server as HubPort);
    const relay = createUplink({ connect: () => pair.client, doc: "d", top: true });
    relay.push(drafts(capture.slice(0, 15)));
    relay.push([{ kind: "message", nonsense: true } as unknown as TapRecord]);
    await settle(() => relay.state().queued === 0, "acks");
    pair.client.postMessage({ source: "someone else", v: 1, kind: "records" });
    await settle(() => (store.tabs.get(9)?.meta.rejected ?? 0) >= 0 && store.tabs.get(9)!.records.length === 10, "cap");
    const meta = store.tabs.get(9)!.meta;
    // 15 records, 10 within the budget; the malformed one is refused, not dropped.
    assert.equal(meta.dropped, 5);
    const s = await hub.session(9);
    await tick(10);
    assert.ok(s.stats().rejected >= 1);
  });
});

describe("pieces", () => {
  test("the tap keeps exactly the headers the record format keeps", () => {
    assert.deepEqual([...KEPT_HEADERS].sort(), [...keptHeaders].sort());
  });

  test("postMessage direction: who sends a method tells the roles", () => {
    assert.equal(senderRole({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, undefined), "client");
    assert.equal(senderRole({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: {} }, undefined), "server");
    assert.equal(senderRole({ jsonrpc: "2.0", id: 1, result: { action: "accept" } }, undefined), "client");
    assert.equal(
      senderRole(
        { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", serverInfo: {}, capabilities: {} } },
        undefined,
      ),
      "server",
    );
    assert.equal(senderRole({ jsonrpc: "2.0", id: 1, result: {} }, "client"), "client");
  });

  test("badge: the worst severity's count and colour", () => {
    assert.equal(badgeFor({ error: 0, warning: 0, info: 0 }).text, "");
    assert.deepEqual(badgeFor({ error: 2, warning: 5, info: 1 }).text, "2");
    assert.equal(badgeFor({ error: 0, warning: 3, info: 1 }).color, "#b06000");
  });

  test("relay: queues while the worker is unreachable and sends everything once it is back", async () => {
    let up = false;
    const seen: unknown[] = [];
    const relay = createUplink({
      doc: "q",
      top: false,
      connect() {
        const pair = portPair(CONTENT_PORT);
        pair.server.onMessage.addListener((m) => {
          const batch = m as { first: number; records: unknown[]; doc: string };
          seen.push(...batch.records);
          pair.server.postMessage({
            source: "mcp-elicitation-inspector/worker",
            v: 1,
            kind: "ack",
            doc: batch.doc,
            upTo: batch.first + batch.records.length - 1,
          });
        });
        if (!up) setImmediate(() => pair.server.disconnect());
        return pair.client;
      },
    });
    relay.push(drafts(capture.slice(0, 3)));
    await tick(30);
    up = true;
    await settle(() => relay.state().queued === 0, "delivery after reconnect");
    assert.ok(seen.length >= 3);
  });
});
