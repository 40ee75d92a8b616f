import assert from "node:assert/strict";
import { test } from "node:test";
import { createTabSession } from "../../src/background/tabSession.ts";
import { newMeta } from "../../src/background/store.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { RELAY_GRACE_MS } from "../../src/engine/index.ts";
import { importHar } from "../../src/capture/har/import.ts";
import { createBackends, parseFeedUrl, type FeedSource } from "../../panel/state/backends.ts";
import type { Command } from "../../panel/state/transport.ts";
import { backendFlow } from "../engine/relayFixtures.ts";

const FEED = "http://127.0.0.1:4000/__mcp-elicit/feed?token=abc123";

test("the feed URL is checked: a proxy's feed with its token; the name kept is origin and path only", () => {
  assert.deepEqual(parseFeedUrl(` ${FEED} `), { feed: "http://127.0.0.1:4000/__mcp-elicit/feed", url: FEED });
  assert.match(String(parseFeedUrl("http://127.0.0.1:4000/mcp")), /not a feed URL/);
  assert.match(String(parseFeedUrl("http://127.0.0.1:4000/__mcp-elicit/feed")), /no token/);
  assert.match(String(parseFeedUrl("file:///__mcp-elicit/feed?token=x")), /http/);
  assert.match(String(parseFeedUrl("127.0.0.1:4000")), /Paste the feed URL/);
});

test("a backend's feed: records go to the worker in batches, named by the feed without its token; removing closes it", async () => {
  const sent: Command[] = [];
  let source: FeedSource | undefined;
  let closed = 0;
  const backends = createBackends(
    (command) => sent.push(command),
    () => (source = { readyState: 1, close: () => void closed++, onopen: null, onmessage: null, onerror: null }),
  );
  assert.equal(backends.add(FEED), null);
  assert.match(String(backends.add(FEED)), /added already/);
  source!.onopen!(new Event("open"));
  for (const record of backendFlow(1000, { action: "accept" }))
    source!.onmessage!(new MessageEvent("message", { data: JSON.stringify({ v: 1, seq: 0, ...record }) }));
  source!.onmessage!(new MessageEvent("message", { data: "not json" }));
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(sent.length, 1);
  const command = sent[0]!;
  assert.equal(command.kind, "backendRecords");
  assert.equal(command.kind === "backendRecords" && command.feed, "http://127.0.0.1:4000/__mcp-elicit/feed");
  assert.equal(command.kind === "backendRecords" && command.records.length, 4);
  assert.deepEqual(
    backends.list.value.map((b) => [b.status, b.records]),
    [["live", 4]],
  );
  backends.remove("http://127.0.0.1:4000/__mcp-elicit/feed");
  assert.equal(closed, 1);
  assert.deepEqual(backends.list.value, []);
});

test("the worker takes a feed's records once each, marks them backend, and joins them to the tab's flows", () => {
  const session = createTabSession(newMeta(7), []);
  const feed = "http://127.0.0.1:4000/__mcp-elicit/feed";
  const records = backendFlow(1000, { action: "decline" }).map((r, seq) => ({ v: 1, seq, ...r, source: undefined }));
  const first = session.ingestBackend(feed, records.slice(0, 2));
  assert.equal(first.stored.length, 2);
  // A panel that reads the feed again from its start adds nothing twice.
  const again = session.ingestBackend(feed, records);
  assert.equal(again.stored.length, 2);
  assert.ok(session.records().every((r) => r.source === "backend"));
  assert.equal(session.ingestBackend(feed, [{ nonsense: true }]).stored.length, 0);
  assert.equal(session.meta.rejected, 1);
  // The live tab's page is watched: the agent answered (at 2000) an ask the page never got; the page's ask may
  // still come by the tap's road for RELAY_GRACE_MS, then it is judged.
  const relayRules = () =>
    session
      .findings()
      .filter((f) => f.rule.startsWith("relay-"))
      .map((f) => f.rule);
  assert.equal(session.unsettled(), true);
  assert.deepEqual(session.settle(2000 + RELAY_GRACE_MS - 1).findings, []);
  assert.deepEqual(relayRules(), []);
  assert.deepEqual(
    session.settle(2000 + RELAY_GRACE_MS).findings.map((f) => f.rule),
    ["relay-ask-not-shown"],
  );
  assert.deepEqual(relayRules(), ["relay-ask-not-shown"]);
  assert.equal(session.unsettled(), false);
  assert.equal(session.flows()[0]!.source, "backend");
});

test("backend records keep their source through a HAR export and import", () => {
  const records = backendFlow(1000, { action: "accept" }).map((r, seq) => ({ v: 1 as const, seq, ...r }));
  const har = exportHar(records as never);
  const back = importHar(typeof har === "string" ? har : JSON.stringify(har), "x.har").records;
  assert.ok(back.length > 0);
  assert.ok(
    back.every((r) => r.kind === "page-request" || r.source === "backend"),
    JSON.stringify(back.filter((r) => r.source !== "backend")),
  );
});
