import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { CaptureRecord } from "../src/capture/record.ts";
import type { MessageRecord, ResponseRecord } from "../src/capture/record.ts";
import { createRecorder } from "./peers/recorder.ts";
import { runScenario, scenarios } from "./peers/scenarios.ts";
import type { ScenarioResult } from "./peers/scenarios.ts";

// Assertions on the records themselves: what the real SDK peers put on the wire, as the recorder saw it.

type Json = Record<string, any>;
interface Msg {
  record: MessageRecord;
  body: Json;
}

const messages = (result: ScenarioResult): Msg[] =>
  result.records
    .filter((r): r is MessageRecord => r.kind === "message")
    .map((record) => ({ record, body: JSON.parse(record.text) as Json }));
const requests = (result: ScenarioResult, method: string): Msg[] =>
  messages(result).filter((m) => m.record.direction === "c2s" && m.body.method === method);
const responseTo = (result: ScenarioResult, request: Msg): Msg => {
  const found = messages(result).find(
    (m) =>
      m.record.direction === "s2c" &&
      m.body.id === request.body.id &&
      m.body.method === undefined &&
      m.record.exchange === request.record.exchange,
  );
  assert.ok(found, `no response to ${request.body.method} #${request.body.id}`);
  return found;
};
const head = (result: ScenarioResult, exchange: string | undefined): ResponseRecord => {
  const found = result.records.find((r): r is ResponseRecord => r.kind === "response" && r.exchange === exchange);
  assert.ok(found, `no response record for ${exchange}`);
  return found;
};
/** Server→client JSON-RPC requests (elicitation/create with an id). */
const serverRequests = (result: ScenarioResult, method = "elicitation/create"): Msg[] =>
  messages(result).filter((m) => m.record.direction === "s2c" && m.body.method === method && m.body.id !== undefined);
/** The client's JSON-RPC response to a server request, and the HTTP answer it got. */
const answerTo = (result: ScenarioResult, ask: Msg): Msg => {
  const found = messages(result).find(
    (m) => m.record.direction === "c2s" && m.body.method === undefined && m.body.id === ask.body.id,
  );
  assert.ok(found, `no answer to server request #${ask.body.id}`);
  return found;
};
const text = (m: Msg): string => (m.body.result?.content?.[0]?.text as string | undefined) ?? "";

const results = new Map<string, ScenarioResult>();
const run = async (name: string): Promise<ScenarioResult> => {
  const scenario = scenarios.find((s) => s.name === name);
  assert.ok(scenario, `unknown scenario ${name}`);
  const result = await runScenario(scenario);
  results.set(name, result);
  checkWellFormed(result);
  return result;
};

/** What holds for every capture: valid records, seq 0…n-1, times in order, every exchange ended, no secrets. */
function checkWellFormed(result: ScenarioResult): void {
  result.records.forEach((record, index) => {
    assert.equal(record.seq, index);
    CaptureRecord.parse(record);
    assert.equal(record.client, "test-client");
    assert.equal(record.transport, "http");
    if (index > 0) assert.ok(record.time >= result.records[index - 1]!.time, "time goes backwards");
  });
  const exchanges = new Set(result.records.map((r) => r.exchange));
  for (const exchange of exchanges) {
    const ends = result.records.filter((r) => r.exchange === exchange && r.kind === "end");
    assert.equal(ends.length, 1, `exchange ${exchange} has ${ends.length} end records`);
    assert.ok(
      result.records.some((r) => r.exchange === exchange && r.kind === "response"),
      `exchange ${exchange} has no response`,
    );
  }
  for (const m of messages(result)) assert.equal(m.body.jsonrpc, "2.0");
  assert.doesNotMatch(JSON.stringify(result.records), /authorization|cookie/i);
}

function checkLegacyAnswer(result: ScenarioResult, ask: Msg, action: string): Msg {
  const answer = answerTo(result, ask);
  assert.equal(answer.record.stream, "body");
  assert.equal(answer.record.method, "POST");
  assert.equal(answer.body.result.action, action);
  assert.ok(answer.record.headers?.["mcp-session-id"], "answer POST without Mcp-Session-Id");
  assert.equal(answer.record.headers?.["mcp-protocol-version"], "2025-11-25");
  const answered = head(result, answer.record.exchange);
  assert.equal(answered.status, 202);
  assert.equal(answered.emptyBody, true);
  return answer;
}

