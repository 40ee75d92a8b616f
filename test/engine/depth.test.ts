import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { importHar } from "../../src/capture/har/import.ts";
import { exportHar } from "../../src/capture/har/export.ts";
import { exportJsonl, importJsonl } from "../../src/capture/jsonl.ts";
import { redactRecords } from "../../src/capture/redact.ts";
import { analyze } from "../../src/engine/index.ts";
import { canonicalJson } from "../../src/util/json.ts";
import { idKey, idText } from "../../src/protocol/jsonrpc.ts";
import { cutDeep, depthOf, MAX_DEPTH, TOO_DEEP } from "../../src/util/depth.ts";
import { prettyJson, parseJson } from "../../panel/model/json.ts";
import { captureBuilder, legacySession, streamCall } from "../helpers/capture.ts";

// Depth is bounded everywhere: a value nested 100,000 levels deep is cut at MAX_DEPTH where it is parsed, named
// in a problem, and the rest of its message is analysed; import, redaction and both exports go through.

const DEPTH = 100_000;
const deepObject = (leaf: string) => '{"a":'.repeat(DEPTH) + leaf + "}".repeat(DEPTH);
const deepArray = (leaf: string) => "[".repeat(DEPTH) + leaf + "]".repeat(DEPTH);
const SECRET = "sk-proj-PLANTEDdeepsecret0123456789abcd";

function deepCapture() {
  const b = captureBuilder();
  const h = legacySession(b);
  // A tool call whose arguments nest 100,000 deep, with a credential at the bottom.
  const x = streamCall(
    b,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":${deepObject(JSON.stringify(SECRET))}}}`,
    h,
  );
  // An elicitation with one deep property and one that breaks a rule (a property type that is not allowed).
  b.sse(
    x,
    `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"form","message":"Pick the region to deploy to","requestedSchema":{"type":"object","properties":{"deep":${deepObject("1")},"bad":{"type":"object"}}}}}`,
  );
  b.end(x);
  const y = b.post(
    `{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"deep":${deepArray('"x"')},"bad":{}}}}`,
    h,
  );
  b.status(y, 202, {}, true);
  b.end(y);
  // A response whose id nests deep.
  const z = streamCall(b, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "other", arguments: {} } }, h);
  b.sse(z, `{"jsonrpc":"2.0","id":${deepArray("2")},"result":{"content":${deepArray("1")}}}`);
  b.end(z);
  return b.records;
}

