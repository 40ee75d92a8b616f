import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createHub } from "../../src/background/hub.ts";
import { createMemoryRuleStorage } from "../../src/background/decoderBook.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { feedRules } from "../../src/content/decoders.ts";
import { createDecoderMatcher } from "../../src/page/decoders.ts";
import type { WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import { connectPanel, settle } from "./fakes.ts";

type RulesMessage = Extract<WorkerToPanel, { kind: "decoders" }>;
const rulesMessages = (messages: WorkerToPanel[]): RulesMessage[] =>
  messages.filter((m): m is RulesMessage => m.kind === "decoders");

/** The worker's "Decode as MCP" rules (src/background/decoderBook.ts, hub.ts): panel commands, storage, and the relays' view. */
describe("decode rules in the worker", () => {
  test("a panel adds, lists and removes rules; every panel hears of a change; storage holds them with a growing rev", async () => {
    const storage = createMemoryRuleStorage();
    const hub = createHub({ store: createMemoryStore(), flushMs: 5, rules: storage });
    const a = connectPanel(hub, 1);
    const b = connectPanel(hub, 2);
    await settle(() => a.messages.length > 0 && b.messages.length > 0, "snapshots");
    a.send("addDecoder", {
      rule: { label: "bridge", url: "/bridge/rpc", method: "post", pointer: "/rpc", direction: "both" },
    });
    await settle(
      () => rulesMessages(a.messages).length === 1 && rulesMessages(b.messages).length === 1,
      "the new rule",
    );
    const added = rulesMessages(a.messages)[0]!;
    assert.deepEqual(added.rules, [
      { label: "bridge", url: "/bridge/rpc", method: "POST", pointer: "/rpc", direction: "both", id: "d1" },
    ]);
    assert.equal(added.tabId, 1);
    assert.equal(rulesMessages(b.messages)[0]!.tabId, 2, "each panel gets it under its own tab");
    assert.deepEqual(storage.value, { rev: 1, next: 2, rules: added.rules });

    a.send("addDecoder", { rule: { url: "wss://x.example/*", pointer: "", direction: "s2c" } });
    await settle(() => rulesMessages(a.messages).length === 2, "the second rule");
    a.send("removeDecoder", { id: "d1" });
    await settle(() => rulesMessages(a.messages).length === 3, "the removal");
    assert.deepEqual(
      rulesMessages(a.messages)[2]!.rules.map((r) => r.id),
      ["d2"],
    );
    assert.deepEqual(storage.value, { rev: 3, next: 3, rules: rulesMessages(a.messages)[2]!.rules });

    // Refused: an unknown id (answered with an error, nothing stored, no broadcast); a malformed rule (no answer).
    b.send("removeDecoder", { id: "d7" });
    await settle(() => rulesMessages(b.messages).length === 4, "the refusal");
    assert.match(rulesMessages(b.messages)[3]!.error ?? "", /no decode rule d7/);
    for (const rule of [
      { url: "", pointer: "", direction: "both" },
      { url: "/x", pointer: "rpc", direction: "both" },
      { url: "/x", pointer: "", direction: "up" },
      { url: "/x", pointer: "", direction: "both", method: "PO ST" },
    ])
      b.send("addDecoder", { rule });
    b.send("decoders");
    await settle(() => rulesMessages(b.messages).length === 5, "the list");
    assert.deepEqual(
      rulesMessages(b.messages)[4]!.rules.map((r) => r.id),
      ["d2"],
    );
    assert.equal((storage.value as { rev: number }).rev, 3);
    assert.equal(rulesMessages(a.messages).length, 3, "a refusal is told only to the panel that asked");
  });

  test("a woken worker has the stored rules; ids are never reused; a broken stored value starts an empty set", async () => {
    const storage = createMemoryRuleStorage({
      rev: 4,
      next: 5,
      rules: [{ id: "d4", url: "/a", pointer: "", direction: "both" }],
    });
    const hub = createHub({ store: createMemoryStore(), flushMs: 5, rules: storage });
    const p = connectPanel(hub, 1);
    p.send("decoders");
    await settle(() => rulesMessages(p.messages).length === 1, "the list");
    assert.deepEqual(
      rulesMessages(p.messages)[0]!.rules.map((r) => r.id),
      ["d4"],
    );
    p.send("addDecoder", { rule: { url: "/b", pointer: "", direction: "both" } });
    await settle(() => rulesMessages(p.messages).length === 2, "the new rule");
    assert.deepEqual(
      rulesMessages(p.messages)[1]!.rules.map((r) => r.id),
      ["d4", "d5"],
    );

    const broken = createHub({
      store: createMemoryStore(),
      flushMs: 5,
      rules: createMemoryRuleStorage({ rev: "x", rules: [{ url: 3 }] }),
    });
    const q = connectPanel(broken, 1);
    q.send("decoders");
    await settle(() => rulesMessages(q.messages).length === 1, "the list");
    assert.deepEqual(rulesMessages(q.messages)[0]!.rules, []);
  });

  test("what the worker stores is what a relay hands the tap, and the tap matches by it", async () => {
    const storage = createMemoryRuleStorage();
    const hub = createHub({ store: createMemoryStore(), flushMs: 5, rules: storage });
    const p = connectPanel(hub, 1);
    p.send("addDecoder", {
      rule: { url: "http://127.0.0.1:*/bridge", method: "POST", pointer: "/rpc", direction: "both" },
    });
    await settle(() => rulesMessages(p.messages).length === 1, "the rule");
    const tap = createDecoderMatcher();
    feedRules({ read: () => storage.read(), onChange: () => undefined }, (json) => tap.set(json));
    await settle(() => tap.any(), "the tap's rules");
    assert.ok(tap.matches("http://127.0.0.1:4011/bridge", "POST"));
    assert.ok(!tap.matches("http://127.0.0.1:4011/bridge", "GET"));
    assert.ok(!tap.matches("http://127.0.0.1:4011/bridge/x", "POST"));
  });
});
