import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dataJson } from "../../src/page/json.ts";

/**
 * src/page/json.ts: the tap's JSON of page data writes what JSON.stringify writes, without running a `toJSON` the
 * page put on a prototype (T9 in test/extension/TAP-BUGS.md).
 */
// biome-ignore lint/suspicious/noSparseArray: a hole is what this input is about.
const sparse = [1, , 3];
const samples: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: { a: [1, "two", true, null], b: { c: -0 } } } },
  [{ jsonrpc: "2.0", id: "x", result: { content: [{ type: "text", text: "é \u2028 \"quoted\" \\ \n\t" }] } }],
  { 2: "two", 1: "one", b: "b", a: "a", [Symbol("s")]: "symbol key", u: undefined, f: () => 1, n: NaN, i: -Infinity },
  [undefined, () => 1, Symbol("x"), NaN, 1e21, 5e-7],
  sparse,
  { when: new Date(Date.UTC(2026, 10, 29, 12, 0, 0)), bad: new Date(NaN) },
  { boxed: [new Number(3), new String("s"), new Boolean(false), new Number(Infinity)] },
  { map: new Map([[1, 2]]), set: new Set([1]), re: /x/g, bytes: new Uint8Array([1, 2, 3]), buffer: new ArrayBuffer(2), error: new Error("e") },
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
      assert.equal(dataJson(value, false), JSON.stringify(value));
      assert.equal(dataJson(JSON.parse(JSON.stringify(value) ?? "null"), true), JSON.stringify(JSON.parse(JSON.stringify(value) ?? "null")));
    });
  }

  test("a structuredClone of a JSON-RPC message: the same text as JSON.stringify", () => {
    // What a message event can carry: no functions or symbols.
    for (const value of [samples[0], samples[1], samples[4], samples[5], samples[6], samples[7]]) {
      const clone = structuredClone(value, {}) as unknown;
      assert.equal(dataJson(clone, false), JSON.stringify(clone));
    }
  });

  test("toJSON getters on Object.prototype and Array.prototype are never run, and the text is that of the data", () => {
    const message = { jsonrpc: "2.0", id: 7, result: { items: [{ a: 1 }, [2, 3]], when: new Date(0) } };
    const expected = JSON.stringify(message);
    let lookups = 0;
    for (const proto of [Object.prototype, Array.prototype]) Object.defineProperty(proto, "toJSON", { configurable: true, get: () => void lookups++ });
    try {
      assert.equal(dataJson(message, false), expected);
      assert.equal(dataJson(JSON.parse(expected), true), expected);
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
      assert.equal(dataJson({ when: new Date(0) }, false), '{"when":"1970-01-01T00:00:00.000Z"}');
      assert.equal(calls, 0);
    } finally {
      Date.prototype.toJSON = original;
    }
    const getterRan: string[] = [];
    const data = Object.defineProperty({ plain: 1 }, "computed", { enumerable: true, get: () => void getterRan.push("computed") });
    assert.equal(dataJson(data, false), '{"plain":1}');
    assert.deepEqual(getterRan, []);
  });

  test("cycles and BigInts throw, as JSON.stringify does; very deep data too", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.throws(() => dataJson(cyclic, false), TypeError);
    assert.throws(() => dataJson({ n: 1n }, false), TypeError);
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    assert.throws(() => dataJson(deep, false), TypeError);
    const shared = { x: 1 };
    assert.equal(dataJson([shared, shared], false), '[{"x":1},{"x":1}]', "a repeated object is not a cycle");
  });
});
