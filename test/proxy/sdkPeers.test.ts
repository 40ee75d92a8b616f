import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startProxy } from "../../src/cli/proxy/server.ts";
import { scenarios, startServer } from "../peers/scenarios.ts";
import { outcome, readCaptureFile, summary, waitFor } from "./helpers.ts";

/**
 * The real SDK clients and servers of both eras (sdk 1.32.2: elicitation on the POST stream and the GET stream, URL
 * mode, -32042; server/client 2.4.0: input_required rounds) talking through the proxy: the client gets what it
 * gets without it, and the proxy's JSONL gives the flows and findings of the client's own recording, nothing more.
 */
let dir: string;
before(async () => void (dir = await mkdtemp(join(tmpdir(), "mcp-proxy-"))));
after(() => rm(dir, { recursive: true, force: true }));

describe("real SDK peers through mcp-elicit proxy", () => {
  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      const server = await startServer(scenario.era);
      const out = join(dir, `${scenario.name}.jsonl`);
      const proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(server.url) }], out });
      let direct;
      try {
        direct = await scenario.run(server.url);
        const via = await scenario.run(proxy.urls[0]!.url);
        assert.deepEqual(outcome(via.outcome), outcome(direct.outcome), "the client sees the same result");
        // The proxy records an exchange's end once the upstream's answer has ended; the client may be done first.
        const exchanges = (ended: boolean) =>
          new Set(
            proxy.journal
              .records()
              .filter((r) => (r.kind === "end") === ended)
              .map((r) => r.exchange),
          );
        await waitFor(() => exchanges(true).size === exchanges(false).size);
      } finally {
        await proxy.close();
        await server.close();
      }
      const { records, problems } = await readCaptureFile(out);
      assert.deepEqual(problems, []);
      assert.ok(records.length > 0);
      for (const record of records) {
        assert.equal(record.source, "backend");
        assert.equal(record.client, "backend");
        assert.match(record.exchange ?? "", /^backend:x\d+$/);
        assert.ok(record.url?.startsWith(server.url), `url is the upstream's: ${record.url}`);
        if (record.kind === "message") assert.equal(record.via, proxy.urls[0]!.url);
      }
      // The client's own recording (the tap's view) is the reference: same flows, same findings, no problem.
      const expected = summary(direct.records);
      assert.ok(expected.flows.length > 0 || scenario.name.includes("no-elicitation"), "the scenario makes flows");
      assert.deepEqual(summary(records), expected);
    });
  }
});
