import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { ensureBuilt } from "./built.ts";
import { launchWithExtension, type ExtensionBrowser } from "./chromium.ts";
import { startLoadServer, type LoadServer } from "./fixtures/loadServer.ts";

/**
 * Nothing lost, in real Chromium with dist/chrome: one SSE answer of 50,000 events while the page POSTs to the same
 * MCP server as fast as it can. Every record the tap makes is stored or counted by reason; checked record by
 * record against what the page itself logged (docs/extension.md "Budget, and every record stored or counted").
 */
const EVENTS = 50_000;
/** POSTs the page makes while the SSE answer streams, eight at a time. */
const POSTS = 1_000;

let server: LoadServer;
let browser: ExtensionBrowser;

before(async () => {
  ensureBuilt();
  server = await startLoadServer(EVENTS);
  browser = await launchWithExtension();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("a 50,000-event SSE answer and a flood of POSTs: stored + dropped = sent, record by record", {
  timeout: 300_000,
}, async () => {
  const { page, tabId } = await browser.openTab(`${server.origin}/`);
  const sent = await page.evaluate(
    (posts) =>
      (
        window as unknown as {
          mcpLoad(count: number, inFlight: number): Promise<{ exchanges: number; messages: number }>;
        }
      ).mcpLoad(posts, 8),
    POSTS,
  );
  const logged = await page.evaluate(
    () => (window as unknown as { mcpLog: { direction: string; text: string }[] }).mcpLog,
  );
  assert.equal(logged.length, sent.messages);
  // What the tap makes of each MCP exchange: its request body, its response, the messages it answered, its end.
  const expected = sent.messages + 2 * sent.exchanges;
  assert.deepEqual(sent, { exchanges: POSTS + 3, messages: 3 + 1 + EVENTS + 1 + 2 * POSTS });

  let stats = await browser.stats(tabId);
  const counted = () => stats.records + stats.dropped + stats.rejected + stats.tooLarge;
  for (const until = Date.now() + 120_000; counted() < expected && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    stats = await browser.stats(tabId);
  }
  console.log(
    `load: ${expected} records sent (${sent.exchanges} exchanges, ${sent.messages} messages), ${stats.records} stored, ${stats.dropped} dropped at the budget, ${stats.rejected} refused, ${stats.tooLarge} too large; ${Math.round(stats.bytes / 2 ** 20)} MB of ${Math.round(stats.budget / 2 ** 20)} MB`,
  );
  assert.equal(counted(), expected, JSON.stringify(stats));
  // Far under the 256 MB budget: nothing dropped, so every record must be there.
  assert.deepEqual([stats.dropped, stats.rejected, stats.tooLarge], [0, 0, 0]);

  const records: CaptureRecord[] = await browser.records(tabId);
  assert.equal(records.length, stats.records);
  assert.deepEqual(
    records.map((r) => r.seq),
    records.map((_, i) => i),
  );
  // Record by record: the message records are exactly the texts the page sent and received, each once.
  const key = (direction: string, text: string) => `${direction} ${text}`;
  const want = new Map<string, number>();
  for (const l of logged) want.set(key(l.direction, l.text), (want.get(key(l.direction, l.text)) ?? 0) + 1);
  for (const r of records) {
    if (r.kind !== "message") continue;
    const k = key(r.direction, r.text);
    const n = want.get(k);
    assert.ok(n, `a stored message the page never saw, or saw fewer times: ${k.slice(0, 200)}`);
    if (n === 1) want.delete(k);
    else want.set(k, n - 1);
  }
  assert.deepEqual([...want.keys()].slice(0, 5), [], "messages the page saw that were not stored");
  // Every exchange: one response and one end.
  const byExchange = new Map<string, { response: number; end: number }>();
  for (const r of records) {
    const e = byExchange.get(r.exchange!) ?? { response: 0, end: 0 };
    if (r.kind === "response") e.response++;
    if (r.kind === "end") e.end++;
    byExchange.set(r.exchange!, e);
  }
  assert.equal(byExchange.size, sent.exchanges);
  assert.ok([...byExchange.values()].every((e) => e.response === 1 && e.end === 1));
  // The SSE answer's 50,000 events, in order.
  const progress = records.flatMap((r) =>
    r.kind === "message" && r.stream === "post-sse" && r.text.includes("notifications/progress")
      ? [JSON.parse(r.text).params.progress as number]
      : [],
  );
  assert.deepEqual(progress, [...Array(EVENTS).keys()]);
});
