import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { envelopeName, laneLabel, serverLabel, viaText } from "../../panel/model/flowFacts.ts";
import { createFlowStore } from "../../panel/state/store.ts";
import { twoUpstreams } from "./hostCorpus.ts";

function storeOf(records: readonly CaptureRecord[]) {
  const store = createFlowStore();
  const r = analyze(records);
  store.openFile("t.jsonl");
  store.ingestFile({ flows: r.flows, findings: r.findings, problems: r.problems, records }, true);
  return store;
}

describe("panel servers and envelopes", () => {
  test("two upstreams behind one backend: two servers, each via the backend, told apart by the server: filter", () => {
    const store = storeOf(twoUpstreams());
    const flows = store.flows.value;
    assert.deepEqual(
      flows.map((f) => [f.server, viaText(f)]),
      [
        ["http://127.0.0.1:4001/mcp", "via MCP Inspector backend at 127.0.0.1:6274/api/mcp"],
        ["http://127.0.0.1:4002/mcp", "via MCP Inspector backend at 127.0.0.1:6274/api/mcp"],
      ],
    );
    // The timeline's lanes are keyed by server: two lanes, named by the upstreams.
    assert.deepEqual([...new Set(flows.map((f) => laneLabel(f.server)))], ["…7.0.0.1:4001/mcp", "…7.0.0.1:4002/mcp"]);
    store.setFilter("server:4002");
    assert.deepEqual(
      store.visibleFlows.value.map((f) => f.server),
      ["http://127.0.0.1:4002/mcp"],
    );
    store.setFilter("-server:4002");
    assert.deepEqual(
      store.visibleFlows.value.map((f) => f.server),
      ["http://127.0.0.1:4001/mcp"],
    );
    // The backend itself names every flow behind it.
    store.setFilter("server:6274/api");
    assert.equal(store.visibleFlows.value.length, 2);
  });

  test("envelope names: the built-in labels, a decode rule by id and by its label, a proxy without a label", () => {
    assert.equal(envelopeName("mcp-b"), "MCP-B postMessage");
    assert.equal(envelopeName("inspector-v2"), "MCP Inspector backend");
    assert.equal(envelopeName("decode:d3"), "decoder d3");
    assert.equal(
      envelopeName("decode:d3", [{ id: "d3", label: "agent API", url: "/agent", pointer: "/m", direction: "both" }]),
      "decoder d3 “agent API”",
    );
    assert.equal(viaText({ envelope: "mcp-b" }), "via MCP-B postMessage");
    assert.equal(viaText({ via: "http://localhost:6277/mcp", envelope: "proxy" }), "via proxy at localhost:6277/mcp");
    assert.equal(viaText({}), null);
    assert.equal(
      envelopeName("decode:d1", [{ id: "d1", label: "x\u202Ey", url: "u", pointer: "", direction: "c2s" }]),
      "decoder d1 “x\\u202ey”",
      "a label is text, its bidi control visible",
    );
  });

  test("a decode rule's HTTP flows: the Server cell names host and rule, the Via cell the rule and its host", () => {
    const rules = [
      { id: "d1", label: "bridge", url: "http://127.0.0.1:5000/bridge/*", pointer: "/rpc", direction: "both" as const },
    ];
    assert.equal(serverLabel("http://127.0.0.1:5000 (bridge)"), "127.0.0.1:5000 (bridge)");
    assert.equal(serverLabel("http://127.0.0.1:5000 (/bridge/*)"), "127.0.0.1:5000 (/bridge/*)");
    assert.equal(
      serverLabel("http://127.0.0.1:5000 (x\u202Ey)"),
      "127.0.0.1:5000 (x\\u202ey)",
      "a label is text, its bidi control visible",
    );
    assert.equal(
      viaText({ via: "http://127.0.0.1:5000", envelope: "decode:d1" }, rules),
      "via decoder d1 “bridge” at 127.0.0.1:5000",
    );
    assert.equal(serverLabel("http://127.0.0.1:4001/mcp"), "127.0.0.1:4001/mcp", "plain URLs as before");
  });

  test("a decode rule's matched count: among a file's records, and from the worker's envelope counts when live", () => {
    const records = twoUpstreams().map((r) =>
      r.kind === "message" && r.envelope === "inspector-v2" ? { ...r, envelope: "decode:d1" } : r,
    );
    const file = storeOf(records);
    assert.equal(
      file.matchedBy("d1"),
      records.filter((r) => r.kind === "message" && r.envelope === "decode:d1").length,
    );
    assert.equal(file.matchedBy("d2"), 0);
    const live = createFlowStore();
    const stats = {
      records: 0,
      dropped: 0,
      rejected: 0,
      preserveLog: false,
      recording: true,
      skipped: 0,
      envelopes: { "decode:d1": 7 },
    };
    live.apply({
      source: "mcp-elicitation-inspector/worker",
      v: 1,
      tabId: 1,
      kind: "snapshot",
      flows: [],
      findings: [],
      problems: [],
      stats,
      records: [],
    } as never);
    assert.equal(live.matchedBy("d1"), 7);
    live.apply({
      source: "mcp-elicitation-inspector/worker",
      v: 1,
      tabId: 1,
      kind: "decoders",
      rules: [{ id: "d1", url: "/x", pointer: "", direction: "both" }],
      error: "the rule cap",
    } as never);
    assert.deepEqual(
      live.decoders.value.map((r) => r.id),
      ["d1"],
    );
    assert.equal(live.decodeError.value, "the rule cap");
    // Rules are the worker's, not the tab's: they reach the store while a file is shown too.
    file.apply({ source: "mcp-elicitation-inspector/worker", v: 1, tabId: 1, kind: "decoders", rules: [] } as never);
    assert.deepEqual(file.decoders.value, []);
  });
});
