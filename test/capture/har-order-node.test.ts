import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { importHar } from "../../src/capture/har/import.ts";
import { analyze } from "../../src/engine/index.ts";
import { createHarRecorder } from "../peers/harRecorder.ts";
import { orderTools, startOrderServer } from "../peers/orderServer.ts";

/**
 * Issue 16, item 2: a HAR with sub-millisecond timings, as a Node recorder or Playwright's recordHar writes it, of
 * the real SDK 1.32.2 client and server: the standalone GET stream's head comes before the call whose question it
 * carries, and the HAR has no time for that question but the stream's first and last byte. Placed by
 * what must have happened, each SDK routing of an elicitation lints to its flow with no warning: on the call's
 * POST stream, on the GET stream without relatedRequestId, and on the GET that resumes a closed POST stream.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function recordSession(tools: readonly string[]): Promise<{ har: string; results: unknown[] }> {
  const server = await startOrderServer("");
  const recorder = createHarRecorder();
  const results: unknown[] = [];
  try {
    const client = new Client(
      { name: "har-order-node", version: "1.0.0" },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; requestedSchema?: { properties: Record<string, unknown> } };
      if (params.mode === "url") return { action: "accept" };
      const name = Object.keys(params.requestedSchema?.properties ?? {})[0] ?? "value";
      if (name === "project") await sleep(100);
      return { action: "accept", content: { [name]: `my-${name}` } };
    });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", server.origin), { fetch: recorder.fetch });
    await client.connect(transport);
    // The standalone GET stream opens (its head is the HAR's only time for what it carries) before the calls.
    await sleep(50);
    for (const name of tools) results.push(await client.callTool({ name, arguments: {} }));
    await transport.terminateSession();
    await sleep(100);
    await client.close();
  } finally {
    await server.close();
  }
  return { har: JSON.stringify(recorder.har()), results };
}

test("a GET-stream elicitation with sub-millisecond HAR timings is placed after the call it belongs to", {
  timeout: 60_000,
}, async () => {
  const { har, results } = await recordSession([orderTools.askOnGet]);
  assert.match(JSON.stringify(results), /approve: accept/);
  const { records, problems } = importHar(har, "node.har");
  assert.deepEqual(problems, []);
  assert.deepEqual(importHar(har, "node.har", { window: 0 }), { records, problems }, "streamed, the same records");
  const { flows, findings } = analyze(records);
  assert.deepEqual(
    findings.filter((f) => f.severity !== "info").map((f) => `${f.rule}: ${f.message}`),
    [],
  );
  assert.equal(flows.length, 1, JSON.stringify(flows.map((f) => [f.kind, f.method, f.target, f.status])));
  const [flow] = flows;
  assert.equal(flow!.method, "tools/call");
  assert.equal(flow!.target, orderTools.askOnGet);
  assert.equal(flow!.status, "complete");
  assert.equal(flow!.inferred, "get-stream");
  assert.deepEqual(
    flow!.elicitations.map((e) => e.action),
    ["accept"],
  );
});

test("every SDK routing of an elicitation, recorded by a Node HAR recorder, lints to its flow with no warning", {
  timeout: 60_000,
}, async () => {
  const tools = [orderTools.twoAtOnce, orderTools.completeOnGet, orderTools.askOnGet, orderTools.askResumed];
  const { har, results } = await recordSession(tools);
  assert.match(JSON.stringify(results), /two: accept accept.*sign-in: linked.*approve: accept.*resumed: accept/);
  const { records, problems } = importHar(har, "node.har");
  assert.deepEqual(problems, []);
  assert.deepEqual(importHar(har, "node.har", { window: 0 }), { records, problems }, "streamed, the same records");
  const { flows, findings } = analyze(records);
  assert.deepEqual(
    findings.filter((f) => f.severity !== "info").map((f) => `${f.rule}: ${f.message}`),
    [],
  );
  assert.deepEqual(
    flows.map((f) => [f.method, f.target, f.status, f.elicitations.map((e) => e.action).join(" ")]),
    tools.map((t) => ["tools/call", t, "complete", t === orderTools.twoAtOnce ? "accept accept" : "accept"]),
  );
  const resumed = flows.find((f) => f.target === orderTools.askResumed)!;
  assert.equal(resumed.inferred, undefined, "the resumed stream names its call: nothing inferred");
});
