import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createHub, type HubPort } from "../../src/background/hub.ts";
import { createMemorySettingsStorage } from "../../src/background/settingsBook.ts";
import { createMemoryStore } from "../../src/background/store.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { CONTENT_PORT, CONTENT_SOURCE, PROTOCOL_VERSION } from "../../src/shared/tags.ts";
import { connectPanel, portPair, settle } from "../extension/fakes.ts";
import { importSettings, settingsFile, withLevel } from "../../panel/model/settings.ts";

// The engine settings in the worker and the panel: a configuration file's value, kept in storage, applied to every
// tab's engine; a rule's level from a finding's context menu; the file imported and exported.
const capture = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;
const drafts = (records: readonly CaptureRecord[]) => records.map(({ seq: _s, v: _v, entry: _e, ...rest }) => rest);
const TEAM = JSON.stringify({ rules: { "url-https": "off", "adv-message-quality": "error" } });

function world(storage = createMemorySettingsStorage()) {
  const hub = createHub({ store: createMemoryStore(), flushMs: 5, settings: storage });
  const content = portPair(CONTENT_PORT, { tab: { id: 7 }, url: "http://127.0.0.1/" });
  hub.connectContent(content.server as HubPort);
  content.client.postMessage({
    source: CONTENT_SOURCE,
    v: PROTOCOL_VERSION,
    kind: "records",
    doc: "doc-1",
    top: true,
    first: 0,
    records: drafts(capture),
    rejected: 0,
  });
  return { hub, storage, panel: () => connectPanel(hub, 7) };
}

const rules = (findings: readonly { rule: string; severity: string }[], severity?: string) =>
  findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);

describe("engine settings", () => {
  test("a configuration imported in the panel changes the tab's findings, in every panel, and survives a wake", async () => {
    const w = world();
    const a = w.panel();
    const b = w.panel();
    await settle(
      () => a.store.recordCount.value === capture.length && b.store.recordCount.value === capture.length,
      "snapshots",
    );
    const before = a.store.findings.value;
    assert.ok(rules(before).includes("url-https"));
    assert.ok(!rules(before, "error").includes("adv-message-quality"));

    const imported = importSettings(TEAM, []);
    assert.ok(!("error" in imported));
    a.send("setSettings", { config: imported.config });
    await settle(() => !rules(b.store.findings.value).includes("url-https"), "panel b re-analysed");
    await settle(() => rules(a.store.findings.value, "error").includes("adv-message-quality"), "panel a re-analysed");
    assert.deepEqual(b.store.settings.value, { rules: { "adv-message-quality": "error", "url-https": "off" } });
    assert.equal(
      rules(a.store.findings.value, "error").length,
      rules(before).filter((r) => r === "adv-message-quality").length,
    );
    assert.equal(a.store.severityCounts.value.error > 0, true);

    // A worker woken from the same storage analyses with the same settings.
    const woken = world(w.storage);
    const c = woken.panel();
    await settle(() => c.store.recordCount.value === capture.length, "woken snapshot");
    await settle(() => rules(c.store.findings.value, "error").includes("adv-message-quality"), "woken settings");
    assert.ok(!rules(c.store.findings.value).includes("url-https"));
  });

  test("a rule's level from the context menu; a refused value keeps the settings and says where", async () => {
    const w = world();
    const p = w.panel();
    await settle(() => p.store.recordCount.value === capture.length, "snapshot");
    p.send("setSettings", { config: withLevel(p.store.settings.value, "url-https", "warning") });
    await settle(() => rules(p.store.findings.value, "warning").includes("url-https"), "url-https raised");
    p.send("setSettings", { config: withLevel(p.store.settings.value, "url-https", "default") });
    await settle(() => rules(p.store.findings.value, "info").includes("url-https"), "url-https back to its default");
    assert.deepEqual(p.store.settings.value, {});
    p.send("setSettings", { config: { rules: { "url-https": "loud" } } });
    await settle(() => p.store.settingsError.value !== null, "refused");
    assert.match(p.store.settingsError.value!, /^at \/rules\/url-https: /);
    assert.deepEqual(p.store.settings.value, {});
  });

  test("the exported file holds the levels, the profile and the worker's decode rules; import says where it is wrong", () => {
    const decode = [{ id: "d1", url: "https://h/api", pointer: "/m", direction: "both" as const }];
    const text = settingsFile({ rules: { "url-https": "off" }, strict2260: true }, decode);
    assert.deepEqual(JSON.parse(text), { rules: { "url-https": "off" }, strict2260: true, decode });
    const back = importSettings(text, decode);
    assert.ok(!("error" in back));
    assert.deepEqual(back.config, { rules: { "url-https": "off" }, strict2260: true });
    assert.deepEqual(back.decode, [], "a decode rule the worker has already is not added again");
    const fresh = importSettings(text.replace("https://h/api", "https://other/api"), decode);
    assert.ok(!("error" in fresh));
    assert.deepEqual(fresh.decode, [{ url: "https://other/api", pointer: "/m", direction: "both" }]);
    const broken = importSettings('{"rules": {"url-https": "of"}}', []);
    assert.ok("error" in broken);
    assert.match(broken.error, /^at \/rules\/url-https/);
  });
});