/** The MRTR chain of one originating method: every request, and the response each got. */
function mrtrChain(result: ScenarioResult, method: string, target?: string): { request: Msg; response: Msg }[] {
  const chain = requests(result, method)
    .filter((request) => target === undefined || (request.body.params.name ?? request.body.params.uri) === target)
    .map((request) => ({ request, response: responseTo(result, request) }));
  assert.equal(new Set(chain.map((c) => c.request.body.id)).size, chain.length, "retries reuse a request id");
  chain.forEach(({ request, response }, i) => {
    const meta = request.body.params._meta as Json;
    assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert.ok(meta["io.modelcontextprotocol/clientCapabilities"], "request without per-request capabilities");
    assert.equal(request.record.headers?.["mcp-protocol-version"], "2026-07-28");
    assert.equal(request.record.headers?.["mcp-method"], method);
    assert.equal(request.record.headers?.["mcp-session-id"], undefined);
    assert.equal(request.record.stream, "body");
    if (i === 0) {
      assert.equal(request.body.params.inputResponses, undefined);
      assert.equal(request.body.params.requestState, undefined);
    } else {
      const previous = chain[i - 1]!.response.body.result as Json;
      assert.equal(previous.resultType, "input_required");
      // requestState echoed byte for byte when the IRR had one, absent otherwise.
      assert.equal(request.body.params.requestState, previous.requestState);
      assert.deepEqual(
        Object.keys(request.body.params.inputResponses ?? {}).sort(),
        Object.keys(previous.inputRequests ?? {}).sort(),
      );
      assert.equal(request.body.params.name, chain[0]!.request.body.params.name);
      assert.equal(request.body.params.uri, chain[0]!.request.body.params.uri);
    }
    assert.equal(head(result, response.record.exchange).status, 200);
  });
  assert.equal(chain.at(-1)?.response.body.result?.resultType, "complete");
  // 2026-07-28 has no server→client requests, no sessions, no GET stream.
  assert.deepEqual(serverRequests(result), []);
  assert.ok(!result.records.some((r) => r.kind === "message" && r.stream === "get-sse"));
  return chain;
}

const inputRequests = (m: Msg): Json => m.body.result.inputRequests as Json;
/** Real servers and sockets: a hang fails the test instead of the run. */
const limit = { timeout: 20_000 };

