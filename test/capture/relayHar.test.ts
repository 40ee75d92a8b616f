import assert from "node:assert/strict";
import { test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { analyze } from "../../src/engine/index.ts";

// A HAR saved in a hosted agent's page holds no MCP: the relayed ask (an AI SDK UI message stream part) and the
// page's answer on the app's own route are kept as the tap keeps them, and the rest of the app's traffic as page
// requests.
const ask = {
  type: "data-elicitation",
  id: "el-1",
  data: {
    state: "pending",
    mode: "form",
    message: "Deploy?",
    requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
  },
};
const stream =
  [{ type: "start" }, { type: "text-delta", id: "t", delta: "hi" }, ask, { type: "finish" }]
    .map((p) => `data: ${JSON.stringify(p)}\n\n`)
    .join("") + "data: [DONE]\n\n";
const entry = (i: number, method: string, url: string, body: string | undefined, mimeType: string, text: string) => ({
  pageref: "page_1",
  startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  time: 50,
  request: {
    method,
    url,
    httpVersion: "HTTP/1.1",
    headers: [],
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: -1,
    ...(body !== undefined && { postData: { mimeType: "application/json", text: body } }),
  },
  response: {
    status: 200,
    statusText: "OK",
    httpVersion: "HTTP/1.1",
    headers: [{ name: "content-type", value: mimeType }],
    cookies: [],
    content: { size: text.length, mimeType, text },
    redirectURL: "",
    headersSize: -1,
    bodySize: -1,
  },
  cache: {},
  timings: { send: 0, wait: 10, receive: 40 },
});
const har = {
  log: {
    version: "1.2",
    creator: { name: "test", version: "1" },
    pages: [{ id: "page_1", startedDateTime: "2026-01-01T00:00:00.000Z", title: "app", pageTimings: {} }],
    entries: [
      entry(0, "GET", "http://127.0.0.1:3000/", undefined, "text/html", "<!doctype html>"),
      entry(1, "POST", "http://127.0.0.1:3000/api/chat", '{"messages":[]}', "text/event-stream", stream),
      entry(
        2,
        "POST",
        "http://127.0.0.1:3000/api/elicit/el-1",
        '{"action":"accept","content":{"confirm":true}}',
        "application/json",
        '{"ok":true}',
      ),
    ],
  },
};

test("a HAR of a hosted agent's page: the relayed ask and answer become relay records, joined as one relay flow", () => {
  const { records, problems } = importHar(JSON.stringify(har), "page.har");
  assert.deepEqual(problems, []);
  const relays = records.filter((r) => r.kind === "message");
  assert.deepEqual(
    relays.map((r) => (r.kind === "message" ? [r.envelope, r.direction, r.entry] : [])),
    [
      ["relay:data-elicitation", "s2c", 1],
      ["relay:json", "c2s", 2],
    ],
  );
  assert.deepEqual(
    records.filter((r) => r.kind !== "message").map((r) => r.kind),
    ["page-request"],
  );
  const { flows } = analyze(records);
  assert.deepEqual(
    flows.map((f) => [f.kind, f.elicitations[0]!.action]),
    [["relay", "accept"]],
  );
});
