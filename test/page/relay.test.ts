import assert from "node:assert/strict";
import { test } from "node:test";
import { findRelay, looksRelayed as captureLooks } from "../../src/capture/relay/find.ts";
import { carriesRelay, createAskUrls, looksRelayed as tapLooks } from "../../src/page/relay.ts";

// The tap's cheap test (src/page/relay.ts) and the capture side's (src/capture/relay/find.ts) answer alike, and
// every text the deep recogniser finds a relay in passes the cheap test.
const texts: [string, boolean][] = [
  [
    '{"type":"data-elicitation","id":"e1","data":{"state":"pending","message":"Deploy?","requestedSchema":{"type":"object","properties":{}}}}',
    true,
  ],
  [
    '{"type":"mcp_elicitation","id":"q","serverId":"s","params":{"mode":"url","message":"Pay","url":"https://p.example","elicitationId":"x"}}',
    true,
  ],
  ['{"type":"elicitation_response","id":"q","result":{"action":"decline"}}', true],
  ['{"action":"accept","content":{"confirm":true}}', true],
  [
    '{"type":"mcp_elicitation","payload":"{\\"message\\":\\"Deploy?\\",\\"requestedSchema\\":{\\"type\\":\\"object\\"}}"}',
    true,
  ],
  ['{"type":"text-delta","id":"t1","delta":"Hello"}', false],
  ['{"type":"cf_agent_identity","name":"default","agent":"my-agent"}', false],
  ['{"action":"navigate","to":"/home"}', false],
  ["[DONE]", false],
];

test("the tap's cheap test and the capture side's agree, and pass every relay the recogniser finds", () => {
  for (const [text, relay] of texts) {
    assert.equal(tapLooks(text), captureLooks(text), text);
    let found: unknown;
    try {
      found = findRelay(JSON.parse(text));
    } catch {
      found = undefined;
    }
    assert.equal(found !== undefined, relay, text);
    if (relay) assert.ok(tapLooks(text), text);
  }
});

test("the recogniser finds the ask at depth with the wrapper's id and type, and the answer's action", () => {
  const ask = findRelay(JSON.parse(texts[0]![0]));
  assert.equal(ask?.kind, "ask");
  assert.equal(ask?.id, "e1");
  assert.equal(ask?.shape, "data-elicitation");
  assert.equal(ask?.pointer, "/data");
  const nested = findRelay(JSON.parse(texts[4]![0]));
  assert.equal(nested?.kind, "ask");
  assert.equal(nested?.pointer, "/payload");
  const answer = findRelay(JSON.parse(texts[2]![0]));
  assert.deepEqual([answer?.kind, answer?.id, answer?.value.action], ["answer", "q", "decline"]);
  // A JSON-RPC message is MCP, never a relay.
  assert.equal(
    findRelay({
      jsonrpc: "2.0",
      id: 1,
      method: "elicitation/create",
      params: { message: "m", requestedSchema: { type: "object" } },
    }),
    undefined,
  );
});

test("a window message's structured clone is tested by own members, one level down", () => {
  assert.equal(carriesRelay({ type: "elicit", params: { message: "m", requestedSchema: { type: "object" } } }), true);
  assert.equal(carriesRelay({ action: "cancel" }), true);
  assert.equal(carriesRelay({ type: "hello", data: { text: "hi" } }), false);
  assert.equal(carriesRelay("requestedSchema"), false);
});

test("the worker's schema takes a relay decoder from the panel, and refuses one that says where nothing lies", async () => {
  const { DecoderInput } = await import("../../src/shared/decoders.ts");
  assert.equal(
    DecoderInput.safeParse({ url: "/bus", kind: "relay", ask: "/form", action: "/reply/decision" }).success,
    true,
  );
  assert.equal(DecoderInput.safeParse({ url: "/bus", kind: "relay" }).success, false);
  assert.equal(DecoderInput.safeParse({ url: "/bus", kind: "relay", ask: "form" }).success, false);
  assert.equal(DecoderInput.safeParse({ url: "/bus", pointer: "", direction: "both" }).success, true);
});

test("the tap remembers a relayed URL-mode ask's URL and matches the page's request for exactly it, once", () => {
  const urls = createAskUrls();
  assert.equal(urls.any(), false);
  urls.note(
    JSON.stringify({
      type: "mcp_elicitation",
      id: "ask-1",
      params: { mode: "url", message: "Sign in", url: "https://idp.example/authorize?state=1", elicitationId: "c-1" },
    }),
  );
  // A form ask, or an object without an elicitationId, names no URL to watch.
  urls.note(JSON.stringify({ params: { mode: "url", url: "https://other.example/" } }));
  urls.note(
    JSON.stringify({ message: "m", requestedSchema: { type: "object", properties: { url: { type: "string" } } } }),
  );
  assert.equal(urls.any(), true);
  assert.equal(urls.take("https://other.example/"), false);
  assert.equal(urls.take("https://idp.example/authorize"), false, "the whole URL, query included");
  assert.equal(urls.take("https://idp.example/authorize?state=1"), true);
  assert.equal(urls.take("https://idp.example/authorize?state=1"), false, "once");
  assert.equal(urls.any(), false);
});

test("the tap remembers at most 16 ask URLs, the oldest forgotten first", () => {
  const urls = createAskUrls();
  for (let i = 0; i < 20; i++)
    urls.note(JSON.stringify({ mode: "url", url: `https://a.example/${i}`, elicitationId: `e${i}` }));
  assert.equal(urls.take("https://a.example/3"), false);
  assert.equal(urls.take("https://a.example/4"), true);
  assert.equal(urls.take("https://a.example/19"), true);
});
