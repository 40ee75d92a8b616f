import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { recordBytes } from "../../src/background/budget.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemoryGateStorage, createRecordingGate } from "../../src/background/recording.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { CONTENT_PORT, CONTENT_SOURCE, PROTOCOL_VERSION, TAP_ENVELOPE_PREFIX } from "../../src/shared/tags.ts";
import { portPair, settle, tick } from "./fakes.ts";

/**
 * The worker's one budget (src/background/budget.ts createWorkerBudget), checked before a batch is parsed: a page
 * posting 1 MiB JSON-RPC strings to itself (window messages, which wait in the hold before they are stored) cannot
 * make the worker hold more than the tab's budget and one envelope, nor all tabs more than the total; what is
 * refused is counted as dropped. And a tab nobody inspects costs nothing at all.
 */
const MiB = 2 ** 20;
const message = (i: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/message",
    params: { level: "info", data: `${i}`.padEnd(MiB - 100, "x") },
  });
const envelope = (i: number) =>
  `${TAP_ENVELOPE_PREFIX}${JSON.stringify([{ transport: "postMessage", exchange: "pm:a>b", url: "http://127.0.0.1", client: "http://127.0.0.1", time: 1000 + i, kind: "message", direction: "s2c", stream: "postMessage", text: message(i) }])}}`;
const batch = (doc: string, first: number, records: string[]) => ({
  source: CONTENT_SOURCE,
  v: PROTOCOL_VERSION,
  kind: "records",
  doc,
  top: true,
  first,
  records,
  rejected: 0,
});

function flood(sites: string[], limits = { maxBytes: 8 * MiB, maxRecordBytes: 4 * MiB, maxTotalBytes: 12 * MiB }) {
  const store = createMemoryStore();
  const hub = createHub({
    store,
    flushMs: 5,
    ackMs: 0,
    limits,
    gate: createRecordingGate(createMemoryGateStorage(sites)),
  });
  const relay = (tabId: number) => {
    const pair = portPair(CONTENT_PORT, { tab: { id: tabId }, url: "http://127.0.0.1/", frameId: 0 });
    hub.connectContent(pair.server as HubPort);
    return pair.client;
  };
  return { store, hub, relay };
}

describe("worker budget", () => {
  test("a page flooding itself with 1 MiB JSON-RPC strings: the tab never holds more than its budget and one envelope; the rest is dropped and counted", async () => {
    const limits = { maxBytes: 8 * MiB, maxRecordBytes: 4 * MiB, maxTotalBytes: 12 * MiB };
    const { hub, relay } = flood(["http://127.0.0.1"], limits);
    const port = relay(1);
    const s = await hub.session(1);
    let most = 0;
    const sent = 64;
    for (let i = 0; i < sent; i++) {
      port.postMessage(batch("d1", i, [envelope(i)]));
      await tick(1);
      most = Math.max(most, s.meta.bytes + 2 * s.heldChars());
    }
    await settle(() => s.records().length + s.meta.dropped >= sent, "every message stored or counted");
    await tick(500); // the hold lets its last items go
    const oneEnvelope = 2 * envelope(0).length;
    assert.ok(most <= limits.maxBytes + oneEnvelope, `held ${most} bytes`);
    assert.ok(s.meta.bytes <= limits.maxBytes, `stored ${s.meta.bytes} bytes`);
    assert.equal(s.records().length + s.meta.dropped, sent);
    assert.ok(
      s.meta.dropped >= sent - limits.maxBytes / recordBytes({ text: message(0) }) - 1,
      `${s.meta.dropped} dropped`,
    );
    hub.stop();
  });

  test("all tabs together stay under the total: a second flooding tab is refused once the worker is full", async () => {
    const limits = { maxBytes: 8 * MiB, maxRecordBytes: 4 * MiB, maxTotalBytes: 12 * MiB };
    const { hub, relay } = flood(["http://127.0.0.1"], limits);
    const a = relay(1);
    const b = relay(2);
    for (let i = 0; i < 24; i++) {
      a.postMessage(batch("a", i, [envelope(i)]));
      b.postMessage(batch("b", i, [envelope(i)]));
      await tick(1);
    }
    const [sa, sb] = [await hub.session(1), await hub.session(2)];
    await settle(
      () => sa.records().length + sa.meta.dropped >= 24 && sb.records().length + sb.meta.dropped >= 24,
      "both tabs accounted",
    );
    await tick(500);
    const total = sa.meta.bytes + sb.meta.bytes;
    assert.ok(total <= limits.maxTotalBytes + 2 * 2 * envelope(0).length, `${total} bytes in the worker`);
    assert.ok(sa.meta.dropped > 0 && sb.meta.dropped > 0);
    hub.stop();
  });

  test("a tab nobody inspects: its batches are acked and dropped unparsed, and nothing is kept for it", async () => {
    const { store, hub, relay } = flood([]);
    const port = relay(3);
    const acks: unknown[] = [];
    port.onMessage.addListener((m) => acks.push(m));
    for (let i = 0; i < 8; i++) port.postMessage(batch("d3", i, [envelope(i)]));
    await settle(() => acks.length > 0, "an ack");
    await tick(600);
    assert.equal(store.tabs.size, 0);
    assert.deepEqual(acks.at(-1), {
      source: "mcp-elicitation-inspector/worker",
      v: 1,
      kind: "ack",
      doc: "d3",
      upTo: 7,
      recording: false,
    });
    hub.stop();
  });

  test("a private (incognito) tab's capture stays in memory: the worker holds it, the store never sees it", async () => {
    const store = createMemoryStore();
    const hub = createHub({
      store,
      flushMs: 5,
      ackMs: 0,
      gate: createRecordingGate(createMemoryGateStorage(["http://127.0.0.1"])),
      isPrivate: async (tabId) => tabId === 4,
    });
    const pair = portPair(CONTENT_PORT, { tab: { id: 4, incognito: true }, url: "http://127.0.0.1/", frameId: 0 });
    hub.connectContent(pair.server as HubPort);
    const record = {
      transport: "http",
      exchange: "f1",
      url: "http://127.0.0.1/mcp",
      client: "http://127.0.0.1",
      time: 1,
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    };
    pair.client.postMessage(batch("d4", 0, [`${TAP_ENVELOPE_PREFIX}${JSON.stringify([record])}}`]));
    const s = await hub.session(4);
    await settle(() => s.records().length === 1, "the record in the worker");
    await tick(50);
    assert.equal(store.tabs.size, 0);
    assert.equal(s.records()[0]!.frameOrigin, "http://127.0.0.1");
    hub.stop();
  });
});
