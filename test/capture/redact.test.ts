import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";
import { REDACTED, redactRecords, redactText, redactUrl } from "../../src/capture/redact.ts";
import { analyze, type Flow } from "../../src/engine/index.ts";
import {
  captureBuilder,
  done,
  legacySession,
  legacyToolCall,
  modernHeaders,
  request,
  result,
  streamCall,
  toolCall,
} from "../helpers/capture.ts";

// Redaction for sharing a capture: none of the planted secrets survives an export, and the flows stay the same.

const b64url = (s: string): string => Buffer.from(s).toString("base64url");
const jwt = (subject: string): string =>
  `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify({ sub: subject }))}.c2lnUExBTlRFRA`;

const S = {
  user: "PLANTEDuser",
  pass: "PLANTEDpass",
  accessToken: "PLANTEDaccesstoken0123456789",
  bearer: "PLANTED-bearer-0042",
  cookie: "PLANTED-cookie-sid",
  apiKey: "sk-proj-PLANTEDapikey0123456789abcd",
  typedPassword: "hunter2-PLANTED-typed",
  defaultPassword: "PLANTED-default-password",
  jwt: jwt("PLANTED-jwt-in-a-field"),
  card: "4111 1111 1111 1111",
  urlToken: "PLANTEDurltoken0123456789",
  amzCredential: "AKIAPLANTED123456789",
  amzSignature: "PLANTEDamzsignature0123456789abcdef",
  github: "ghp_PLANTEDgithubtoken0123456789abcdef",
  pem: "MIIEvPLANTEDprivatekeybody",
  notJson: "ghp_PLANTEDinbrokenjson0123456789abcd",
  mrtrToken: "PLANTED-mrtr-token-value",
  state1: jwt("PLANTED-state-one"),
  state2: jwt("PLANTED-state-two"),
  frontPassword: "PLANTED-frontmcp-password",
};
const planted = Object.values(S);

const ENDPOINT = `http://${S.user}:${S.pass}@127.0.0.1:3000/mcp?access_token=${S.accessToken}`;

