import { test } from "node:test";
import assert from "node:assert/strict";
import { createUnwrapper, validateDecoders, type Decoder, type Draft } from "../../../src/capture/envelopes/index.ts";
import { resolvePointer, urlMatcher, validateDecoder } from "../../../src/capture/envelopes/decoders.ts";
import type { CaptureRecord } from "../../../src/capture/record.ts";
import { analyze } from "../../../src/engine/index.ts";

const rule: Decoder = {
  id: "d1",
  url: "https://agent.example/v1/*/turn",
  method: "POST",
  pointer: "/items/0/payload",
  direction: "both",
};
const exchange = (text: string, answer: string, url = "https://agent.example/v1/abc/turn"): Draft[] => [
  {
    time: 1,
    transport: "http",
    exchange: "t1",
    url,
    kind: "message",
    direction: "c2s",
    stream: "body",
    method: "POST",
    text,
  },
  { time: 2, transport: "http", exchange: "t1", url, kind: "response", status: 200 },
  {
    time: 3,
    transport: "http",
    exchange: "t1",
    url,
    kind: "message",
    direction: "s2c",
    stream: "body",
    method: "POST",
    text: answer,
  },
  { time: 4, transport: "http", exchange: "t1", url, kind: "end" },
];

test("a decode rule takes the message at its pointer (a string there is parsed once); the rest of its exchange is dropped", () => {
  const unwrap = createUnwrapper({ rules: [rule] });
  const out = exchange(
    JSON.stringify({
      items: [{ payload: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } }) }],
    }),
    JSON.stringify({ items: [{ payload: { jsonrpc: "2.0", id: 5, result: {} } }] }),
  ).flatMap((r) => unwrap.push(r));
  assert.deepEqual(
    out.map((d) => (d.kind === "message" ? [d.direction, d.envelope, d.stream, d.text] : d.kind)),
    [
      ["c2s", "decode:d1", "envelope", '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}'],
      ["s2c", "decode:d1", "envelope", '{"jsonrpc":"2.0","id":5,"result":{}}'],
    ],
  );
  assert.deepEqual(unwrap.counts(), { "decode:d1": 2 });
});

test("a decode rule: an answer with nothing at the pointer is dropped quietly; bad JSON is counted; other URLs and methods are untouched", () => {
  const unwrap = createUnwrapper({ rules: [rule] });
  const out = exchange("{not json", '{"ok":true}').flatMap((r) => unwrap.push(r));
  assert.deepEqual(out, []);
  assert.deepEqual(unwrap.counts(), { unreadable: 1 });
  const elsewhere = exchange(
    '{"items":[{"payload":{"jsonrpc":"2.0","id":1,"method":"x"}}]}',
    "{}",
    "https://agent.example/v2/abc/turn",
  );
  assert.equal(
    elsewhere.flatMap((r) => unwrap.push(r)).length,
    4,
    "URL does not match: generic sees no single JSON-RPC member either",
  );
  const get: Draft = {
    time: 1,
    transport: "http",
    exchange: "g",
    url: "https://agent.example/v1/abc/turn",
    kind: "message",
    direction: "s2c",
    stream: "body",
    method: "GET",
    text: '{"items":[{"payload":{"jsonrpc":"2.0","id":1,"result":{}}}]}',
  };
  assert.deepEqual(unwrap.push(get), [get], "the rule says POST");
});

test("a decode rule's direction overrides the record's; postMessage and WebSocket keep their connection as exchange", () => {
  const unwrap = createUnwrapper({
    rules: [{ id: "pm", url: "https://widget.example", pointer: "/m", direction: "s2c" }],
  });
  const [m] = unwrap.push({
    time: 1,
    transport: "postMessage",
    exchange: "pm:a>b",
    url: "https://widget.example",
    client: "https://host.example",
    kind: "message",
    direction: "c2s",
    stream: "postMessage",
    text: '{"m":{"jsonrpc":"2.0","method":"notifications/message","params":{}}}',
  });
  assert.ok(m?.kind === "message");
  assert.deepEqual([m.direction, m.exchange, m.envelope], ["s2c", "pm:a>b", "decode:pm"]);
});

