import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemoryRuleStorage } from "../../src/background/decoderBook.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { createUplink } from "../../src/content/uplink.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { CONTENT_PORT } from "../../src/shared/tags.ts";
import type { TapRecord } from "../../src/shared/tapRecord.ts";
import { inspectorSession } from "../capture/envelopes/fixtures.ts";
import { connectPanel, portPair, settle, type FakePort } from "./fakes.ts";

/**
 * The worker's envelope stage (src/background/tabSession.ts): the tap's records go through the unwrapper
 * (src/capture/envelopes) before they are numbered and stored; its counts reach the panel in TabStats.envelopes.
 */
function world(rules = createMemoryRuleStorage()) {
  const store = createMemoryStore();
  let hub = createHub({ store, flushMs: 5, rules });
  const ports: FakePort[] = [];
  const content = (tabId: number) => () => {
    const pair = portPair(CONTENT_PORT, { tab: { id: tabId }, url: "http://127.0.0.1/" });
    ports.push(pair.server);
    hub.connectContent(pair.server as HubPort);
    return pair.client;
  };
  return {
    store,
    rules,
    get hub() {
      return hub;
    },
    content,
    restart() {
      hub.stop();
      for (const port of ports.splice(0)) port.disconnect();
      hub = createHub({ store, flushMs: 5, rules });
    },
  };
}

const messages = (records: readonly CaptureRecord[]) => records.flatMap((r) => (r.kind === "message" ? [r] : []));