/** Both eras and FrontMCP's fallback tool, each with secrets where a real capture could hold them. */
function plantedCapture(): CaptureRecord[] {
  const b = captureBuilder(ENDPOINT, "https://app.example.com");
  const h = legacySession(b);
  // 2025-11-25 form: an API key and a password typed in, a JWT and a card number in free-text fields.
  const form = {
    mode: "form",
    message: "Connect your account",
    requestedSchema: {
      type: "object",
      properties: {
        apiKey: { type: "string", title: "API key" },
        password: { type: "string", format: "password", default: S.defaultPassword },
        reference: { type: "string", title: "Reference" },
        notes: { type: "string", title: "Notes" },
        count: { type: "integer", default: 3 },
      },
    },
  };
  const x = streamCall(b, legacyToolCall(1, "connect", {}), {
    ...h,
    authorization: `Bearer ${S.bearer}`,
    cookie: `sid=${S.cookie}`,
  } as never);
  b.sse(x, request(0, "elicitation/create", form));
  b.accepted(
    result(0, {
      action: "accept",
      content: {
        apiKey: S.apiKey,
        password: S.typedPassword,
        reference: S.jwt,
        notes: `Card ${S.card}, thanks`,
        count: 3,
      },
    }),
    h,
  );
  b.sse(
    x,
    result(1, {
      content: [
        {
          type: "text",
          text: `Connected with ${S.github}.\n-----BEGIN PRIVATE KEY-----\n${S.pem}\n-----END PRIVATE KEY-----`,
        },
      ],
    }),
  );
  b.end(x);
  // 2025-11-25 URL mode: an OAuth link with a token (and a benign state), then a pre-signed S3 link.
  const y = streamCall(b, legacyToolCall(2, "export", {}), h);
  const signIn = `https://auth.example.com/authorize?client_id=app&access_token=${S.urlToken}&state=keep-this-state`;
  const s3 = `https://bucket.s3.amazonaws.com/report.csv?X-Amz-Credential=${S.amzCredential}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${S.amzSignature}&X-Amz-Expires=60`;
  b.sse(y, request(1, "elicitation/create", { mode: "url", elicitationId: "e-1", url: signIn, message: "Sign in" }));
  b.accepted(result(1, { action: "accept" }), h);
  b.sse(y, { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e-1" } });
  b.sse(
    y,
    request(2, "elicitation/create", { mode: "url", elicitationId: "e-2", url: s3, message: "Download the report" }),
  );
  b.accepted(result(2, { action: "decline" }), h);
  b.sse(y, `not JSON: ${S.notJson}`);
  b.sse(y, result(2, { content: [{ type: "text", text: "declined" }] }));
  b.end(y);
  // 2026-07-28 MRTR: an access token answered in inputResponses; the server signs its requestState (JWTs).
  const mh = modernHeaders("tools/call", "deploy");
  const tokenForm = {
    mode: "form",
    message: "Paste your access token",
    requestedSchema: { type: "object", properties: { token: { type: "string", title: "Access token" } } },
  };
  const confirm = {
    mode: "form",
    message: "Deploy now?",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
  };
  b.call(
    toolCall(10, "deploy"),
    result(10, {
      resultType: "input_required",
      inputRequests: { creds: { method: "elicitation/create", params: tokenForm } },
      requestState: S.state1,
    }),
    mh,
  );
  b.call(
    toolCall(
      11,
      "deploy",
      {},
      { inputResponses: { creds: { action: "accept", content: { token: S.mrtrToken } } }, requestState: S.state1 },
    ),
    result(11, {
      resultType: "input_required",
      inputRequests: { go: { method: "elicitation/create", params: confirm } },
      requestState: S.state2,
    }),
    mh,
  );
  b.call(
    toolCall(
      12,
      "deploy",
      {},
      { inputResponses: { go: { action: "accept", content: { ok: true } } }, requestState: S.state2 },
    ),
    result(12, done()),
    mh,
  );
  // FrontMCP: elicitationPending, then the sendElicitationResult tool.
  const pending = {
    elicitId: "el-1",
    message: "Database password",
    schema: { type: "object", properties: { password: { type: "string" } } },
  };
  b.call(
    toolCall(20, "migrate"),
    result(20, {
      resultType: "complete",
      content: [{ type: "text", text: "Waiting for input" }],
      _meta: { elicitationPending: pending },
    }),
    modernHeaders("tools/call", "migrate"),
  );
  b.call(
    toolCall(21, "sendElicitationResult", {
      elicitId: "el-1",
      action: "accept",
      content: { password: S.frontPassword },
    }),
    result(21, done()),
    modernHeaders("tools/call", "sendElicitationResult"),
  );
  return b.records;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const flowShape = (f: Flow) => ({
  id: f.id,
  kind: f.kind,
  method: f.method,
  target: f.target,
  server: f.server,
  status: f.status,
  rounds: f.rounds.map((r) => [r.index, r.requestId, r.outcome]),
  elicitations: f.elicitations.map((e) => [e.key, e.mode, e.action, e.completed, e.round]),
});
const messages = (records: readonly CaptureRecord[]): MessageRecord[] =>
  records.filter((r): r is MessageRecord => r.kind === "message");
/** Value rules: they look at the very values redaction replaces. */
const VALUE_RULES = new Set(["form-secret-value", "url-no-sensitive-data", "url-not-preauthenticated"]);

describe("a capture with planted secrets", () => {
  const records = deepFreeze(plantedCapture());
  const before = structuredClone(records);
  const redacted = redactRecords(records);
  const jsonl = exportJsonl(redacted);
  const har = exportHar(redacted);

  test("the planting took: every secret is in the unredacted export (headers aside, which no export keeps)", () => {
    const plain = exportJsonl(records) + exportHar(records);
    for (const secret of planted)
      if (secret !== S.bearer && secret !== S.cookie) assert.ok(plain.includes(secret), secret);
    assert.ok(!plain.includes(S.bearer) && !plain.includes(S.cookie));
  });

  test("the redacted JSONL and HAR contain none of them", () => {
    for (const secret of planted) {
      assert.ok(!jsonl.includes(secret), `JSONL leaks ${secret}`);
      assert.ok(!har.includes(secret), `HAR leaks ${secret}`);
    }
    assert.ok(!JSON.stringify(redacted).includes(S.bearer) && !JSON.stringify(redacted).includes(S.cookie));
  });

  test("the input records are untouched", () => {
    assert.deepEqual(records, before);
    assert.notEqual(redacted[0], records[0]);
  });

  test("flows stay the same after re-import, from JSONL and from HAR", () => {
    const want = analyze(records);
    assert.deepEqual(
      want.flows.map((f) => [f.kind, f.status]),
      [
        ["server-request", "complete"],
        ["server-request", "complete"],
        ["mrtr", "complete"],
        ["fallback-tool", "complete"],
      ],
    );
    for (const back of [importJsonl(jsonl, "redacted.jsonl"), importHar(har, "redacted.har")]) {
      assert.deepEqual(back.problems, []);
      const got = analyze(back.records);
      assert.deepEqual(got.flows.map(flowShape), want.flows.map(flowShape));
      // Findings too, except those about the values that are gone.
      const key = (f: { rule: string; flow: string | null; pointer: string; severity: string }) =>
        `${f.rule} ${f.flow} ${f.pointer} ${f.severity}`;
      const kept = got.findings.map(key);
      const lost = want.findings.filter((f) => !kept.includes(key(f)));
      assert.deepEqual(
        [...new Set(lost.map((f) => f.rule))].filter((r) => !VALUE_RULES.has(r)),
        [],
      );
      assert.ok(lost.length > 0, "the secret-value findings are gone with the values");
      assert.deepEqual(
        got.findings.map(key).filter((k) => !want.findings.map(key).includes(k)),
        [],
      );
      // The text that is not JSON is still reported (its message quotes the text, now redacted).
      assert.deepEqual(
        got.problems.map((p) => p.message.slice(0, 40)),
        want.problems.map((p) => p.message.slice(0, 40)),
      );
    }
  });

  test("what is replaced, and how", () => {
    const texts = messages(redacted).map((m) => m.text);
    const json = (needle: string): Record<string, any> => JSON.parse(texts.find((t) => t.includes(needle))!);
    assert.equal(redacted[0]!.url, `http://${REDACTED}@127.0.0.1:3000/mcp?access_token=${REDACTED}`);
    const call = messages(redacted).find((m) => m.text.includes('"connect"'))!;
    // A session id is always replaced, by one placeholder per session.
    assert.deepEqual(call.headers as Record<string, string>, {
      "mcp-session-id": "session-1",
      "mcp-protocol-version": "2025-11-25",
      authorization: REDACTED,
      cookie: REDACTED,
    });
    const ask = json('"Connect your account"').params.requestedSchema.properties;
    assert.equal(ask.password.default, REDACTED);
    assert.equal(ask.count.default, 3);
    assert.deepEqual(json('"action":"accept","content":{"apiKey"').result.content, {
      apiKey: REDACTED,
      password: REDACTED,
      reference: REDACTED,
      notes: `Card ${REDACTED}, thanks`,
      count: 3,
    });
    assert.equal(json('"Connected with').result.content[0].text, `Connected with ${REDACTED}.\n${REDACTED}`);
    assert.equal(
      json('"Sign in"').params.url,
      `https://auth.example.com/authorize?client_id=app&access_token=${REDACTED}&state=keep-this-state`,
    );
    assert.equal(
      json('"Download the report"').params.url,
      `https://bucket.s3.amazonaws.com/report.csv?X-Amz-Credential=${REDACTED}&X-Amz-Signature=${REDACTED}&X-Amz-Expires=60`,
    );
    assert.ok(texts.includes(`not JSON: ${REDACTED}`));
    assert.deepEqual(json('"inputResponses":{"creds"').params.inputResponses.creds.content, { token: REDACTED });
    assert.deepEqual(json('"sendElicitationResult"').params.arguments.content, { password: REDACTED });
    // Distinct signed states stay distinct, so each retry still answers its own round.
    assert.equal(json('"inputRequests":{"creds"').result.requestState, "[REDACTED:1]");
    assert.equal(json('"inputResponses":{"creds"').params.requestState, "[REDACTED:1]");
    assert.equal(json('"inputRequests":{"go"').result.requestState, "[REDACTED:2]");
    assert.equal(json('"inputResponses":{"go"').params.requestState, "[REDACTED:2]");
  });

  test("message texts stay JSON of the same shape; texts with nothing to redact keep every byte", () => {
    const shape = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(shape)
        : typeof v === "object" && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, c]) => [k, shape(c)]))
          : typeof v;
    messages(records).forEach((m, i) => {
      const out = messages(redacted)[i]!;
      let value: unknown;
      try {
        value = JSON.parse(m.text);
      } catch {
        return;
      }
      assert.deepEqual(shape(JSON.parse(out.text)), shape(value));
      if (!planted.some((s) => m.text.includes(s) || m.text.includes(JSON.stringify(s).slice(1, -1))))
        assert.equal(out.text, m.text);
    });
  });
});

