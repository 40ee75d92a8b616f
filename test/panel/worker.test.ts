import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { CONTENT_PORT, CONTENT_SOURCE, PROTOCOL_VERSION } from "../../src/shared/tags.ts";
import { connectPanel, portPair, settle, tick } from "../extension/fakes.ts";

/** The panel protocol of the worker (src/background/hub.ts): records to the panel, record/pause. */
const capture = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;
const drafts = (records: readonly CaptureRecord[]) => records.map(({ seq: _s, v: _v, entry: _e, ...rest }) => rest);

function world(recordChunkChars?: number) {
  const hub = createHub({ store: createMemoryStore(), flushMs: 5, recordChunkChars });
  const content = portPair(CONTENT_PORT, { tab: { id: 7 }, url: "http://127.0.0.1/" });
  hub.connectContent(content.server as HubPort);
  let first = 0;
  const sendRecords = (records: readonly CaptureRecord[]) => {
    content.client.postMessage({
      source: CONTENT_SOURCE,
      v: PROTOCOL_VERSION,
      kind: "records",
      doc: "doc-1",
      top: true,
      first,
      records: drafts(records),
      rejected: 0,
    });
    first += records.length;
  };
  const panel = () => connectPanel(hub, 7);
  return { hub, sendRecords, panel };
}

describe("worker → panel protocol", () => {
  test("the snapshot and every delta carry the records, so the panel holds what the worker holds", async () => {
    const w = world();
    w.sendRecords(capture.slice(0, 100));
    const early = w.panel();
    await settle(() => early.store.recordCount.value === 100, "snapshot records");
    for (let i = 100; i < capture.length; i += 20) w.sendRecords(capture.slice(i, i + 20));
    await settle(() => early.store.recordCount.value === capture.length, "delta records");
    assert.deepEqual(
      early.store.records().map((r) => r.seq),
      capture.map((r) => r.seq),
    );
    assert.deepEqual(
      early.store.records().map((r) => (r.kind === "message" ? r.text : r.kind)),
      capture.map((r) => (r.kind === "message" ? r.text : r.kind)),
    );
    assert.deepEqual(
      early.store.flows.value.map((f) => f.id),
      analyze(capture).flows.map((f) => f.id),
    );
  });

  test("record off pauses the tab: records are acknowledged, not kept, and counted; record on resumes", async () => {
    const w = world();
    const p = w.panel();
    await settle(() => p.messages.length > 0, "snapshot");
    assert.equal(p.store.stats.value.recording, true);
    w.sendRecords(capture.slice(0, 50));
    await settle(() => p.store.stats.value.records === 50, "recorded");
    p.send("record", { on: false });
    await settle(() => !p.store.stats.value.recording, "paused");
    w.sendRecords(capture.slice(50, 80));
    await settle(() => p.store.stats.value.skipped === 30, "skipped count");
    assert.equal(p.store.stats.value.records, 50);
    assert.equal(p.store.recordCount.value, 50);
    p.send("record", { on: true });
    await settle(() => p.store.stats.value.recording, "recording again");
    w.sendRecords(capture.slice(80, 90));
    await settle(() => p.store.stats.value.records === 60, "recorded after resume");
    assert.deepEqual(
      p.store.records().map((r) => r.seq),
      [...Array(60).keys()],
      "seqs stay dense",
    );
    p.send("clear");
    await settle(
      () => p.store.stats.value.records === 0 && p.store.stats.value.skipped === 0,
      "clear resets the count",
    );
  });

  test("the records command answers with every record, in chunks of bounded size, the last one saying more: false", async () => {
    const w = world(4_000);
    w.sendRecords(capture);
    const p = w.panel();
    await settle(() => p.store.recordCount.value === capture.length, "snapshot records");
    p.messages.length = 0;
    p.send("records");
    await settle(() => p.messages.some((m) => m.kind === "records" && !m.more), "the last chunk");
    const chunks = p.messages.flatMap((m) => (m.kind === "records" ? [m] : []));
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.deepEqual(
      chunks.map((c) => c.more),
      [...chunks.slice(1).map(() => true), false],
    );
    for (const c of chunks) {
      const text = c.records.reduce((n, r) => n + (r.kind === "message" ? r.text.length : 0), 0);
      assert.ok(
        c.records.length === 1 || text <= 4_000,
        `a chunk of ${c.records.length} records holds ${text} characters`,
      );
    }
    assert.deepEqual(
      chunks.flatMap((c) => c.records.map((r) => r.seq)),
      capture.map((_, i) => i),
    );
  });

  test("a malformed record command is refused", async () => {
    const w = world();
    const p = w.panel();
    await settle(() => p.messages.length > 0, "snapshot");
    p.send("record", { on: "yes" });
    await tick(30);
    assert.equal(p.store.stats.value.recording, true);
  });
});