describe("real SDK peers, 2025-11-25 (sdk 1.32.2)", () => {
  for (const [name, action] of [
    ["legacy-form-accept", "accept"],
    ["legacy-form-decline", "decline"],
    ["legacy-form-cancel", "cancel"],
  ] as const) {
    test(name, limit, async () => {
      const result = await run(name);
      const [initialize] = requests(result, "initialize");
      assert.deepEqual(initialize!.body.params.capabilities.elicitation, { form: {}, url: {} });
      assert.equal(responseTo(result, initialize!).body.result.protocolVersion, "2025-11-25");
      const [call] = requests(result, "tools/call");
      const asks = serverRequests(result);
      assert.equal(asks.length, 1);
      const ask = asks[0]!;
      assert.equal(ask.record.stream, "post-sse");
      assert.equal(ask.record.exchange, call!.record.exchange, "elicitation not on the tools/call stream");
      assert.ok(ask.record.eventId, "SSE event without id (the peer has an event store)");
      assert.equal(ask.body.params.requestedSchema.properties.confirm.type, "boolean");
      const answer = checkLegacyAnswer(result, ask, action);
      assert.equal(answer.body.result.content !== undefined, action === "accept");
      const final = responseTo(result, call!);
      assert.equal(final.record.stream, "post-sse");
      assert.ok(final.record.seq > answer.record.seq);
      assert.equal(text(final), action === "accept" ? 'confirm: accept {"confirm":true}' : `confirm: ${action}`);
    });
  }

  test("legacy-form-multi-field", limit, async () => {
    const result = await run("legacy-form-multi-field");
    const [ask] = serverRequests(result);
    const { properties, required } = ask!.body.params.requestedSchema as Json;
    assert.equal(properties.email.format, "email");
    assert.deepEqual([properties.age.type, properties.age.minimum, properties.age.maximum], ["integer", 18, 120]);
    assert.deepEqual([properties.newsletter.type, properties.newsletter.default], ["boolean", false]);
    assert.deepEqual(
      properties.plan.oneOf.map((o: Json) => o.const),
      ["free", "pro"],
    );
    assert.equal(properties.topics.type, "array");
    assert.deepEqual(
      properties.topics.items.anyOf.map((o: Json) => o.const),
      ["mcp", "devtools", "security"],
    );
    assert.deepEqual(required, ["email", "age", "plan"]);
    const answer = checkLegacyAnswer(result, ask!, "accept");
    assert.deepEqual(answer.body.result.content, {
      email: "ada@example.com",
      age: 36,
      newsletter: true,
      plan: "pro",
      topics: ["mcp", "devtools"],
    });
  });

  test("legacy-url-complete", limit, async () => {
    const result = await run("legacy-url-complete");
    const [call] = requests(result, "tools/call");
    const [ask] = serverRequests(result);
    assert.equal(ask!.body.params.mode, "url");
    assert.match(ask!.body.params.url, /^http:\/\/127\.0\.0\.1:\d+\/consent\//);
    const elicitationId = ask!.body.params.elicitationId as string;
    assert.ok(elicitationId);
    const answer = checkLegacyAnswer(result, ask!, "accept");
    assert.equal(answer.body.result.content, undefined);
    const complete = messages(result).find((m) => m.body.method === "notifications/elicitation/complete");
    assert.ok(complete);
    assert.equal(complete.body.params.elicitationId, elicitationId);
    assert.equal(complete.record.stream, "post-sse");
    assert.equal(complete.record.exchange, call!.record.exchange);
    const final = responseTo(result, call!);
    assert.ok(answer.record.seq < complete.record.seq && complete.record.seq < final.record.seq);
    assert.equal(text(final), "sign-in: linked");
  });

  test("legacy-url-required-retry", limit, async () => {
    const result = await run("legacy-url-required-retry");
    const calls = requests(result, "tools/call");
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0]!.body.id, calls[1]!.body.id);
    const refused = responseTo(result, calls[0]!);
    assert.equal(refused.body.error.code, -32042);
    const [elicitation] = refused.body.error.data.elicitations as Json[];
    assert.equal(elicitation!.mode, "url");
    assert.ok(elicitation!.elicitationId);
    assert.deepEqual(serverRequests(result), [], "-32042 flow sends no elicitation/create");
    const complete = messages(result).find((m) => m.body.method === "notifications/elicitation/complete");
    assert.ok(complete);
    assert.equal(complete.body.params.elicitationId, elicitation!.elicitationId);
    assert.equal(
      complete.record.stream,
      "get-sse",
      "the call was already answered, so the completion rides the GET stream",
    );
    assert.equal(complete.record.method, "GET");
    assert.ok(complete.record.seq > refused.record.seq && complete.record.seq < calls[1]!.record.seq);
    assert.equal(text(responseTo(result, calls[1]!)), "repositories: mcp-elicitation-inspector");
  });

  test("legacy-no-elicitation-capability", limit, async () => {
    const result = await run("legacy-no-elicitation-capability");
    const [initialize] = requests(result, "initialize");
    assert.equal(initialize!.body.params.capabilities.elicitation, undefined);
    assert.deepEqual(serverRequests(result), []);
    const final = responseTo(result, requests(result, "tools/call")[0]!);
    // sdk 1.32.2: elicitInput throws before sending; McpServer turns that into an isError tool result.
    assert.equal(final.body.result.isError, true);
    assert.equal(text(final), "Client does not support form elicitation.");
  });

  test("legacy-two-sequential", limit, async () => {
    const result = await run("legacy-two-sequential");
    const [call] = requests(result, "tools/call");
    const asks = serverRequests(result);
    assert.equal(asks.length, 2);
    assert.notEqual(asks[0]!.body.id, asks[1]!.body.id);
    for (const ask of asks) assert.equal(ask.record.exchange, call!.record.exchange);
    const first = checkLegacyAnswer(result, asks[0]!, "accept");
    const second = checkLegacyAnswer(result, asks[1]!, "accept");
    assert.ok(first.record.seq < asks[1]!.record.seq, "second question before the first answer");
    assert.deepEqual(second.body.result.content, { nights: 3 });
    assert.ok(responseTo(result, call!).record.seq > second.record.seq);
  });

  test("legacy-get-stream", limit, async () => {
    const result = await run("legacy-get-stream");
    const [call] = requests(result, "tools/call");
    const [ask] = serverRequests(result);
    assert.equal(ask!.record.stream, "get-sse");
    assert.equal(ask!.record.method, "GET");
    assert.notEqual(ask!.record.exchange, call!.record.exchange);
    assert.ok(ask!.record.headers?.["mcp-session-id"], "GET stream records keep the GET's request headers");
    const getHead = head(result, ask!.record.exchange);
    assert.equal(getHead.status, 200);
    assert.equal(getHead.headers?.["content-type"], "text/event-stream");
    checkLegacyAnswer(result, ask!, "accept");
    assert.equal(text(responseTo(result, call!)), 'background: accept {"confirm":true}');
    // The client closes its session: the GET stream ends aborted.
    const getEnd = result.records.find((r) => r.kind === "end" && r.exchange === ask!.record.exchange);
    assert.equal(getEnd?.kind === "end" ? getEnd.error : undefined, "abort");
  });
});