test("a decode rule's HTTP messages share one scope (sends on one URL, answers streamed on another): an elicitation pairs with its answer", () => {
  const origin = "http://127.0.0.1:5000";
  const bridgeRule: Decoder = {
    id: "b",
    label: "bridge",
    url: `${origin}/bridge/*`,
    pointer: "/rpc",
    direction: "both",
  };
  const client = origin;
  let t = 0;
  let n = 0;
  const drafts: Draft[] = [];
  const send = (message: object): void => {
    const exchange = `s${++n}`;
    const url = `${origin}/bridge/send?session=1`;
    drafts.push({
      time: ++t,
      transport: "http",
      exchange,
      url,
      client,
      kind: "message",
      direction: "c2s",
      stream: "body",
      method: "POST",
      text: JSON.stringify({ rpc: JSON.stringify(message) }),
    });
    drafts.push({ time: ++t, transport: "http", exchange, url, client, kind: "response", status: 200 });
    drafts.push({
      time: ++t,
      transport: "http",
      exchange,
      url,
      client,
      kind: "message",
      direction: "s2c",
      stream: "body",
      method: "POST",
      text: '{"ok":true}',
    });
    drafts.push({ time: ++t, transport: "http", exchange, url, client, kind: "end" });
  };
  const event = (message: object): void =>
    void drafts.push({
      time: ++t,
      transport: "http",
      exchange: "ev",
      url: `${origin}/bridge/events?session=1`,
      client,
      kind: "message",
      direction: "s2c",
      stream: "get-sse",
      method: "GET",
      text: JSON.stringify({ rpc: JSON.stringify(message) }),
    });
  drafts.push({
    time: ++t,
    transport: "http",
    exchange: "ev",
    url: `${origin}/bridge/events?session=1`,
    client,
    kind: "response",
    status: 200,
    headers: { "content-type": "text/event-stream" },
  });
  send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: "c", version: "1" },
    },
  });
  event({
    jsonrpc: "2.0",
    id: 0,
    result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "book", arguments: {} } });
  event({
    jsonrpc: "2.0",
    id: 0,
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    },
  });
  send({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { name: "Ada" } } });
  event({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "booked" }] } });

  const unwrap = createUnwrapper({ rules: [bridgeRule] });
  const out = drafts.flatMap((d) => unwrap.push(d));
  assert.equal(out.length, 7, "only the carried messages: the host's heads, ends and {ok:true} answers are dropped");
  for (const m of out) {
    assert.ok(m.kind === "message");
    assert.deepEqual(
      [m.envelope, m.stream, m.exchange, m.server, m.via],
      ["decode:b", "envelope", "decode:b", `${origin} (bridge)`, origin],
    );
    assert.equal(
      m.url,
      `${origin}/bridge/${m.direction === "c2s" ? "send" : "events"}?session=1`,
      "each message keeps the endpoint it went through",
    );
  }
  // Without a label the pattern names the rule, less the origin it repeats.
  const [unlabelled] = createUnwrapper({ rules: [{ ...bridgeRule, label: undefined }] }).push(drafts[1]!);
  assert.ok(unlabelled?.kind === "message");
  assert.equal(unlabelled.server, `${origin} (/bridge/*)`);

  const { flows, problems } = analyze(out.map((d, seq) => ({ ...d, seq, v: 1 }) as CaptureRecord));
  assert.deepEqual(problems, []);
  const asked = flows.filter((f) => f.elicitations.length > 0);
  assert.equal(asked.length, 1);
  assert.deepEqual(
    [
      asked[0]!.status,
      asked[0]!.elicitations.map((e) => e.action),
      asked[0]!.server,
      asked[0]!.via,
      asked[0]!.envelope,
    ],
    ["complete", ["accept"], `${origin} (bridge)`, origin, "decode:b"],
  );
});

test("decode rule validation names what is wrong", () => {
  assert.deepEqual(validateDecoder({ id: "a", url: "x", pointer: "/p", direction: "c2s", method: "post" }), {
    id: "a",
    url: "x",
    pointer: "/p",
    direction: "c2s",
    method: "POST",
  });
  assert.match(validateDecoder({ id: "a", url: "x", path: "/p", direction: "c2s" }) as string, /unknown member "path"/);
  assert.match(validateDecoder({ id: "a", url: "x", pointer: "p", direction: "c2s" }) as string, /RFC 6901/);
  assert.match(validateDecoder({ id: "a", url: "x", pointer: "/a~2", direction: "c2s" }) as string, /~0 and ~1/);
  assert.match(validateDecoder({ id: "a", url: "", pointer: "", direction: "c2s" }) as string, /"url"/);
  assert.match(validateDecoder({ id: "a", url: "x", pointer: "", direction: "up" }) as string, /"direction"/);
  assert.match(validateDecoder([]) as string, /JSON object/);
  const many = validateDecoders([
    { id: "a", url: "x", pointer: "", direction: "both" },
    { id: "a", url: "y", pointer: "", direction: "both" },
    3,
  ]);
  assert.deepEqual(many.errors, ['rule 2: id "a" is used twice', "rule 3: a decode rule is a JSON object"]);
  assert.equal(many.rules.length, 1);
  assert.deepEqual(validateDecoders({}).errors, ["decode rules are a JSON array of rule objects"]);
});

