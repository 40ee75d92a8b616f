import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { chromium, type Page } from "playwright-core";
import { importHar } from "../../src/capture/har/import.ts";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { startLegacyServer } from "../peers/legacyServer.ts";
import { startModernServer } from "../peers/modernServer.ts";

/**
 * The HAR importer on a HAR written by Chromium (through Playwright's recorder): a page on 127.0.0.1 runs the
 * real SDK clients, bundled for the browser, against the real SDK servers. The page and both servers share one
 * origin through a small proxy, so no CORS is involved and the page's Authorization header and cookie go out
 * as they would to a same-origin MCP endpoint.
 */
const AUTHORIZATION = "Bearer chromium-har-DO-NOT-LEAK-7731";
const COOKIE_VALUE = "cookie-DO-NOT-LEAK-5150";

interface Front {
  origin: string;
  close(): Promise<void>;
}

/** Serves the page and forwards /legacy/* and /modern/* to the servers' /mcp, streaming (SSE) as it arrives. */
async function startFront(script: string, upstreams: Record<string, string>): Promise<Front> {
  const html = `<!doctype html><meta charset="utf-8"><title>MCP page</title><script src="/page.js"></script>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/") return void res.writeHead(200, { "content-type": "text/html" }).end(html);
    if (url.pathname === "/page.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    const upstream = upstreams[url.pathname.split("/")[1] ?? ""];
    if (!upstream) return void res.writeHead(404).end();
    const target = new URL(upstream);
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + url.search,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    res.on("close", () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Json = Record<string, unknown>;
const parse = (text: string): Json | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
};
const messages = (records: CaptureRecord[]): (MessageRecord & { json: Json })[] =>
  records.flatMap((r) => (r.kind === "message" ? [{ ...r, json: parse(r.text) ?? {} }] : []));

/**
 * Runs `run` in a page of Chromium recording a HAR (Playwright's recorder, content embedded), the page served by
 * the front with the real SDK servers of both eras behind it; returns the HAR's text and what `run` returned.
 */
async function recordHar<T>(
  t: { after(fn: () => Promise<void>): void },
  run: (page: Page) => Promise<T>,
): Promise<{ harText: string; outcome: T }> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-har-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const harPath = join(dir, "capture.har");
  const legacy = await startLegacyServer();
  const modern = await startModernServer();
  const bundle = await esbuild.build({
    entryPoints: [new URL("./chromiumPage.ts", import.meta.url).pathname],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  const front = await startFront(bundle.outputFiles[0]!.text, { legacy: legacy.url, modern: modern.url });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  let outcome: T;
  try {
    const context = await browser.newContext({ recordHar: { path: harPath, content: "embed" } });
    const page = await context.newPage();
    await page.goto(`${front.origin}/`);
    outcome = await run(page);
    await context.close();
  } finally {
    await browser.close();
    await front.close();
    await legacy.close();
    await modern.close();
  }
  return { harText: await readFile(harPath, "utf8"), outcome };
}

test("a HAR saved by Chromium: SSE elicitation, 202 answer, input_required rounds with requestState", {
  timeout: 120_000,
}, async (t) => {
  const { harText, outcome } = await recordHar(t, (page) =>
    page.evaluate(
      async ([authorization, cookie]) => {
        document.cookie = `session=${cookie}; path=/`;
        const g = globalThis as unknown as Record<string, (url: string, authorization: string) => Promise<unknown>>;
        return {
          legacy: await g.runLegacy!("/legacy/mcp", authorization),
          modern: await g.runModern!("/modern/mcp", authorization),
        };
      },
      [AUTHORIZATION, COOKIE_VALUE] as const,
    ),
  );
  // KEEP_HAR=<path> keeps a copy for a look at what Chromium wrote.
  if (process.env.KEEP_HAR) await writeFile(process.env.KEEP_HAR, harText);

  // The SDK clients really finished both flows.
  assert.match(JSON.stringify(outcome.legacy), /confirm: accept/);
  assert.match(JSON.stringify(outcome.modern), /trip: Lisbon for accept/);
  // The HAR itself holds the secrets (so the assertions below mean something).
  assert.ok(harText.includes(AUTHORIZATION) && harText.includes(COOKIE_VALUE));

  const { records, problems } = importHar(harText, "chromium.har");
  const entries = (JSON.parse(harText) as { log: { entries: Json[] } }).log.entries;
  assert.deepEqual(problems, []);
  // Streamed from the first entry on (as a HAR past the import's window is): the same records in the same order.
  assert.deepEqual(importHar(harText, "chromium.har", { window: 0 }), { records, problems });
  // The GET stream ends one of two ways: the server closes it on DELETE (an empty body), or the client aborts it
  // first, and then the HAR keeps none of its body (Playwright keeps no body for an unfinished request).
  const getStream = entries.findIndex(
    (e) => (e.request as Json).method === "GET" && String((e.request as Json).url).includes("/legacy/"),
  );
  const streamEnd = records.find((r) => r.entry === getStream && r.kind === "end");
  assert.ok(streamEnd?.kind === "end" && (streamEnd.error === undefined || streamEnd.error === "abort"));
  // Pages and scripts are not MCP: each is one page-request record (method, origin and path), nothing more.
  assert.ok(!records.some((r) => r.kind !== "page-request" && (r.url?.endsWith("/") || r.url?.endsWith("/page.js"))));
  const script = records.find((r) => r.kind === "page-request" && r.url?.endsWith("/page.js"));
  assert.ok(
    script?.kind === "page-request" && script.method === "GET" && entries[script.entry!] !== undefined,
    JSON.stringify(script),
  );
  const all = messages(records);

  // Entry indexes point at the HAR entries the records came from.
  for (const m of all) {
    const entry = entries[m.entry!]!;
    assert.equal(m.exchange, `har:${m.entry}`);
    assert.equal(m.url, (entry.request as Json).url);
    const source =
      m.direction === "c2s"
        ? ((entry.request as Json).postData as Json).text
        : ((entry.response as Json).content as Json).text;
    assert.ok(typeof source === "string" && source.includes(m.text), `message ${m.seq} is in entry ${m.entry}`);
  }
  for (let i = 1; i < records.length; i++) assert.ok(records[i]!.time >= records[i - 1]!.time, "records in time order");

  // 2025-11-25: elicitation/create as an SSE event on the tools/call POST stream, answered by a POST that gets 202.
  const legacyCall = all.find(
    (m) => m.url?.includes("/legacy/") && m.direction === "c2s" && m.json.method === "tools/call",
  )!;
  assert.ok(legacyCall, "the legacy tools/call");
  const ask = all.find((m) => m.json.method === "elicitation/create")!;
  assert.ok(ask, "the elicitation/create event");
  assert.equal(ask.stream, "post-sse");
  assert.equal(ask.direction, "s2c");
  assert.equal(ask.entry, legacyCall.entry, "on the tools/call's own stream");
  assert.equal(typeof ask.eventId, "string", "the event store gives SSE ids");
  const reply = all.find((m) => m.direction === "c2s" && m.json.id === ask.json.id && "result" in m.json)!;
  assert.ok(reply, "the answer POST");
  assert.deepEqual((reply.json.result as Json).action, "accept");
  const accepted = records.find((r) => r.kind === "response" && r.exchange === reply.exchange);
  assert.equal(accepted?.kind === "response" && accepted.status, 202);
  assert.equal(accepted?.kind === "response" && accepted.emptyBody, true);
  // Chromium logs net::ERR_ABORTED for the 202 whose empty body the SDK cancels; that is no failed exchange.
  assert.equal((entries[reply.entry!]!.response as Json)._failureText, "net::ERR_ABORTED");
  const replyEnd = records.find((r) => r.kind === "end" && r.exchange === reply.exchange);
  assert.ok(replyEnd?.kind === "end" && replyEnd.error === undefined);
  const legacyResult = all.find(
    (m) => m.entry === legacyCall.entry && m.direction === "s2c" && m.json.id === legacyCall.json.id,
  )!;
  assert.ok(legacyResult.seq > ask.seq && legacyResult.seq > reply.seq, "ask, answer, result in that order");

  // 2026-07-28: input_required twice, each retry echoing the requestState it was given.
  const rounds = all.filter(
    (m) => m.url?.includes("/modern/") && m.direction === "c2s" && m.json.method === "tools/call",
  );
  assert.equal(rounds.length, 3);
  const results = rounds.map((round) => all.find((m) => m.entry === round.entry && m.direction === "s2c")!);
  const [first, second] = results.map((r) => r.json.result as Json);
  assert.equal(first?.resultType, "input_required");
  assert.equal(second?.resultType, "input_required");
  assert.equal(typeof first?.requestState, "string");
  assert.equal((rounds[1]!.json.params as Json).requestState, first?.requestState);
  assert.equal((rounds[2]!.json.params as Json).requestState, second?.requestState);
  assert.ok("inputResponses" in (rounds[1]!.json.params as Json));
  assert.notEqual((results[2]!.json.result as Json).resultType, "input_required");

  // Nothing secret crossed over.
  const serialized = JSON.stringify(records);
  assert.ok(!serialized.includes("DO-NOT-LEAK"));
  assert.ok(!/authorization|cookie/i.test(serialized));
});

test("a HAR saved by Chromium: the page fetches a URL-mode elicitation's URL before it accepts (url-no-prefetch), and opens the next one only after", {
  timeout: 120_000,
}, async (t) => {
  const { harText, outcome } = await recordHar(t, (page) =>
    page.evaluate(async (authorization) => {
      const g = globalThis as unknown as Record<string, (url: string, authorization: string) => Promise<unknown>>;
      return g.runLegacyUrl!("/legacy/mcp", authorization);
    }, AUTHORIZATION),
  );
  // Both sign-ins finished: the server saw each URL visited.
  assert.match(JSON.stringify(outcome), /sign-in: linked.*sign-in: linked/);
  const { records, problems } = importHar(harText, "chromium-url.har");
  assert.deepEqual(problems, []);
  const entries = (JSON.parse(harText) as { log: { entries: Json[] } }).log.entries;
  const visits = entries.flatMap((e, i) => (String((e.request as Json).url).includes("/consent/") ? [i] : []));
  assert.equal(visits.length, 2, "two consent-page visits in the HAR");
  const asks = messages(records).filter((m) => m.json.method === "elicitation/create");
  assert.equal(asks.length, 2);

  const report = analyze(records);
  const signIns = report.flows.filter((f) => f.elicitations.some((e) => e.mode === "url"));
  assert.equal(signIns.length, 2);
  const prefetch = report.findings.filter((f) => f.rule === "url-no-prefetch");
  // One finding: the first sign-in's URL, fetched before the accept; its evidence is that HAR entry.
  assert.equal(prefetch.length, 1, JSON.stringify(prefetch));
  assert.equal(prefetch[0]!.flow, signIns[0]!.id);
  assert.equal(prefetch[0]!.entry, visits[0]);
  assert.equal(prefetch[0]!.severity, "error");
  assert.equal(prefetch[0]!.violator, "client");
});