test("two MRTR flows whose servers sign requestState as JWTs stay apart: each state gets its own placeholder", () => {
  const b = captureBuilder();
  const mh = modernHeaders("tools/call", "deploy");
  const ask = {
    mode: "form",
    message: "Which environment?",
    requestedSchema: { type: "object", properties: { env: { type: "string" } } },
  };
  const irr = (id: number, state: string) =>
    result(id, {
      resultType: "input_required",
      inputRequests: { env: { method: "elicitation/create", params: ask } },
      requestState: state,
    });
  const retry = (id: number, env: string, state: string) =>
    toolCall(
      id,
      "deploy",
      {},
      { inputResponses: { env: { action: "accept", content: { env } } }, requestState: state },
    );
  b.call(toolCall(1, "deploy"), irr(1, jwt("first")), mh);
  b.call(toolCall(2, "deploy"), irr(2, jwt("second")), mh);
  b.call(retry(3, "staging", jwt("first")), result(3, done()), mh);
  b.call(retry(4, "prod", jwt("second")), result(4, done()), mh);
  const shape = (records: readonly CaptureRecord[]) =>
    analyze(records).flows.map((f) => [
      f.status,
      f.rounds.map((r) => r.requestId),
      f.elicitations.map((e) => e.content),
    ]);
  const want = [
    ["complete", [1, 3], [{ env: "staging" }]],
    ["complete", [2, 4], [{ env: "prod" }]],
  ];
  assert.deepEqual(shape(b.records), want);
  const redacted = redactRecords(b.records);
  assert.ok(!JSON.stringify(redacted).includes(jwt("first")));
  assert.deepEqual(shape(redacted), want);
  // With one placeholder for both, the second retry would take the first flow's round.
  const collapsed = redacted.map((r) =>
    r.kind === "message" ? { ...r, text: r.text.replace(/\[REDACTED:\d\]/g, REDACTED) } : r,
  );
  assert.notDeepEqual(shape(collapsed), want);
});