describe("real SDK peers, 2026-07-28 (server/client 2.4.0)", () => {
  for (const [name, action] of [
    ["modern-form-accept", "accept"],
    ["modern-form-decline", "decline"],
    ["modern-form-cancel", "cancel"],
  ] as const) {
    test(name, limit, async () => {
      const result = await run(name);
      const [discover] = requests(result, "server/discover");
      assert.deepEqual(responseTo(result, discover!).body.result.supportedVersions, ["2026-07-28"]);
      const chain = mrtrChain(result, "tools/call");
      assert.equal(chain.length, 2);
      const irr = chain[0]!.response;
      assert.equal(irr.record.stream, "body");
      assert.equal(irr.body.result.requestState, undefined, "this tool keeps no requestState");
      assert.equal(inputRequests(irr).confirm.method, "elicitation/create");
      const retry = chain[1]!.request;
      assert.equal(retry.body.params.inputResponses.confirm.action, action);
      assert.equal(retry.record.headers?.["mcp-name"], "confirm_action");
      assert.equal(
        text(chain[1]!.response),
        action === "accept" ? 'confirm: accept {"confirm":true}' : `confirm: ${action}`,
      );
    });
  }

  test("modern-two-rounds", limit, async () => {
    const result = await run("modern-two-rounds");
    const chain = mrtrChain(result, "tools/call");
    assert.equal(chain.length, 3, "two input rounds: the call and two retries");
    assert.equal(typeof chain[0]!.response.body.result.requestState, "string");
    assert.equal(chain[1]!.request.body.params.requestState, chain[0]!.response.body.result.requestState);
    assert.deepEqual(chain[1]!.request.body.params.inputResponses, {
      city: { action: "accept", content: { city: "Lisbon" } },
    });
    assert.notEqual(chain[1]!.response.body.result.requestState, chain[0]!.response.body.result.requestState);
    assert.deepEqual(Object.keys(inputRequests(chain[1]!.response)), ["nights"]);
    assert.equal(text(chain[2]!.response), 'trip: Lisbon for accept {"nights":3}');
  });

  test("modern-three-rounds", limit, async () => {
    const result = await run("modern-three-rounds");
    const chain = mrtrChain(result, "tools/call");
    assert.equal(chain.length, 4);
    assert.deepEqual(
      chain.slice(0, 3).map((c) => Object.keys(inputRequests(c.response))),
      [["env"], ["confirm"], ["reason"]],
    );
    assert.equal(text(chain[3]!.response), 'deploy: staging because accept {"reason":"hotfix"}');
  });

  test("modern-two-keyed", limit, async () => {
    const result = await run("modern-two-keyed");
    const chain = mrtrChain(result, "tools/call");
    assert.equal(chain.length, 2);
    assert.deepEqual(Object.keys(inputRequests(chain[0]!.response)).sort(), ["date", "room"]);
    assert.deepEqual(chain[1]!.request.body.params.inputResponses, {
      date: { action: "accept", content: { date: "2026-09-01" } },
      room: { action: "accept", content: { room: "r2" } },
    });
  });

  test("modern-url", limit, async () => {
    const result = await run("modern-url");
    const chain = mrtrChain(result, "tools/call");
    assert.equal(chain.length, 2);
    const ask = inputRequests(chain[0]!.response).signin as Json;
    assert.equal(ask.method, "elicitation/create");
    assert.equal(ask.params.mode, "url");
    assert.match(ask.params.url, /^http:\/\/127\.0\.0\.1:\d+\/consent\//);
    assert.equal(ask.params.elicitationId, undefined, "elicitationId was removed in 2026-07-28");
    assert.deepEqual(chain[1]!.request.body.params.inputResponses, { signin: { action: "accept" } });
    assert.ok(!messages(result).some((m) => m.body.method === "notifications/elicitation/complete"));
    assert.equal(text(chain[1]!.response), "sign-in: linked");
  });

  test("modern-prompt", limit, async () => {
    const result = await run("modern-prompt");
    const chain = mrtrChain(result, "prompts/get");
    assert.equal(chain.length, 2);
    assert.equal(chain[0]!.request.body.params.name, "draft_reply");
    assert.equal(chain[0]!.request.record.headers?.["mcp-name"], "draft_reply");
    assert.equal(inputRequests(chain[0]!.response).tone.params.requestedSchema.properties.tone.default, "friendly");
    assert.equal(chain[1]!.response.body.result.messages[0].content.text, "Draft a formal reply.");
  });

  test("modern-resource", limit, async () => {
    const result = await run("modern-resource");
    const chain = mrtrChain(result, "resources/read");
    assert.equal(chain.length, 2);
    assert.equal(chain[1]!.request.body.params.uri, "notes://private/today");
    assert.deepEqual(chain[1]!.request.body.params.inputResponses, {
      reveal: { action: "accept", content: { confirm: true } },
    });
    assert.equal(chain[1]!.response.body.result.contents[0].text, "Call the dentist.");
  });

  test("modern-no-elicitation-capability", limit, async () => {
    const result = await run("modern-no-elicitation-capability");
    const calls = requests(result, "tools/call");
    assert.equal(calls.length, 1, "no retry after -32021");
    assert.deepEqual(calls[0]!.body.params._meta["io.modelcontextprotocol/clientCapabilities"], {});
    const refused = responseTo(result, calls[0]!);
    assert.equal(refused.record.stream, "body");
    assert.equal(refused.body.error.code, -32021);
    assert.ok(refused.body.error.data.requiredCapabilities.elicitation);
    assert.equal(head(result, refused.record.exchange).status, 400);
  });

  test("modern-mixed-session", limit, async () => {
    const result = await run("modern-mixed-session");
    const methods = messages(result)
      .filter((m) => m.record.direction === "c2s")
      .map((m) => m.body.method as string);
    assert.deepEqual(methods, [
      "server/discover",
      "server/discover",
      "tools/list",
      "tools/call",
      "tools/call",
      "tools/call",
      "prompts/get",
      "prompts/get",
    ]);
    for (const m of messages(result).filter((x) => x.record.direction === "c2s")) {
      assert.equal(m.record.headers?.["mcp-method"], m.body.method);
      assert.equal(head(result, m.record.exchange).status, 200);
    }
    const tools = responseTo(result, requests(result, "tools/list")[0]!).body.result.tools as Json[];
    assert.ok(tools.some((t) => t.name === "plan_trip"));
    const [plain] = requests(result, "tools/call");
    assert.equal(plain!.body.params.name, "server_time");
    assert.equal(responseTo(result, plain!).body.result.resultType, "complete");
    assert.equal(mrtrChain(result, "tools/call", "confirm_action").length, 2);
    assert.equal(mrtrChain(result, "prompts/get").length, 2);
    assert.ok(
      !result.records.some((r) => (r.kind === "message" || r.kind === "response") && r.headers?.["mcp-session-id"]),
    );
  });
});

test("every scenario has a test here", () => {
  assert.deepEqual(
    scenarios.map((s) => s.name).filter((name) => !results.has(name)),
    [],
  );
});

describe("recorder", () => {
  test("SSE split across chunks, event ids, no Authorization or Cookie, abort ends the exchange", limit, async () => {
    const server = createServer((req, res) => {
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1", "set-cookie": "a=b" });
        res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/a"');
      setTimeout(
        () => res.write('}\n\nid: e2\ndata: \n\n: keepalive\n\ndata: {"jsonrpc":"2.0","method":"notifications/b"}\n\n'),
        10,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const recorder = createRecorder();
      const post = await recorder.fetch(url, {
        method: "POST",
        headers: {
          Authorization: "Bearer secret",
          Cookie: "c=d",
          "content-type": "application/json",
          "mcp-session-id": "s1",
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      assert.deepEqual(await post.json(), { jsonrpc: "2.0", id: 1, result: {} });
      const controller = new AbortController();
      const get = await recorder.fetch(url, {
        headers: { accept: "text/event-stream", "mcp-session-id": "s1" },
        signal: controller.signal,
      });
      const reader = get.body!.getReader();
      let seen = "";
      while (!seen.includes("notifications/b")) seen += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      await reader.read().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 10));

      const kinds = recorder.records.map(
        (r) => `${r.kind}${r.kind === "message" ? `:${r.direction}:${r.stream}` : ""}`,
      );
      assert.deepEqual(kinds, [
        "message:c2s:body",
        "response",
        "message:s2c:body",
        "end",
        "response",
        "message:s2c:get-sse",
        "message:s2c:get-sse",
        "end",
      ]);
      const [request, , , , , first, second, end] = recorder.records;
      assert.deepEqual(request?.kind === "message" && request.headers, {
        "content-type": "application/json",
        "mcp-session-id": "s1",
      });
      assert.equal(first?.kind === "message" && first.eventId, "e1");
      assert.equal(second?.kind === "message" && second.eventId, undefined);
      assert.equal(end?.kind === "end" && end.error, "abort");
      assert.doesNotMatch(JSON.stringify(recorder.records), /secret|c=d|a=b/);
      recorder.reset();
      assert.deepEqual(recorder.records, []);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
