import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { feedRules } from "../../src/content/decoders.ts";
import { createDecoderMatcher } from "../../src/page/decoders.ts";
import { connectSummary, hostApiOf, isHostMessageEvent } from "../../src/page/hostApi.ts";

/** The tap's pure parts of issue 9: decode-rule matching, the Inspector v2 paths, and the relay's rule feed. */
describe("decode rules in the tap", () => {
  const matcher = (rules: unknown) => {
    const m = createDecoderMatcher();
    m.set(JSON.stringify(rules));
    return m;
  };

  test("no rules: nothing matches, any() is false", () => {
    const m = createDecoderMatcher();
    assert.equal(m.any(), false);
    assert.equal(m.matches("https://a.example/rpc", "POST"), false);
  });

  test("a pattern without * is a substring; with * it must match the whole URL", () => {
    const m = matcher([{ url: "/bridge/rpc" }]);
    assert.ok(m.matches("https://a.example/bridge/rpc?x=1", "POST"));
    assert.ok(!m.matches("https://a.example/bridge/rp", "POST"));
    const g = matcher([{ url: "https://*.example/*/rpc" }]);
    assert.ok(g.matches("https://api.example/v1/rpc", "GET"));
    assert.ok(!g.matches("https://api.example/v1/rpc?x", "GET"), "anchored at the end");
    assert.ok(!g.matches("http://api.example/v1/rpc", "GET"), "anchored at the start");
    const overlap = matcher([{ url: "ab*ba" }]);
    assert.ok(!overlap.matches("aba", undefined), "prefix and suffix may not share characters");
    assert.ok(overlap.matches("abba", undefined));
    assert.ok(matcher([{ url: "*" }]).matches("anything", undefined));
    const middle = matcher([{ url: "a*b*c" }]);
    assert.ok(middle.matches("a-b-c", undefined));
    assert.ok(!middle.matches("a-c-b", undefined));
  });

  test("a method narrows the rule to requests with it (case-insensitive); none matches every method and frames", () => {
    const m = matcher([{ url: "/rpc", method: "post" }]);
    assert.ok(m.matches("https://a.example/rpc", "POST"));
    assert.ok(!m.matches("https://a.example/rpc", "GET"));
    assert.ok(!m.matches("wss://a.example/rpc", undefined));
    assert.ok(matcher([{ url: "/rpc" }]).matches("wss://a.example/rpc", undefined));
  });

  test("malformed rules are skipped, malformed text leaves the rules as they were, a new set replaces the old", () => {
    const m = matcher([{ url: "" }, { url: 5 }, { url: "/ok", method: 3 }, null, "x", { url: "/good" }]);
    assert.ok(m.matches("https://a/good", "GET"));
    assert.ok(!m.matches("https://a/ok", "GET"));
    m.set("{not json");
    m.set({ not: "a string" });
    assert.ok(m.matches("https://a/good", "GET"));
    m.set("[]");
    assert.equal(m.any(), false);
  });

  test("a getter a page put on Object.prototype is never run", () => {
    let ran = 0;
    Object.defineProperty(Object.prototype, "method", { configurable: true, get: () => void ran++ });
    try {
      const m = matcher([{ url: "/x" }]);
      assert.ok(m.matches("https://a/x", "GET"));
      assert.equal(ran, 0);
    } finally {
      delete (Object.prototype as { method?: unknown }).method;
    }
  });
});

