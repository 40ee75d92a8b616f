// A HAR file of any size for `npm run bench:har`, written as Chromium's recorder writes one (Playwright's
// recordHar, the shape of test/capture/fixtures/*.har: one-space indent, Chromium's request headers, `_resourceType`,
// timings with -1 for what does not apply), of traffic mixed as bench/corpus.ts mixes it: payloads that never
// repeat, four of five messages outside elicitation flows, Streamable HTTP sessions of both eras (2025-11-25 with
// SSE streams and a standalone GET stream, 2026-07-28 with JSON answers and MRTR), and the page's own resources
// beside them. Sessions overlap in time and entries are in start order, as a browser writes them; an answer to
// an elicitation is its own entry, which starts while the stream that asked is still open.
import { closeSync, openSync, writeSync } from "node:fs";
// The same seeded PRNG, words and _meta keys as the engine corpus, so the file is the same on every run.
import { CAPS, prng, PV, WORDS } from "./corpus.ts";
const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";
const APPS = 13;

type Json = Record<string, unknown>;
interface Entry {
  start: number;
  json: Json;
}

export interface HarCorpus {
  bytes: number;
  entries: number;
  /** MCP messages in the file (request bodies, JSON answers, SSE events). */
  messages: number;
  sessions: number;
}

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));
const iso = (ms: number) => new Date(ms).toISOString();
const httpDate = (ms: number) => new Date(ms).toUTCString();