describe("depth bounded everywhere", () => {
  test("cutDeep cuts in place below MAX_DEPTH, names the pointers, and walks iteratively", () => {
    const value = JSON.parse(`{"x":${deepArray("1")},"y":[${deepObject("2")}],"k":1}`) as Record<string, unknown>;
    assert.ok(depthOf(value) > MAX_DEPTH);
    const cut = cutDeep(value);
    assert.ok(cut);
    assert.equal(cut.count, 2);
    assert.equal(cut.pointers[0]!.split("/").length - 1, MAX_DEPTH);
    assert.equal(depthOf(value), MAX_DEPTH);
    assert.equal(value.k, 1);
    assert.ok(JSON.stringify(value).includes(TOO_DEEP));
    assert.equal(cutDeep({ a: [1, { b: 2 }] }), undefined);
  });

  test("analysis: no internal error, a problem naming the pointer, findings on the rest, every flow listed", () => {
    const records = deepCapture();
    const r = analyze(records);
    assert.deepEqual(
      r.problems.filter((p) => p.message.includes("Internal error")),
      [],
    );
    const deep = r.problems.filter((p) =>
      p.message.startsWith(`JSON nested deeper than ${MAX_DEPTH} levels at /params/arguments/a/a/`),
    );
    assert.equal(deep.length, 1);
    assert.ok(r.problems.some((p) => p.message.includes("at /params/requestedSchema/properties/deep/a/a")));
    assert.ok(r.problems.some((p) => p.message.includes("at /result/content/deep/0/0")));
    // The rest of the elicitation is still checked, and its flow is answered (the deep answer correlated).
    const bad = r.findings.find(
      (f) => f.rule === "schema-flat" && f.pointer === "/params/requestedSchema/properties/bad",
    );
    assert.ok(bad, "the property beside the deep one is checked");
    const flow = r.flows.find((f) => f.id === bad.flow);
    assert.ok(flow, "the flow a finding names is in the report");
    assert.equal(flow.elicitations[0]?.action, "accept");
    for (const f of r.findings)
      if (f.flow !== null)
        assert.ok(
          r.flows.some((x) => x.id === f.flow),
          `${f.rule} names ${f.flow}`,
        );
  });

  test("redaction and both exports succeed; the deep secret is not exported; the exports re-import to the same flows", () => {
    const records = deepCapture();
    const redacted = redactRecords(records);
    const jsonl = exportJsonl(redacted);
    const har = exportHar(redacted);
    assert.ok(!jsonl.includes(SECRET) && !har.includes(SECRET));
    const fromJsonl = importJsonl(jsonl, "deep.jsonl");
    const fromHar = importHar(har, "deep.har");
    assert.deepEqual([fromJsonl.problems, fromHar.problems], [[], []]);
    const flows = (rs: Parameters<typeof analyze>[0]) =>
      analyze(rs).flows.map((f) => [f.kind, f.status, f.rounds.length]);
    assert.deepEqual(flows(fromJsonl.records), flows(records));
    assert.deepEqual(flows(fromHar.records), flows(records));
  });

  test("ids: an object id with its own toString never throws; deep ids get a key", () => {
    assert.equal(idText({ toString: 1, valueOf: 1 }), '{"toString":1,"valueOf":1}');
    assert.equal(idText("a"), "a");
    assert.equal(idText(3), "3");
    const b = captureBuilder();
    const h = legacySession(b);
    const x = streamCall(
      b,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } },
      h,
    );
    b.sse(x, {
      jsonrpc: "2.0",
      id: { toString: 1, valueOf: {} },
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Confirm the deployment now",
        requestedSchema: { type: "object", properties: {} },
      },
    });
    b.end(x);
    const r = analyze(b.records);
    assert.deepEqual(
      r.problems.filter((p) => p.message.includes("Internal error")),
      [],
    );
    assert.ok(r.flows.some((f) => f.elicitations.length === 1));
    assert.equal(
      typeof idKey(JSON.parse(deepArray("1"))[0] === undefined ? null : cutAndReturn(JSON.parse(deepArray("1")))),
      "string",
    );
  });

  test("canonical JSON and the panel's JSON view of a cut value stay within the stack", () => {
    const value = cutAndReturn(JSON.parse(`{"b":${deepObject("1")},"a":2}`));
    assert.ok(canonicalJson(value).startsWith('{"a":2,"b":{"a":'));
    const parsed = parseJson(`{"m":${deepArray("1")}}`);
    assert.ok(parsed.ok);
    assert.ok(prettyJson(parsed.value, "/m/0").text.includes(TOO_DEEP));
  });
});

function cutAndReturn(value: unknown): unknown {
  cutDeep(value);
  return value;
}

describe("internal errors", () => {
  // On main before the depth bound, a 100,000-deep value overflowed the stack between a flow's first finding and
  // its listing; no input is known to do that now, so this drives the engine with records that throw instead.
  test("a record that throws at its k-th read (of it or its headers), for every k: nothing escapes the engine, every flow a finding names is listed", () => {
    const b = captureBuilder();
    const h = legacySession(b);
    const x = streamCall(
      b,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: {} } },
      h,
    );
    // An elicitation that breaks rules (no message quality, a secret field), so findings name its flow; with
    // request headers, which the delivery rules read after the flow is made.
    b.sse(
      x,
      {
        jsonrpc: "2.0",
        id: 7,
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "x",
          requestedSchema: { type: "object", properties: { password: { type: "string" }, bad: { type: "object" } } },
        },
      },
      "post-sse",
      { "mcp-session-id": "s1", "mcp-protocol-version": "2025-11-25" },
    );
    b.end(x);
    const last = b.records.findIndex((r) => r.kind === "message" && r.text.includes("elicitation/create"));
    let internal = 0;
    for (let k = 1; k < 400; k++) {
      let reads = 0;
      // The record and the objects in it (its headers): the k-th read of any of them throws.
      const trap = <T extends object>(o: T): T =>
        new Proxy(o, {
          get(target, key, receiver) {
            if (++reads === k) throw new Error(`trap at read ${k}`);
            const v: unknown = Reflect.get(target, key, receiver);
            return v !== null && typeof v === "object" ? trap(v) : v;
          },
        });
      const trapped = trap(b.records[last]!);
      const records = b.records.map((r, i) => (i === last ? trapped : r));
      const r = analyze(records);
      if (r.problems.some((p) => p.message.startsWith("Internal error"))) internal++;
      for (const f of r.findings)
        if (f.flow !== null)
          assert.ok(
            r.flows.some((fl) => fl.id === f.flow),
            `k=${k}: ${f.rule} names ${f.flow}, not in the report`,
          );
    }
    assert.ok(internal > 10, `${internal} of the traps hit the correlator`);
  });
});