test("URL patterns and JSON pointers", () => {
  assert.equal(urlMatcher("/api/turn")("https://a.example/api/turn?x=1"), true);
  assert.equal(urlMatcher("https://a.example/*/turn")("https://a.example/v1/turn"), true);
  assert.equal(urlMatcher("https://a.example/*/turn")("https://a.example/v1/turn?x"), false);
  assert.equal(urlMatcher("https://a.example/v1.turn*")("https://a.example/v1xturn"), false, "dots are literal");
  const doc = { "a/b": { "m~n": [10, 20] }, "": 1 };
  assert.equal(resolvePointer(doc, "/a~1b/m~0n/1"), 20);
  assert.equal(resolvePointer(doc, "/"), 1);
  assert.equal(resolvePointer(doc, "/a~1b/m~0n/01"), undefined);
  assert.equal(resolvePointer(doc, "/missing"), undefined);
  assert.equal(resolvePointer(doc, ""), doc);
});

test("a relay decoder: where an app's ask, its id, the answer's action and content lie", async () => {
  const { createUnwrapper } = await import("../../../src/capture/envelopes/index.ts");
  const { analyze } = await import("../../../src/engine/index.ts");
  const rule = validateDecoder({
    id: "d2",
    kind: "relay",
    url: "/bus",
    ask: "/form",
    askId: "/ticket",
    action: "/reply/decision",
    content: "/reply/values",
    answerId: "/ticket",
  });
  assert.ok(typeof rule === "object", String(rule));
  const unwrapper = createUnwrapper({ rules: [rule] });
  const frame = (direction: "c2s" | "s2c", json: unknown, time: number) =>
    unwrapper.push({
      kind: "message",
      time,
      transport: "websocket",
      exchange: "w1",
      url: "ws://app.example/bus",
      client: "https://app.example",
      direction,
      stream: "websocket",
      text: JSON.stringify(json),
    });
  // A shape the built-in recognition misses: the schema is a string, the answer has no `action`.
  const ask = frame("s2c", { ticket: "t-9", form: { message: "Which region?", fields: '{"region":"string"}' } }, 1000);
  const answer = frame("c2s", { ticket: "t-9", reply: { decision: "accept", values: { region: "eu" } } }, 1500);
  const noise = frame("s2c", { ticket: "t-9", status: "thinking" }, 1200);
  assert.deepEqual(noise, []);
  assert.deepEqual(
    [...ask, ...answer].map((r) => (r.kind === "message" ? [r.envelope, r.direction, JSON.parse(r.text).id] : [])),
    [
      ["relay:decode:d2", "s2c", "t-9"],
      ["relay:decode:d2", "c2s", "t-9"],
    ],
  );
  assert.equal(unwrapper.counts()["decode:d2"], 2);
  const { flows, problems } = analyze([...ask, ...answer].map((r, seq) => ({ v: 1, seq, ...r }) as never));
  assert.deepEqual(problems, []);
  assert.deepEqual(
    flows.map((f) => [f.kind, f.elicitations[0]!.message, f.elicitations[0]!.action, f.elicitations[0]!.content]),
    [["relay", "Which region?", "accept", { region: "eu" }]],
  );
});

test("relay decoder validation names what is wrong", () => {
  assert.match(String(validateDecoder({ id: "d1", kind: "relay", url: "/x" })), /needs "ask" or "action"/);
  assert.match(
    String(validateDecoder({ id: "d1", kind: "relay", url: "/x", ask: "form" })),
    /"ask" must be a JSON pointer/,
  );
  assert.match(
    String(validateDecoder({ id: "d1", kind: "relay", url: "/x", ask: "/f", pointer: "" })),
    /unknown member "pointer"/,
  );
  assert.match(String(validateDecoder({ id: "d1", kind: "mcp", url: "/x" })), /"kind" must be "relay"/);
});