describe("the envelope stage in the worker", () => {
  test("an Inspector v2 session is stored as the MCP messages it carried, numbered from 0, counted for the panel", async () => {
    const w = world();
    const { records, upstream, backend } = inspectorSession();
    const relay = createUplink({ connect: w.content(4), doc: "doc", top: true });
    relay.push(records as TapRecord[]);
    await settle(() => relay.state().queued === 0, "acks");
    const stored = w.store.tabs.get(4)!.records;
    assert.deepEqual(
      stored.map((r) => r.seq),
      [...stored.keys()],
    );
    assert.equal(stored.length, 7, "the host's heads, ends, wrappers and {ok:true} answers are not stored");
    for (const m of messages(stored)) {
      assert.equal(m.envelope, "inspector-v2");
      assert.equal(m.stream, "envelope");
      assert.equal(m.server, upstream);
      assert.equal(m.via, `${backend}/api/mcp`);
    }
    const panel = connectPanel(w.hub, 4);
    await settle(() => panel.messages.length > 0, "snapshot");
    assert.deepEqual(panel.store.stats.value.envelopes, { "inspector-v2": 7 });
    const s = await w.hub.session(4);
    assert.deepEqual(s.problems(), [], "no input problems from the host's own bodies");
    assert.equal(s.flows().length, 1);
    assert.equal(s.flows()[0]!.status, "complete");
  });

  test("the counts survive a worker restart and a replay; clear resets them", async () => {
    const w = world();
    const { records } = inspectorSession();
    const relay = createUplink({ connect: w.content(5), doc: "doc", top: true });
    const half = records.findIndex((r) => r.kind === "message" && r.text.includes("tools/call"));
    relay.push(records.slice(0, half) as TapRecord[]);
    await settle(() => relay.state().queued === 0, "first half");
    w.restart();
    relay.push(records.slice(half) as TapRecord[]);
    await settle(() => relay.state().queued === 0 && w.store.tabs.get(5)!.records.length === 7, "second half");
    const s = await w.hub.session(5);
    assert.deepEqual(s.stats().envelopes, { "inspector-v2": 7 });
    assert.deepEqual(w.store.tabs.get(5)!.meta.envelopes, { "inspector-v2": 7 });
    s.clear();
    assert.deepEqual(s.stats().envelopes, {});
  });

  test("a worker stopped between the connect and a later send keeps the session's upstream server", async () => {
    const w = world();
    const { records, upstream } = inspectorSession();
    const relay = createUplink({ connect: w.content(6), doc: "doc", top: true });
    const half = records.findIndex((r) => r.kind === "message" && r.text.includes("tools/call"));
    relay.push(records.slice(0, half) as TapRecord[]);
    await settle(() => relay.state().queued === 0, "first half");
    w.restart();
    relay.push(records.slice(half) as TapRecord[]);
    await settle(() => relay.state().queued === 0 && w.store.tabs.get(6)!.records.length === 7, "second half");
    assert.deepEqual(new Set(messages(w.store.tabs.get(6)!.records).map((m) => m.server)), new Set([upstream]));
  });

  test("stamps from the tap are not kept: only the envelope stage sets envelope, server, via and upstreamTransport", async () => {
    const w = world();
    const tab = 9;
    const forged = {
      envelope: "proxy",
      server: "https://attacker.example/mcp",
      via: "https://attacker.example/",
      upstreamTransport: "stdio",
    };
    const mcp = "http://127.0.0.1:3001/mcp";
    const bare: TapRecord = {
      transport: "http",
      exchange: "m1",
      url: mcp,
      client: "http://127.0.0.1:3001",
      time: 1,
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      headers: { "mcp-protocol-version": "2025-11-25" },
      text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      ...forged,
    };
    const { records, upstream, backend } = inspectorSession();
    const stamped = records.map((r) => (r.kind === "message" ? { ...r, ...forged } : r)) as TapRecord[];
    const passedOff: TapRecord = {
      ...bare,
      exchange: "m2",
      stream: "envelope",
      text: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    };
    const relay = createUplink({ connect: w.content(tab), doc: "doc", top: true });
    relay.push([bare, ...stamped, passedOff]);
    await settle(() => relay.state().queued === 0, "acks");
    const stored = messages(w.store.tabs.get(tab)!.records);
    assert.equal(
      stored.length,
      1 + 7,
      "the bare message and the Inspector session's seven; the record passed off as unwrapped is not stored",
    );
    const [first, ...inspector] = stored;
    assert.deepEqual(
      [first!.envelope, first!.server, first!.via, first!.upstreamTransport, first!.stream],
      [undefined, undefined, undefined, undefined, "body"],
    );
    for (const m of inspector)
      assert.deepEqual(
        [m.envelope, m.server, m.via, m.upstreamTransport],
        ["inspector-v2", upstream, `${backend}/api/mcp`, "streamable-http"],
        "the stage's stamp, not the tap's",
      );
    const s = await w.hub.session(tab);
    assert.equal(s.stats().rejected, 1, "counted, not lost");
    assert.deepEqual(s.stats().envelopes, { "inspector-v2": 7 });
    assert.deepEqual(new Set(s.flows().map((f) => f.server)), new Set([mcp, upstream]));
  });

  test("a decode rule added from the panel applies to what the tap sends from then on, and is counted under its id", async () => {
    const w = world();
    const tab = 8;
    const url = "http://127.0.0.1:5000/bridge/send";
    const body = (message: object) => JSON.stringify({ rpc: JSON.stringify(message) });
    const bridge = (exchange: string, message: object): TapRecord[] => [
      {
        transport: "http",
        exchange,
        url,
        client: "http://127.0.0.1:5000",
        time: 1,
        kind: "message",
        direction: "c2s",
        stream: "body",
        method: "POST",
        text: body(message),
      },
      { transport: "http", exchange, url, client: "http://127.0.0.1:5000", time: 2, kind: "response", status: 200 },
      {
        transport: "http",
        exchange,
        url,
        client: "http://127.0.0.1:5000",
        time: 3,
        kind: "message",
        direction: "s2c",
        stream: "body",
        method: "POST",
        text: '{"ok":true}',
      },
      { transport: "http", exchange, url, client: "http://127.0.0.1:5000", time: 4, kind: "end" },
    ];
    const relay = createUplink({ connect: w.content(tab), doc: "doc", top: true });
    relay.push(bridge("b1", { jsonrpc: "2.0", id: 1, method: "tools/list" }));
    await settle(() => relay.state().queued === 0, "before the rule");
    const before = w.store.tabs.get(tab)!.records.length;
    assert.equal(before, 4, "without a rule the records are stored as they came");

    const panel = connectPanel(w.hub, tab);
    panel.send("addDecoder", { rule: { url: "*/bridge/*", method: "POST", pointer: "/rpc", direction: "both" } });
    await settle(() => panel.messages.some((m) => m.kind === "decoders"), "the rule");
    relay.push(bridge("b2", { jsonrpc: "2.0", id: 2, method: "tools/list" }));
    await settle(
      () => relay.state().queued === 0 && (panel.store.stats.value.envelopes?.["decode:d1"] ?? 0) === 1,
      "after the rule",
    );
    const after = w.store.tabs.get(tab)!.records.slice(before);
    assert.equal(after.length, 1);
    const m = after[0]!;
    assert.ok(m.kind === "message");
    assert.equal(m.envelope, "decode:d1");
    assert.equal(m.direction, "c2s");
    assert.deepEqual(JSON.parse(m.text), { jsonrpc: "2.0", id: 2, method: "tools/list" });
  });
});