/** Writes the HAR to `path` until it holds at least `targetBytes`; returns what it holds. */
export function writeRealShapedHar(path: string, targetBytes: number, seed = 20261201): HarCorpus {
  const random = prng(seed);
  let counter = 0;
  const phrase = (n = 4) =>
    `${Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ")} ${++counter}`;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  const pages = Array.from({ length: APPS }, (_, i) => ({
    id: `page@${hex(32)}`,
    origin: `https://app${i}.example.com`,
    frame: `frame@${hex(32)}`,
  }));

  const fd = openSync(path, "w");
  let bytes = 0;
  let out = "";
  const write = (text: string, force = false) => {
    out += text;
    if (out.length < 1 << 20 && !force) return;
    bytes += writeSync(fd, out);
    out = "";
  };
  let entries = 0;
  let messages = 0;
  const head = {
    version: "1.2",
    creator: { name: "Playwright", version: "1.65.1" },
    browser: { name: "chromium", version: "156.0.8078.114" },
    pages: pages.map((p, i) => ({
      startedDateTime: iso(1_800_000_000_000 + i),
      id: p.id,
      title: p.origin,
      pageTimings: { onContentLoad: 812, onLoad: 840 },
    })),
  };
  write(`{\n "log": ${JSON.stringify(head, null, 1).replace(/\n/g, "\n ").replace(/\n }$/, ',\n  "entries": [')}`);
  const writeEntry = (json: Json) => {
    write(`${entries++ === 0 ? "" : ","}\n   ${JSON.stringify(json, null, 1).replace(/\n/g, "\n   ")}`);
  };

  let monotonic = 10_000;
  /** One exchange as Chromium records it. */
  const exchange = (o: {
    page: (typeof pages)[number];
    start: number;
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: string;
    status: number;
    mime: string;
    responseHeaders?: Record<string, string>;
    text?: string;
    encoding?: string;
    wait: number;
    receive: number;
    resourceType?: string;
    failure?: string;
  }): Entry => {
    const url = new URL(o.url);
    const requestHeaders = {
      Accept: o.body !== undefined ? "application/json, text/event-stream" : "*/*",
      "Accept-Encoding": "gzip, deflate, br, zstd",
      "Accept-Language": "en-US,en;q=0.9",
      Connection: "keep-alive",
      ...(o.body !== undefined && {
        "Content-Length": String(Buffer.byteLength(o.body)),
        "Content-Type": "application/json",
      }),
      Host: url.host,
      Origin: o.page.origin,
      Referer: `${o.page.origin}/`,
      "Sec-Fetch-Dest": "empty",
      "Sec-Fetch-Mode": "cors",
      "Sec-Fetch-Site": "cross-site",
      "User-Agent": UA,
      "sec-ch-ua": '"Not:A-Brand";v="8", "Chromium";v="156"',
      "sec-ch-ua-mobile": "?0",
      "sec-ch-ua-platform": '"Linux"',
      ...o.headers,
    };
    const size = o.text === undefined ? -1 : Buffer.byteLength(o.text);
    const json: Json = {
      pageref: o.page.id,
      startedDateTime: iso(o.start),
      time: o.wait + Math.max(0, o.receive),
      request: {
        method: o.method,
        url: o.url,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs(requestHeaders),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: o.body === undefined ? 0 : Buffer.byteLength(o.body),
        ...(o.body !== undefined && { postData: { mimeType: "application/json", text: o.body, params: [] } }),
      },
      response: {
        status: o.status,
        statusText: o.status === 200 ? "OK" : o.status === 202 ? "Accepted" : "",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs({
          Connection: "keep-alive",
          Date: httpDate(o.start),
          "access-control-allow-origin": o.page.origin,
          "content-type": o.mime,
          ...o.responseHeaders,
        }),
        content: {
          size,
          mimeType: o.mime,
          ...(o.text !== undefined && { compression: 0, text: o.text }),
          ...(o.encoding !== undefined && { encoding: o.encoding }),
        },
        headersSize: -1,
        bodySize: size,
        redirectURL: "",
        _transferSize: size < 0 ? -1 : size + 220,
        ...(o.failure !== undefined && { _failureText: o.failure }),
      },
      cache: {},
      timings: { dns: -1, connect: -1, ssl: -1, send: 0, wait: o.wait, receive: o.receive },
      _frameref: o.page.frame,
      _monotonicTime: (monotonic += 1 + random() * 50),
      _resourceType: o.resourceType ?? "fetch",
      serverIPAddress: "203.0.113.7",
      _serverPort: 443,
    };
    return { start: o.start, json };
  };

  /** A page load: the document, its script, style sheet, logo and a config fetch (no MCP in any). */
  const pageLoad = (page: (typeof pages)[number], at: number): Entry[] => {
    const script = Array.from(
      { length: 300 },
      () =>
        `export function ${phrase(1).replace(/ /g, "_")}(a, b) { return a ${random() < 0.5 ? "+" : "*"} b; /* ${phrase(6)} */ }`,
    ).join("\n");
    const style = Array.from(
      { length: 80 },
      () => `.${phrase(1).replace(/ /g, "-")} { color: #${hex(6)}; margin: ${Math.floor(random() * 20)}px; }`,
    ).join("\n");
    const logo = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256))).toString("base64");
    const doc = `<!doctype html><html><head><title>${phrase(3)}</title><link rel="stylesheet" href="/app.css"></head><body><main>${phrase(40)}</main><script type="module" src="/app.js"></script></body></html>`;
    const o = page.origin;
    return [
      exchange({
        page,
        start: at,
        method: "GET",
        url: `${o}/`,
        status: 200,
        mime: "text/html",
        text: doc,
        wait: 30,
        receive: 2,
        resourceType: "document",
      }),
      exchange({
        page,
        start: at + 40,
        method: "GET",
        url: `${o}/app.css`,
        status: 200,
        mime: "text/css",
        text: style,
        wait: 12,
        receive: 1,
        resourceType: "stylesheet",
      }),
      exchange({
        page,
        start: at + 41,
        method: "GET",
        url: `${o}/app.js`,
        status: 200,
        mime: "text/javascript",
        text: script,
        wait: 15,
        receive: 4,
        resourceType: "script",
      }),
      exchange({
        page,
        start: at + 80,
        method: "GET",
        url: `${o}/logo.png`,
        status: 200,
        mime: "image/png",
        text: logo,
        encoding: "base64",
        wait: 9,
        receive: 1,
        resourceType: "image",
      }),
      exchange({
        page,
        start: at + 95,
        method: "GET",
        url: `${o}/api/config?v=${counter}`,
        status: 200,
        mime: "application/json",
        text: JSON.stringify({ theme: phrase(1), features: [phrase(2), phrase(2)] }),
        wait: 20,
        receive: 1,
      }),
    ];
  };

  const sseBody = (events: unknown[]) => events.map((e) => `event: message\ndata: ${JSON.stringify(e)}\n\n`).join("");

  /** One session of one client with one server, from `at`: its entries, in no particular order. */
  const session = (n: number, at: number): Entry[] => {
    const modern = n % 2 === 1;
    const page = pages[n % APPS]!;
    const url = `https://mcp${n % 7}.example.com/mcp`;
    const sid = `session-${n}-${Math.floor(random() * 1e9)}`;
    const auth = { Authorization: `Bearer ${hex(40)}` };
    const legacy = { ...auth, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    const list: Entry[] = n % 4 === 0 ? pageLoad(page, at) : [];
    let clock = at + (list.length ? 150 : 0);
    let id = 0;
    const step = () => (clock += 5 + random() * 45);
    const json = (
      body: unknown,
      answer: unknown,
      headers: Record<string, string>,
      responseHeaders: Record<string, string> = {},
    ) => {
      const wait = 5 + random() * 35;
      list.push(
        exchange({
          page,
          start: clock,
          method: "POST",
          url,
          headers,
          body: JSON.stringify(body),
          status: 200,
          mime: "application/json",
          responseHeaders,
          text: JSON.stringify(answer),
          wait,
          receive: 1 + random(),
        }),
      );
      messages += 2;
      clock += wait + 2;
      step();
    };
    const accepted = (body: unknown, headers: Record<string, string>, start = clock) => {
      list.push(
        exchange({
          page,
          start,
          method: "POST",
          url,
          headers,
          body: JSON.stringify(body),
          status: 202,
          mime: "text/plain",
          text: "",
          wait: 2 + random() * 6,
          receive: 0.2,
        }),
      );
      messages++;
    };
    const stream = (body: unknown, events: unknown[], duration: number, headers: Record<string, string>) => {
      const wait = 3 + random() * 10;
      list.push(
        exchange({
          page,
          start: clock,
          method: "POST",
          url,
          headers,
          body: JSON.stringify(body),
          status: 200,
          mime: "text/event-stream",
          responseHeaders: { "cache-control": "no-cache", "mcp-session-id": sid },
          text: sseBody(events),
          wait,
          receive: duration,
        }),
      );
      messages += 1 + events.length;
      const started = clock;
      clock += wait + duration;
      step();
      return started + wait;
    };
    const meta = { [PV]: "2026-07-28", [CAPS]: { elicitation: { form: {} } } };
    const mh = (method: string, name?: string) => ({
      ...auth,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    });

    let getStream: { start: number; events: unknown[] } | undefined;
    if (!modern) {
      json(
        {
          jsonrpc: "2.0",
          id: id++,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: { form: {} } },
            clientInfo: { name: phrase(1), version: "1.0" },
          },
        },
        {
          jsonrpc: "2.0",
          id: id - 1,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: { listChanged: true }, logging: {} },
            serverInfo: { name: phrase(1), version: "1.0" },
          },
        },
        auth,
        { "mcp-session-id": sid },
      );
      accepted({ jsonrpc: "2.0", method: "notifications/initialized" }, legacy);
      step();
      // The standalone GET stream, open for the whole session; one in three ends before the HAR is saved (the
      // server closed it), and only those keep their body.
      getStream = {
        start: clock,
        events:
          random() < 1 / 3
            ? [
                {
                  jsonrpc: "2.0",
                  method: "notifications/message",
                  params: { level: "info", logger: "server", data: phrase(6) },
                },
                { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
              ]
            : [],
      };
      step();
    }
    const calls = 6 + Math.floor(random() * 6);
    const listId = id++;
    const tools = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
      name: phrase(1).replace(/ /g, "_"),
      description: phrase(8),
      inputSchema: { type: "object", properties: { q: { type: "string", description: phrase(3) } } },
    }));
    json(
      { jsonrpc: "2.0", id: listId, method: "tools/list", params: modern ? { _meta: meta } : {} },
      { jsonrpc: "2.0", id: listId, result: { tools, ...(modern ? { resultType: "complete" } : {}) } },
      modern ? mh("tools/list") : legacy,
    );
    for (let c = 0; c < calls; c++) {
      const tool = tools[Math.floor(random() * tools.length)]!.name;
      const callId = id++;
      const args = { q: phrase(5), limit: Math.floor(random() * 100) };
      if (random() >= 0.2) {
        const content = [{ type: "text", text: phrase(12) }];
        if (modern)
          json(
            { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: args, _meta: meta } },
            { jsonrpc: "2.0", id: callId, result: { resultType: "complete", content } },
            mh("tools/call", tool),
          );
        else {
          const token = `p${counter}`;
          const events = [
            ...[1, 2].map((p) => ({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token, progress: p, total: 3, message: phrase(3) },
            })),
            {
              jsonrpc: "2.0",
              method: "notifications/message",
              params: { level: "info", logger: "tools", data: phrase(6) },
            },
            { jsonrpc: "2.0", id: callId, result: { content } },
          ];
          stream(
            {
              jsonrpc: "2.0",
              id: callId,
              method: "tools/call",
              params: { name: tool, arguments: args, _meta: { progressToken: token } },
            },
            events,
            40 + random() * 300,
            legacy,
          );
        }
        continue;
      }
      const field = phrase(1).replace(/ /g, "_");
      const schema = {
        type: "object",
        properties: {
          [field]: { type: "string", title: phrase(2), description: phrase(6) },
          count: { type: "integer", minimum: 1, maximum: 9 },
        },
        required: [field],
      };
      const question = { message: `${phrase(6)}?`, requestedSchema: schema };
      const answer = { action: "accept", content: { [field]: phrase(2), count: 1 + Math.floor(random() * 9) } };
      const think = 800 + random() * 4000;
      if (modern) {
        const state = `state-${phrase(1)}-${Math.floor(random() * 1e9)}`;
        const key = `ask_${counter}`;
        json(
          { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: args, _meta: meta } },
          {
            jsonrpc: "2.0",
            id: callId,
            result: {
              resultType: "input_required",
              inputRequests: { [key]: { method: "elicitation/create", params: question } },
              requestState: state,
            },
          },
          mh("tools/call", tool),
        );
        clock += think;
        const retryId = id++;
        json(
          {
            jsonrpc: "2.0",
            id: retryId,
            method: "tools/call",
            params: {
              name: tool,
              arguments: args,
              inputResponses: { [key]: answer },
              requestState: state,
              _meta: meta,
            },
          },
          {
            jsonrpc: "2.0",
            id: retryId,
            result: { resultType: "complete", content: [{ type: "text", text: phrase(10) }] },
          },
          mh("tools/call", tool),
        );
      } else {
        // The question on the call's stream; the answer a POST of its own while the stream is open; then the result.
        const askId = 1000 + callId;
        const events = [
          { jsonrpc: "2.0", id: askId, method: "elicitation/create", params: question },
          { jsonrpc: "2.0", id: callId, result: { content: [{ type: "text", text: phrase(10) }] } },
        ];
        const head = stream(
          { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: args } },
          events,
          think + 60,
          legacy,
        );
        accepted({ jsonrpc: "2.0", id: askId, result: answer }, legacy, head + think);
      }
    }
    if (getStream) {
      const end = clock;
      const open = {
        page,
        start: getStream.start,
        method: "GET",
        url,
        headers: legacy,
        status: 200,
        mime: "text/event-stream",
        responseHeaders: { "cache-control": "no-cache", "mcp-session-id": sid },
        wait: 4,
        receive: end - getStream.start - 4,
      };
      list.push(
        getStream.events.length
          ? exchange({ ...open, text: sseBody(getStream.events) })
          : exchange({ ...open, receive: -1 }),
      );
      messages += getStream.events.length;
      list.push(
        exchange({
          page,
          start: clock,
          method: "DELETE",
          url,
          headers: legacy,
          status: 200,
          mime: "text/plain",
          text: "",
          wait: 3,
          receive: 0.2,
        }),
      );
      step();
    }
    return list;
  };

  // Sessions start 2–4 s apart and last longer, so several are open at once; entries are written in start order.
  let pending: Entry[] = [];
  let at = 1_800_000_000_000;
  let sessions = 0;
  while (bytes + out.length < targetBytes) {
    pending.push(...session(sessions++, at));
    pending.sort((a, b) => a.start - b.start);
    const ready = pending.findIndex((e) => e.start >= at);
    for (const e of ready < 0 ? pending : pending.slice(0, ready)) writeEntry(e.json);
    pending = ready < 0 ? [] : pending.slice(ready);
    at += 2000 + random() * 2000;
  }
  for (const e of pending) writeEntry(e.json);
  write("\n  ]\n }\n}\n", true);
  closeSync(fd);
  return { bytes, entries, messages, sessions };
}
