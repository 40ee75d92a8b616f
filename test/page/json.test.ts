import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dataJson as cappedJson, lastSteps } from "../../src/page/json.ts";

const dataJson = (value: unknown): string | undefined => cappedJson(value)?.text;

/**
 * src/page/json.ts: the tap's JSON of page data writes what JSON.stringify writes, without running a `toJSON` the
 * page put on a prototype (T9 in test/extension/TAP-BUGS.md).
 */
// biome-ignore lint/suspicious/noSparseArray: a hole is what this input is about.
const sparse = [1, , 3];
const samples: unknown[] = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "deploy", arguments: { a: [1, "two", true, null], b: { c: -0 } } },
  },
  [{ jsonrpc: "2.0", id: "x", result: { content: [{ type: "text", text: 'é \u2028 "quoted" \\ \n\t' }] } }],
  { 2: "two", 1: "one", b: "b", a: "a", [Symbol("s")]: "symbol key", u: undefined, f: () => 1, n: NaN, i: -Infinity },
  [undefined, () => 1, Symbol("x"), NaN, 1e21, 5e-7],
  sparse,
  { when: new Date(Date.UTC(2026, 10, 29, 12, 0, 0)), bad: new Date(NaN) },
  { boxed: [new Number(3), new String("s"), new Boolean(false), new Number(Infinity)] },
  {
    map: new Map([[1, 2]]),
    set: new Set([1]),
    re: /x/g,
    bytes: new Uint8Array([1, 2, 3]),
    buffer: new ArrayBuffer(2),
    error: new Error("e"),
  },
  "just a string",
  42,
  null,
  true,
  [],
  {},
];

describe("dataJson", () => {
  for (const [i, value] of samples.entries()) {
    test(`sample ${i}: the same text as JSON.stringify, walked and parsed`, () => {
      assert.equal(dataJson(value), JSON.stringify(value));
      assert.equal(
        dataJson(JSON.parse(JSON.stringify(value) ?? "null")),
        JSON.stringify(JSON.parse(JSON.stringify(value) ?? "null")),
      );
    });
  }

  test("a structuredClone of a JSON-RPC message: the same text as JSON.stringify", () => {
    // What a message event can carry: no functions or symbols.
    for (const value of [samples[0], samples[1], samples[4], samples[5], samples[6], samples[7]]) {
      const clone = structuredClone(value, {}) as unknown;
      assert.equal(dataJson(clone), JSON.stringify(clone));
    }
  });

  test("toJSON getters on Object.prototype and Array.prototype are never run, and the text is that of the data", () => {
    const message = { jsonrpc: "2.0", id: 7, result: { items: [{ a: 1 }, [2, 3]], when: new Date(0) } };
    const expected = JSON.stringify(message);
    let lookups = 0;
    for (const proto of [Object.prototype, Array.prototype])
      Object.defineProperty(proto, "toJSON", { configurable: true, get: () => void lookups++ });
    try {
      assert.equal(dataJson(message), expected);
      assert.equal(dataJson(JSON.parse(expected)), expected);
      assert.equal(lookups, 0);
      JSON.stringify(message);
      assert.ok(lookups > 0, "JSON.stringify does look them up: the test would see a walk that did");
    } finally {
      for (const proto of [Object.prototype, Array.prototype]) delete (proto as { toJSON?: unknown }).toJSON;
    }
  });

  test("a page's own toJSON methods on Date.prototype and on the data are not called", () => {
    const original = Date.prototype.toJSON;
    let calls = 0;
    Date.prototype.toJSON = function () {
      calls++;
      return "page's";
    };
    try {
      assert.equal(dataJson({ when: new Date(0) }), '{"when":"1970-01-01T00:00:00.000Z"}');
      assert.equal(calls, 0);
    } finally {
      Date.prototype.toJSON = original;
    }
    const getterRan: string[] = [];
    const data = Object.defineProperty({ plain: 1 }, "computed", {
      enumerable: true,
      get: () => void getterRan.push("computed"),
    });
    assert.equal(dataJson(data), '{"plain":1}');
    assert.deepEqual(getterRan, []);
  });

  test("cycles and BigInts throw, as JSON.stringify does; very deep data too", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.throws(() => dataJson(cyclic), TypeError);
    assert.throws(() => dataJson({ n: 1n }), TypeError);
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    assert.throws(() => dataJson(deep), TypeError);
    const shared = { x: 1 };
    assert.equal(dataJson([shared, shared]), '[{"x":1},{"x":1}]', "a repeated object is not a cycle");
  });

  test("an array that claims 2^32 - 1 slots is given up at once, before any slot is walked", () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    sparse[5] = { jsonrpc: "2.0" };
    for (const cap of [1000, 2 ** 20]) {
      const out = cappedJson(structuredClone({ jsonrpc: "2.0", x: sparse }), cap)!;
      assert.ok(lastSteps <= 8, `${lastSteps} steps`);
      assert.deepEqual(out, { text: "", truncated: 0 }, "cut to nothing: the text cannot fit");
    }
    // An array that fits is written whole, holes as null.
    const small: unknown[] = [];
    small.length = 5;
    small[2] = "two";
    assert.deepEqual(cappedJson(structuredClone({ jsonrpc: "2.0", x: small }), 1000), {
      text: JSON.stringify({ jsonrpc: "2.0", x: small }),
    });
  });

  test("a million keys whose values write nothing, or something, cost steps bounded by the cap", () => {
    const cap = 1000;
    const silent: Record<string, unknown> = {};
    const loud: Record<string, unknown> = {};
    for (let i = 0; i < 1_000_000; i++) {
      silent[`k${i}`] = undefined;
      loud[`k${i}`] = i;
    }
    const quiet = cappedJson(silent, cap)!;
    assert.ok(lastSteps <= cap + 2, `${lastSteps} steps`);
    assert.equal(quiet.truncated, quiet.text.length, "a walk cut short says so even when its text is short");
    const written = cappedJson(loud, cap)!;
    assert.ok(lastSteps <= cap + 2, `${lastSteps} steps`);
    assert.equal(written.truncated, cap);
    assert.ok(written.text.startsWith(`{"k0":0,"k1":1,"k2":2,`));
  });

  test("a string longer than the cap gives up the walk before it is written; what fits is exact", () => {
    const cap = 100;
    const long = "x".repeat(10_000_000);
    assert.deepEqual(cappedJson({ jsonrpc: "2.0", s: long }, cap), { text: "", truncated: 0 });
    const exact = { jsonrpc: "2.0", id: 1, result: { a: "y".repeat(30) } };
    const text = JSON.stringify(exact);
    assert.ok(text.length <= cap);
    assert.deepEqual(cappedJson(exact, text.length), { text });
    assert.deepEqual(cappedJson(exact, text.length - 1), {
      text: text.slice(0, text.length - 1),
      truncated: text.length - 1,
    });
  });

  test("an own toJSON planted on the data is not called, and writes nothing (a function member)", () => {
    let calls = 0;
    const response = JSON.parse('{"jsonrpc":"2.0","id":1,"result":{}}') as Record<string, unknown>;
    response.toJSON = () => {
      calls++;
      return "page's";
    };
    assert.equal(dataJson(response), '{"jsonrpc":"2.0","id":1,"result":{}}');
    assert.equal(calls, 0);
  });
});