describe("window messages from several frames", () => {
  /** One conversation between a page and its iframe: each frame's tap records what it receives. */
  const pm = (direction: "c2s" | "s2c", time: number, message: object): TapRecord => ({
    transport: "postMessage",
    exchange: "pm:http://127.0.0.1:1>http://127.0.0.1:2",
    url: "http://127.0.0.1:2",
    client: "http://127.0.0.1:1",
    time,
    kind: "message",
    direction,
    stream: "postMessage",
    text: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  const conversation = {
    // The frame (server side) receives the client's messages…
    frame: [
      pm("c2s", 10, { id: 1, method: "tools/call", params: { name: "x" } }),
      pm("c2s", 30, { id: 0, result: { action: "decline" } }),
    ],
    // …and the page the server's, in between on the wire.
    page: [
      pm("s2c", 20, {
        id: 0,
        method: "elicitation/create",
        params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } },
      }),
      pm("s2c", 40, { id: 1, result: { content: [] } }),
    ],
  };

  test("are stored in the order of their times, whichever relay's batch came first", async () => {
    const w = world();
    const page = createUplink({ connect: w.content(11), doc: "page", top: true });
    const frame = createUplink({ connect: w.content(11), doc: "frame", top: false });
    page.hello();
    frame.push(conversation.frame);
    await new Promise((resolve) => setTimeout(resolve, 30));
    page.push(conversation.page);
    await settle(() => page.state().queued === 0 && frame.state().queued === 0, "acks after the hold");
    const stored = w.store.tabs.get(11)!.records;
    assert.deepEqual(
      stored.map((r) => [r.seq, r.time]),
      [
        [0, 10],
        [1, 20],
        [2, 30],
        [3, 40],
      ],
    );
    const s = await w.hub.session(11);
    assert.equal(s.flows().length, 1);
    assert.equal(s.flows()[0]!.status, "complete");
    assert.deepEqual(
      s.findings().filter((f) => f.severity === "error"),
      [],
      "the answer follows its question",
    );
  });

  test("a worker stopped while they wait loses nothing and stores nothing twice", async () => {
    const w = world();
    const page = createUplink({ connect: w.content(12), doc: "page", top: true });
    const frame = createUplink({ connect: w.content(12), doc: "frame", top: false });
    page.hello();
    frame.push(conversation.frame);
    page.push(conversation.page);
    await new Promise((resolve) => setTimeout(resolve, 50));
    w.restart(); // before the hold ended: nothing was acked, so the relays send it all again
    frame.push([]);
    page.push([]);
    await settle(
      () =>
        page.state().queued === 0 && frame.state().queued === 0 && (w.store.tabs.get(12)?.records.length ?? 0) === 4,
      "after the restart",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(
      w.store.tabs.get(12)!.records.map((r) => r.time),
      [10, 20, 30, 40],
    );
  });
});
