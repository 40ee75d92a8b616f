import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Draft } from "../../../src/capture/envelopes/index.ts";
import { importHar } from "../../../src/capture/har/import.ts";
import { exportHar } from "../../../src/capture/har/export.ts";
import { exportJsonl, importJsonl } from "../../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../../src/capture/record.ts";
import { redactRecords } from "../../../src/capture/redact.ts";
import { analyze, type Flow } from "../../../src/engine/index.ts";
import { AGENT_RULE, agentHar, inspectorSession, mcpBTab, proxySessions, store } from "./fixtures.ts";

/**
 * HAR and JSONL with envelopes. The two HARs of test/capture/fixtures are real traffic, recorded by
 * scripts/record-inspector-har.ts: the real MCP Inspector v2 (2.12.0) web UI in Chromium, Playwright's HAR
 * recorder, the real 2025-11-25 SDK peer; confirm_action called twice, accepted in the inspector's own dialog,
 * then declined, then disconnected. "aborted" is the file as recorded (the events stream has no body: it was cut
 * by the disconnect); "complete" has that entry's body filled in with the bytes Chromium received on it.
 */
const fixture = (name: string): string => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
/** What the flow list shows of a flow (ids and times aside: a HAR has fewer times than a live capture). */
const summary = (flows: readonly Flow[]) =>
  flows.map((f) => ({
    kind: f.kind,
    method: f.method,
    target: f.target,
    status: f.status,
    server: f.server,
    via: f.via,
    envelope: f.envelope,
    session: f.session,
    rounds: f.rounds.length,
    answers: f.elicitations.map((e) => [e.mode, e.action]),
  }));
const raw = (drafts: readonly Draft[]): CaptureRecord[] =>
  drafts.map((d, seq) => ({ ...d, v: 1, seq }) as CaptureRecord);

test("a real Inspector v2 HAR whose events stream is in the file: its two flows on the upstream, via the backend, no findings", () => {
  const text = fixture("inspector-v2-complete.har");
  const { records, problems } = importHar(text, "inspector.har");
  assert.deepEqual(problems, []);
  const upstream = JSON.parse(text).log.entries.find((e: { request: { url: string } }) =>
    e.request.url.endsWith("/api/mcp/connect"),
  ).request.postData.text;
  const server = JSON.parse(upstream).config.url as string;
  const r = analyze(records);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(
    r.findings.map((f) => f.rule),
    [],
  );
  assert.deepEqual(
    summary(r.flows).map((f) => [f.method, f.target, f.status, f.server, f.envelope, f.answers]),
    [
      ["tools/call", "confirm_action", "complete", server, "inspector-v2", [["form", "accept"]]],
      ["tools/call", "confirm_action", "complete", server, "inspector-v2", [["form", "decline"]]],
    ],
  );
  assert.match(r.flows[0]!.via!, /^http:\/\/127\.0\.0\.1:\d+\/api\/mcp$/);
  // Only MCP messages and the page's other requests: the wrappers, {ok:true} answers and backend reports are gone.
  const messages = records.filter((m) => m.kind === "message");
  assert.ok(
    messages.every((m) => m.kind === "message" && m.stream === "envelope" && JSON.parse(m.text).jsonrpc === "2.0"),
  );
  assert.equal(messages.length, 13);
  assert.ok(!records.some((x) => x.kind === "response" || x.kind === "end"));
  assert.ok(
    !JSON.stringify(records).includes("fixture-token-not-a-secret"),
    "the backend's auth token is not in any record",
  );
});

test("a real Inspector v2 HAR saved with the events stream cut (as recorded): the loss is said; no half-checked findings", () => {
  const { records, problems } = importHar(fixture("inspector-v2-aborted.har"), "inspector.har");
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!.message,
    /MCP Inspector v2 session [0-9a-f-]{36}: the HAR holds no body of its events stream .* its 7 client messages are left out/,
  );
  const r = analyze(records);
  assert.deepEqual(
    [r.flows.length, r.findings.length, r.problems.length],
    [0, 0, 0],
    "an answer to an elicitation the file does not hold is not a client error",
  );
});