describe("MCP Inspector v2's backend API", () => {
  test("connect and send are POSTs, events a GET, at the end of the path", () => {
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/connect", "POST"), "connect");
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/send", "POST"), "send");
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/events?sessionId=a%2Fb", "GET"), "events");
    assert.equal(hostApiOf("http://127.0.0.1:6274/base/api/mcp/events#x", "GET"), "events");
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/events", "POST"), undefined);
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/connect", "GET"), undefined);
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/auth-state", "POST"), undefined);
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/mcp/sendx", "POST"), undefined);
    assert.equal(hostApiOf("http://127.0.0.1:6274/api/chat", "POST"), undefined);
  });

  test("a connect body keeps the upstream's type, url and command, none of its credentials", () => {
    const body = JSON.stringify({
      config: {
        type: "streamable-http",
        url: "http://127.0.0.1:9/mcp",
        headers: { Authorization: "Bearer SECRET-1" },
        args: ["--key", "SECRET-2"],
        env: { K: "SECRET-3" },
      },
      settings: { headers: { "x-api-key": "SECRET-4" } },
      authState: { oauthTokens: { access_token: "SECRET-5", token_type: "Bearer" } },
    });
    const kept = connectSummary(body)!;
    assert.deepEqual(JSON.parse(kept), { config: { type: "streamable-http", url: "http://127.0.0.1:9/mcp" } });
    assert.doesNotMatch(kept, /SECRET/);
    assert.deepEqual(
      JSON.parse(connectSummary(JSON.stringify({ config: { type: "stdio", command: "node", args: ["s.js"] } }))!),
      { config: { type: "stdio", command: "node" } },
    );
    assert.equal(connectSummary("not json"), undefined);
    assert.equal(connectSummary('{"config":"x"}'), undefined);
  });

  test("of the events stream only message events that carry JSON-RPC are kept", () => {
    const message = JSON.stringify({ type: "message", data: { jsonrpc: "2.0", id: 1, result: {} } });
    assert.ok(isHostMessageEvent({ event: "message", data: message }));
    assert.ok(isHostMessageEvent({ data: message }));
    const fetchRequest = JSON.stringify({
      type: "fetch_request",
      data: { requestHeaders: { authorization: "Bearer x" }, requestBody: '{"jsonrpc":"2.0"}' },
    });
    assert.ok(!isHostMessageEvent({ event: "fetch_request", data: fetchRequest }));
    assert.ok(!isHostMessageEvent({ event: "stdio_log", data: '{"type":"stdio_log","data":{"message":"hi"}}' }));
    assert.ok(!isHostMessageEvent({ event: "message", data: '{"type":"message","data":"plain"}' }));
  });
});

describe("the relay's decode-rule feed (src/content/decoders.ts)", () => {
  const source = (stored: unknown) => {
    let listener: ((value: unknown) => void) | undefined;
    let settle!: (value: unknown) => void;
    const read = new Promise<unknown>((resolve) => (settle = resolve));
    return {
      source: { read: () => read, onChange: (l: (value: unknown) => void) => void (listener = l) },
      settle: () => settle(stored),
      change: (value: unknown) => listener!(value),
    };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test("the stored rules reach the tap as URL patterns and methods only", async () => {
    const s = source({
      rev: 3,
      next: 3,
      rules: [
        { id: "d1", url: "/rpc", method: "POST", pointer: "/rpc", direction: "both" },
        { id: "d2", url: "wss://x/*", pointer: "", direction: "s2c" },
      ],
    });
    const sent: string[] = [];
    feedRules(s.source, (json) => sent.push(json));
    s.settle();
    await tick();
    assert.deepEqual(
      sent.map((t) => JSON.parse(t)),
      [[{ url: "/rpc", method: "POST" }, { url: "wss://x/*" }]],
    );
  });

  test("no rules stored: the tap is told nothing; a change later reaches it", async () => {
    const s = source(undefined);
    const sent: string[] = [];
    feedRules(s.source, (json) => sent.push(json));
    s.settle();
    await tick();
    assert.deepEqual(sent, []);
    s.change({ rev: 1, next: 2, rules: [] });
    assert.deepEqual(sent, []);
    s.change({ rev: 2, next: 2, rules: [{ id: "d1", url: "/a", pointer: "", direction: "both" }] });
    assert.deepEqual(
      sent.map((t) => JSON.parse(t)),
      [[{ url: "/a" }]],
    );
  });

  test("a read that settles after a newer change does not undo it; malformed sets are ignored", async () => {
    const s = source({ rev: 1, next: 2, rules: [{ id: "d1", url: "/old", pointer: "", direction: "both" }] });
    const sent: string[] = [];
    feedRules(s.source, (json) => sent.push(json));
    s.change({ rev: 2, next: 3, rules: [{ id: "d2", url: "/new", pointer: "", direction: "both" }] });
    s.settle();
    await tick();
    s.change({ rev: "3", rules: [] });
    s.change({ rev: 4, rules: "x" });
    s.change(null);
    assert.deepEqual(
      sent.map((t) => JSON.parse(t)),
      [[{ url: "/new" }]],
    );
  });
});
