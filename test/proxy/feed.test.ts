import assert from "node:assert/strict";
import { request, type IncomingMessage } from "node:http";
import { after, before, test } from "node:test";
import { createParser } from "eventsource-parser";
import { CaptureRecord } from "../../src/capture/record.ts";
import { startProxy, type Proxy } from "../../src/cli/proxy/server.ts";
import type { PeerServer } from "../peers/legacyServer.ts";
import { scenarios, startServer } from "../peers/scenarios.ts";
import { waitFor } from "./helpers.ts";

/** The panel's feed: token or 403, records as SSE with their seq as id, resumption, CORS for extension pages only. */
let server: PeerServer;
let proxy: Proxy;
const scenario = scenarios.find((s) => s.name === "modern-form-accept")!;

before(async () => {
  server = await startServer("modern");
  proxy = await startProxy({ upstreams: [{ name: "mcp", url: new URL(server.url) }] });
  await scenario.run(proxy.urls[0]!.url);
});
after(async () => {
  await proxy.close();
  await server.close();
});

const feedUrl = (token?: string, path = "feed"): string => {
  const url = new URL(proxy.feedUrl);
  url.pathname = `/__mcp-elicit/${path}`;
  if (token === undefined) url.search = "";
  else url.searchParams.set("token", token);
  return url.href;
};
const token = (): string => new URL(proxy.feedUrl).searchParams.get("token")!;

function open(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, resolve);
    req.on("error", reject);
    req.end();
  });
}

const bodyOf = async (res: IncomingMessage): Promise<string> => {
  let text = "";
  for await (const chunk of res) text += String(chunk);
  return text;
};

/** Reads feed events until `count` have come (or five seconds pass), then closes the stream. */
async function events(res: IncomingMessage, count: number): Promise<{ id?: string; data: string }[]> {
  const got: { id?: string; data: string }[] = [];
  const parser = createParser({
    onEvent: (e) => void got.push({ ...(e.id !== undefined && { id: e.id }), data: e.data }),
  });
  res.setEncoding("utf8");
  res.on("data", (text: string) => parser.feed(text));
  await waitFor(() => got.length >= count, 5000).catch(() => {});
  res.destroy();
  return got;
}

test("the feed answers 403 with no body to a wrong or missing token, another path, or another method", async () => {
  const right = token();
  for (const [url, method] of [
    [feedUrl("wrong"), "GET"],
    [feedUrl(`${right}x`), "GET"],
    [feedUrl(right.slice(1)), "GET"],
    [feedUrl(undefined), "GET"],
    [feedUrl(right, "records"), "GET"],
    [feedUrl(right, ""), "GET"],
    [feedUrl(right), "POST"],
    [feedUrl(right), "DELETE"],
  ] as const) {
    const res = await open(url, {}, method);
    assert.equal(res.statusCode, 403, `${method} ${url}`);
    assert.equal(await bodyOf(res), "", "no body");
    assert.equal(res.headers["access-control-allow-origin"], undefined);
  }
});

test("with the token: every record from the first on, as SSE with id = seq, then live ones", async () => {
  const records = [...proxy.journal.records()];
  assert.ok(records.length > 5);
  const res = await open(proxy.feedUrl);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers["content-type"], "text/event-stream");
  const got = events(res, records.length + 2);
  // A request while the feed is open: its records (response, end) arrive live.
  await (await fetch(proxy.urls[0]!.url, { method: "DELETE" })).text();
  const all = await got;
  assert.ok(all.length >= records.length + 2, "live records follow the replay");
  all.forEach((event, i) => {
    assert.equal(event.id, String(i));
    const parsed = CaptureRecord.safeParse(JSON.parse(event.data));
    assert.ok(parsed.success);
    assert.equal(parsed.data.seq, i);
    assert.equal(parsed.data.source, "backend");
  });
  assert.deepEqual(JSON.parse(all[0]!.data), JSON.parse(JSON.stringify(records[0])));
});

test("Last-Event-ID resumes after that record", async () => {
  const res = await open(proxy.feedUrl, { "last-event-id": "3" });
  const got = await events(res, proxy.journal.records().length - 4);
  assert.equal(got[0]?.id, "4");
  assert.equal(got.length, proxy.journal.records().length - 4);
});

test("CORS only for extension origins", async () => {
  for (const [origin, allowed] of [
    ["chrome-extension://abcdefghijklmnopabcdefghijklmnop", true],
    ["moz-extension://0b7c3a8e-1f2d-4e5f-8a9b-0c1d2e3f4a5b", true],
    ["https://evil.example", false],
    ["http://127.0.0.1:5173", false],
    ["null", false],
  ] as const) {
    const res = await open(proxy.feedUrl, { origin });
    assert.equal(res.headers["access-control-allow-origin"], allowed ? origin : undefined, origin);
    res.destroy();
    const preflight = await open(
      proxy.feedUrl,
      { origin, "access-control-request-method": "GET", "access-control-request-headers": "last-event-id" },
      "OPTIONS",
    );
    assert.equal(preflight.headers["access-control-allow-origin"], allowed ? origin : undefined);
    preflight.destroy();
  }
});