test("a HAR of an Inspector v2 session lints to the same flows as the live capture of it", () => {
  // The page's raw traffic (what a browser's HAR holds), written as a HAR, against the same traffic through the
  // worker's envelope stage (what the live capture stores).
  const { records: drafts } = inspectorSession();
  const live = analyze(store(drafts));
  const har = importHar(exportHar(raw(drafts)), "page.har");
  assert.deepEqual(har.problems, []);
  const imported = analyze(har.records);
  assert.deepEqual(summary(imported.flows), summary(live.flows));
  assert.deepEqual(
    imported.findings.map((f) => f.rule),
    live.findings.map((f) => f.rule),
  );
  assert.equal(live.flows.length, 1);
});

test("enveloped captures round-trip: HAR export → import and JSONL export → import give the same records and flows", () => {
  for (const [name, drafts] of [
    ["inspector v2", inspectorSession().records],
    ["proxy", proxySessions()],
    ["mcp-b", mcpBTab()],
  ] as const) {
    const records = store(drafts);
    const viaHar = importHar(exportHar(records), `${name}.har`);
    assert.deepEqual(viaHar.problems, [], name);
    if (name === "proxy") {
      // Proxied traffic is real Streamable HTTP: HAR entries again (exchange names and entry numbers are the
      // importer's), stamped again from their URLs.
      const stamps = (rs: readonly CaptureRecord[]) =>
        rs.flatMap((r) =>
          r.kind === "message"
            ? [[r.direction, r.stream, r.text, r.server, r.via, r.upstreamTransport, r.envelope]]
            : [],
        );
      assert.deepEqual(stamps(viaHar.records), stamps(records));
    } else assert.deepEqual(viaHar.records, records, `${name}: carried verbatim in log._mcpRecords`);
    const viaJsonl = importJsonl(exportJsonl(records), `${name}.jsonl`);
    assert.deepEqual(viaJsonl, { records, problems: [] }, name);
    assert.deepEqual(summary(analyze(viaHar.records).flows), summary(analyze(records).flows), name);
  }
});

test("a JSONL capture still in its envelopes is unwrapped on import, keeping each line's seq", () => {
  const { records: drafts } = inspectorSession();
  const { records, problems } = importJsonl(exportJsonl(raw(drafts)), "raw.jsonl");
  assert.deepEqual(problems, []);
  assert.deepEqual(
    records,
    store(drafts).map((r, i) => ({ ...r, seq: records[i]!.seq })),
  );
  assert.ok(records.every((r, i) => i === 0 || r.seq > records[i - 1]!.seq));
  assert.deepEqual(summary(analyze(records).flows), summary(analyze(store(drafts)).flows));
});

test("redaction of enveloped records: the upstream's credentials go, the flows stay", () => {
  const { records: drafts } = inspectorSession({
    upstream: "https://mcp.example/mcp?token=sk-live-abcdefghijklmnop1234",
  });
  const records = store(drafts);
  const redacted = redactRecords(records);
  assert.ok(!JSON.stringify(redacted).includes("sk-live-abcdefghijklmnop1234"));
  assert.ok(redacted.every((r) => r.kind !== "message" || r.server === "https://mcp.example/mcp?token=[REDACTED]"));
  assert.deepEqual(summary(analyze(redacted).flows), summary(analyze(records).flows));
  assert.equal(analyze(redacted).flows[0]!.elicitations[0]!.action, "accept");
});

test("importHar with a decode rule: a host the built-in adapters do not know", () => {
  const har = agentHar();
  assert.equal(analyze(importHar(har, "agent.har").records).flows.length, 0, "no built-in adapter knows it");
  const { records, problems } = importHar(har, "agent.har", { rules: [AGENT_RULE] });
  assert.deepEqual(problems, []);
  const r = analyze(records);
  assert.deepEqual(
    r.flows.map((f) => [f.method, f.status, f.envelope, f.elicitations[0]?.action]),
    [["tools/call", "complete", "decode:agent", "accept"]],
  );
});