test("HTTP+SSE: a token in the endpoint event and in the POST URLs is replaced alike, so the POSTs still reach the stream", () => {
  const token = "PLANTEDendpointtoken0123";
  const es = {
    v: 1,
    transport: "eventsource",
    exchange: "e1",
    url: "https://old.example.com/sse",
    client: "https://app.example.com",
  } as const;
  const records: CaptureRecord[] = [];
  let time = 1_767_225_600_000;
  const add = (r: Record<string, unknown>) =>
    records.push({ ...r, seq: records.length, time: (time += 5) } as CaptureRecord);
  const post = (body: unknown) => {
    const x = {
      v: 1,
      transport: "http",
      exchange: `p${records.length}`,
      url: `https://old.example.com/messages?sessionId=1&token=${token}`,
      client: "https://app.example.com",
    };
    add({ ...x, kind: "message", direction: "c2s", stream: "body", method: "POST", text: JSON.stringify(body) });
    add({ ...x, kind: "response", status: 202, emptyBody: true });
    add({ ...x, kind: "end" });
  };
  const event = (text: string, type?: string) =>
    add({
      ...es,
      kind: "message",
      direction: "s2c",
      stream: "eventsource",
      method: "GET",
      text,
      ...(type && { event: type }),
    });
  add({ ...es, kind: "response", status: 200, headers: { "content-type": "text/event-stream" }, emptyBody: false });
  event(`/messages?sessionId=1&token=${token}`, "endpoint");
  post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    },
  });
  event(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } },
    }),
  );
  post({ jsonrpc: "2.0", method: "notifications/initialized" });
  post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } });
  event(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "elicitation/create",
      params: {
        message: "Deploy to production?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      },
    }),
  );
  post({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { ok: true } } });
  event(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [] } }));
  const redacted = redactRecords(records);
  assert.ok(!JSON.stringify(redacted).includes(token));
  assert.equal((redacted[1] as MessageRecord).text, `/messages?sessionId=1&token=${REDACTED}`);
  const shape = (r: readonly CaptureRecord[]) =>
    analyze(r).flows.map((f) => [f.kind, f.server, f.status, f.elicitations.map((e) => e.action)]);
  assert.deepEqual(shape(records), [
    ["server-request", "eventsource:https://old.example.com/sse", "complete", ["accept"]],
  ]);
  assert.deepEqual(shape(redacted), shape(records));
  assert.deepEqual(analyze(redacted).findings, analyze(records).findings);
});

