import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startProxy } from "../../src/cli/proxy/server.ts";
import { summary, waitFor } from "./helpers.ts";
import { startSsePeer } from "./ssePeer.ts";

/** The older HTTP+SSE transport: sdk 1.32.2 SSEClientTransport against SSEServerTransport, through the proxy. */
async function callThrough(url: string): Promise<unknown> {
  const client = new Client({ name: "sse-test", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { confirm: true } }));
  await client.connect(new SSEClientTransport(new URL(url)));
  try {
    return await client.callTool({ name: "confirm_action", arguments: {} });
  } finally {
    await client.close();
  }
}

test("HTTP+SSE: the endpoint event points back at the proxy, the client gets the same result, the capture one accepted flow", async () => {
  const server = await startSsePeer();
  const warnings: string[] = [];
  const proxy = await startProxy({
    upstreams: [{ name: "legacy", url: new URL(server.url) }],
    warn: (m) => warnings.push(m),
  });
  try {
    const direct = await callThrough(server.url);
    const via = await callThrough(proxy.urls[0]!.url);
    assert.deepEqual(via, direct);
    assert.deepEqual(warnings, []);
    await waitFor(() => proxy.journal.records().filter((r) => r.kind === "end").length >= 3);
    const records = proxy.journal.records();
    const endpoint = records.find((r) => r.kind === "message" && r.event === "endpoint");
    assert.equal(endpoint?.transport, "eventsource");
    // The capture holds the upstream's own endpoint (the engine resolves the POSTs' URLs with it)…
    assert.match(endpoint?.kind === "message" ? endpoint.text : "", /^\/messages\?sessionId=/);
    // …and every POST went through the proxy, to the upstream's /messages.
    const posts = records.filter((r) => r.kind === "message" && r.direction === "c2s");
    assert.ok(
      posts.length >= 4 && posts.every((r) => r.url?.startsWith(server.url.replace("/sse", "/messages?sessionId="))),
    );
    const { flows, findings, problems } = summary(records);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      flows.map((f) => [f.kind, f.status, f.elicitations.map((e) => e.action)]),
      [["server-request", "complete", ["accept"]]],
    );
    assert.deepEqual(findings, []);
  } finally {
    await proxy.close();
    await server.close();
  }
});
