import assert from "node:assert/strict";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { importCapture } from "../../src/capture/import.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import { analyze } from "../../src/engine/index.ts";
import { importFile } from "../../panel/io/importFile.ts";
import { feedStore } from "../../panel/io/startImport.ts";
import { createFlowStore } from "../../panel/state/store.ts";
import { AGENT_RULE, agentHar, agentRecords } from "./hostCorpus.ts";

/** The panel's import (importFile, as the import worker runs it, its steps fed to the store) against the CLI's (`mcp-elicit lint --decode`: importCapture with rules, analyze). */
async function both(name: string, text: string, rules = [AGENT_RULE]) {
  const store = createFlowStore();
  const file = { name, text: async () => text };
  const result = await importFile(file, feedStore(store, file), { rules });
  const cli = analyze(importCapture(text, name, { rules }).records);
  return { store, result, cli };
}
const rows = (
  flows: readonly {
    id: string;
    server: string;
    envelope?: string | undefined;
    status: string;
    elicitations: { action: string | null }[];
  }[],
) => flows.map((f) => [f.id, f.server, f.envelope, f.status, f.elicitations.map((e) => e.action).join()]);

describe("panel import applies the decode rules", () => {
  for (const [format, text] of [
    ["jsonl", () => exportJsonl(agentRecords())],
    ["har", agentHar],
  ] as const) {
    test(`${format}: without a rule the host's envelope is no MCP; with the worker's rules the flows are the CLI's, counted per rule`, async () => {
      const name = `agent.${format}`;
      const bare = await both(name, text(), []);
      assert.equal(bare.store.flows.value.length, 0);
      const { store, cli, result } = await both(name, text());
      // The envelope stage drops the host's heads, ends and empty answers: the lines' seqs leave gaps, so a JSONL
      // file is read again whole (as mcp-elicit lint reads it) rather than in pieces.
      assert.equal(result.whole, format === "jsonl");
      assert.deepEqual(rows(store.flows.value), rows(cli.flows));
      assert.deepEqual(rows(store.flows.value), [
        ["flow-1", "http://127.0.0.1:4100 (agent API)", "decode:d1", "complete", "decline"],
      ]);
      assert.deepEqual(
        store.findings.value.map((f) => f.rule),
        cli.findings.map((f) => f.rule),
      );
      assert.deepEqual(store.problems.value, cli.problems);
      // initialize, its result, initialized, tools/call, elicitation/create, the decline, the tool's result.
      assert.equal(store.matchedBy("d1"), 7);
      assert.equal(store.matchedBy("d2"), 0);
    });
  }
});