describe("redactUrl and redactText", () => {
  test("credential parameters by name, in the query and the fragment; benign ones stay", () => {
    assert.equal(
      redactUrl("https://a.example/cb?code=abc&state=xyz#id_token=t&token_type=bearer"),
      `https://a.example/cb?code=${REDACTED}&state=xyz#id_token=${REDACTED}&token_type=bearer`,
    );
    assert.equal(
      redactUrl("https://a.example/x?Api-Key=1&sig=2&Signature=3&password=4&session=5&auth=6&refresh_token=7"),
      `https://a.example/x?Api-Key=${REDACTED}&sig=${REDACTED}&Signature=${REDACTED}&password=${REDACTED}&session=${REDACTED}&auth=${REDACTED}&refresh_token=${REDACTED}`,
    );
    assert.equal(redactUrl("https://a.example/#/route?token=abc"), `https://a.example/#/route?token=${REDACTED}`);
  });

  test("key= only with a long value; any parameter or path segment holding a credential", () => {
    assert.equal(redactUrl("https://maps.example/tile?key=roads"), "https://maps.example/tile?key=roads");
    assert.equal(
      redactUrl("https://maps.example/tile?key=AIzaSyA0123456789abcdef"),
      `https://maps.example/tile?key=${REDACTED}`,
    );
    assert.equal(
      redactUrl(`https://a.example/hook/${S.github}/run?x=${S.jwt}`),
      `https://a.example/hook/${REDACTED}/run?x=${REDACTED}`,
    );
  });

  test("user info, and a nested URL's parameters", () => {
    assert.equal(redactUrl("https://user:pw@host.example/p"), `https://${REDACTED}@host.example/p`);
    assert.equal(
      redactUrl("https://x.example/login?next=https://y.example/cb?code=abc"),
      `https://x.example/login?next=https://y.example/cb?code=${REDACTED}`,
    );
  });

  test("text: URLs inside prose, a relative endpoint URL, keys, JWTs, cards; ordinary text and numbers stay", () => {
    assert.equal(
      redactText(`Open https://a.example/x?token=abc now`),
      `Open https://a.example/x?token=${REDACTED} now`,
    );
    assert.equal(redactText("/messages?sessionId=42&token=abc"), `/messages?sessionId=42&token=${REDACTED}`);
    assert.equal(
      redactText(`key ${S.apiKey}, jwt ${S.jwt}, card 4111-1111-1111-1111.`),
      `key ${REDACTED}, jwt ${REDACTED}, card ${REDACTED}.`,
    );
    for (const plain of [
      "Deploy to production?",
      "order 1767225600000",
      "4111 1111 1111 1112",
      "https://example.com/docs?page=2",
      "/tmp/file",
    ])
      assert.equal(redactText(plain), plain);
  });
});

test("the demo capture (real SDK traffic) has nothing to redact but its session ids: one placeholder per session", () => {
  const { records } = importJsonl(
    readFileSync(new URL("../../demo/demo-capture.jsonl", import.meta.url), "utf8"),
    "demo.jsonl",
  );
  const sessions = new Map<string, string>();
  const expected = records.map((r) => {
    const headers = r.kind === "message" || r.kind === "response" ? r.headers : undefined;
    const id = headers?.["mcp-session-id"];
    if (id === undefined) return r;
    if (!sessions.has(id)) sessions.set(id, `session-${sessions.size + 1}`);
    return { ...r, headers: { ...headers, "mcp-session-id": sessions.get(id) } };
  });
  assert.ok(sessions.size > 3);
  assert.deepEqual(redactRecords(records), expected);
});

test("page-request records: a credential in the URL or in OAuth metadata URLs is replaced, the rest kept (the URL rules still match)", () => {
  const token = "ghp_PLANTEDinmetadata0123456789abcdefgh";
  const records: CaptureRecord[] = [
    {
      v: 1,
      seq: 0,
      time: 1,
      transport: "http",
      url: `https://auth.example.com/t/${token}/x`,
      kind: "page-request",
      method: "GET",
    },
    {
      v: 1,
      seq: 1,
      time: 2,
      transport: "http",
      url: "https://auth.example.com/.well-known/oauth-authorization-server",
      kind: "page-request",
      method: "GET",
      metadata: {
        issuer: "https://auth.example.com",
        authorizationEndpoint: `https://auth.example.com/authorize/${token}`,
        resource: "https://mcp.example.com/mcp",
        authorizationServers: ["https://auth.example.com", `https://auth.example.com/${token}`],
      },
    },
  ];
  const out = redactRecords(records);
  assert.ok(!JSON.stringify(out).includes(token));
  assert.equal(out[0]!.url, `https://auth.example.com/t/${REDACTED}/x`);
  assert.deepEqual(out[1]!.kind === "page-request" && out[1]!.metadata, {
    issuer: "https://auth.example.com",
    authorizationEndpoint: `https://auth.example.com/authorize/${REDACTED}`,
    resource: "https://mcp.example.com/mcp",
    authorizationServers: ["https://auth.example.com", `https://auth.example.com/${REDACTED}`],
  });
});
