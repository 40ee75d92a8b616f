import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";
import { formModel } from "../../panel/model/formModel.ts";
import { atPointer, prettyJson } from "../../panel/model/json.ts";
import { diff, roundSteps } from "../../panel/model/roundDiff.ts";
import { escapeInvisible, shown } from "../../panel/model/text.ts";
import { decodePunycode, urlInfo } from "../../panel/model/urlInfo.ts";

/** The panel's pure view models: pretty JSON with evidence ranges, URL anatomy, round diffs, the form preview. */
const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;

describe("pretty JSON", () => {
  test("equals JSON.stringify(…, 2) and finds the value at a pointer, escapes included", () => {
    const value = { a: [1, { "b/c": "x", "d~e": null }], s: "hi", empty: {}, list: [] };
    const { text, range } = prettyJson(value, "/a/1/b~1c");
    assert.equal(text, JSON.stringify(value, null, 2));
    assert.equal(text.slice(...range!), '"b/c": "x"');
    assert.equal(prettyJson(value, "/a/1/d~0e").text.slice(...prettyJson(value, "/a/1/d~0e").range!), '"d~e": null');
    assert.equal(text.slice(...prettyJson(value, "/a/0").range!), "1");
    assert.equal(prettyJson(value, "").range?.[0], 0, "the root");
    assert.equal(prettyJson(value, "/nope").range, undefined);
    assert.deepEqual(atPointer(value, "/a/1/b~1c"), "x");
  });

  test("bidi and invisible characters become visible escapes that are still the same JSON", () => {
    const value = { title: "safe\u202Egnp.exe", zw: "a\u200Bb" };
    const { text } = prettyJson(value);
    assert.ok(!/[\u202E\u200B]/.test(text));
    assert.ok(text.includes("\\u202e"));
    assert.deepEqual(JSON.parse(text), value);
    assert.equal(escapeInvisible("\u2066x\u2069"), "\\u2066x\\u2069");
    assert.equal(shown({ a: "\u202E" }), '{"a":"\\u202e"}');
  });
});

describe("URL anatomy", () => {
  test("the host is cut out of the URL as written; punycode is decoded and warned about", () => {
    const info = urlInfo("https://xn--80ak6aa92e.com/login?next=/");
    assert.equal(info.host, "xn--80ak6aa92e.com");
    assert.equal(info.before + info.host + info.after, "https://xn--80ak6aa92e.com/login?next=/");
    assert.equal(info.unicodeHost, "аррӏе.com");
    assert.ok(info.warnings.some((w) => w.includes("Internationalized")));
    assert.equal(decodePunycode("mnchen-3ya"), "münchen");
    assert.equal(decodePunycode("bcher-kva"), "bücher");
  });

  test("credentials before @, other schemes, bidi controls and IP hosts are warned about", () => {
    const at = urlInfo("https://accounts.example.com@evil.test:8443/x");
    assert.equal(at.host, "evil.test");
    assert.equal(at.before, "https://accounts.example.com@");
    assert.equal(at.after, ":8443/x");
    assert.ok(at.warnings.some((w) => w.includes("user name")));
    assert.ok(urlInfo("javascript:alert(1)").warnings.some((w) => w.includes("javascript:")));
    const bidi = urlInfo("https://example.com/\u202Efdp.exe");
    assert.ok(bidi.after.includes("\\u202e") && !bidi.after.includes("\u202E"));
    assert.ok(bidi.warnings.some((w) => w.includes("bidirectional")));
    assert.ok(urlInfo("http://127.0.0.1:1/").warnings.some((w) => w.includes("IP address")));
    assert.ok(urlInfo(42).warnings[0]!.includes("not a string"));
  });
});

describe("round diff", () => {
  const { flows } = analyze(demo);
  const record = (seq: number) => demo[seq];

  test("the demo's multi round-trip flows repeat their request and echo requestState exactly", () => {
    const trip = flows.find((f) => f.kind === "mrtr" && f.target === "plan_trip")!;
    const steps = roundSteps(trip, record);
    assert.equal(steps.length, 2);
    assert.deepEqual(
      steps.map((s) => [s.echo.kind, s.changes.length, s.answered]),
      [
        ["exact", 0, ["city"]],
        ["exact", 0, ["nights"]],
      ],
    );
  });

  test("a retry that changes its arguments or its state is shown", () => {
    const trip = flows.find((f) => f.kind === "mrtr" && f.target === "plan_trip")!;
    const retry = trip.rounds[1]!.requestRecord;
    const edited = demo.map((r) => {
      if (r.seq !== retry || r.kind !== "message") return r;
      const m = JSON.parse(r.text) as { params: { arguments: Record<string, unknown>; requestState?: string } };
      m.params.arguments = { ...m.params.arguments, city: "Porto" };
      return { ...r, text: JSON.stringify(m) } as CaptureRecord;
    });
    const flow = analyze(edited).flows.find((f) => f.kind === "mrtr" && f.target === "plan_trip")!;
    const [step] = roundSteps(flow, (seq) => edited[seq]);
    assert.equal(step!.echo.kind, "exact");
    assert.deepEqual(step!.changes, [{ pointer: "/params/arguments/city", kind: "added", after: "Porto" }]);
    // A state that comes back altered, or not at all (the engine may not even tie such a retry to its flow).
    const [r1, r2] = trip.rounds;
    const altered = { ...trip, rounds: [r1!, { ...r2!, echoedState: "forged" }] };
    assert.deepEqual(roundSteps(altered, record)[0]!.echo, {
      kind: "changed",
      sent: r1!.requestState,
      echoed: "forged",
    });
    const dropped = { ...trip, rounds: [r1!, { ...r2!, echoedState: undefined }] };
    assert.equal(roundSteps(dropped, record)[0]!.echo.kind, "missing");
    assert.deepEqual(diff({ a: 1, b: [1, 2] }, { a: 2, b: [1, 2, 3] }), [
      { pointer: "/a", kind: "changed", before: 1, after: 2 },
      { pointer: "/b", kind: "changed", before: [1, 2], after: [1, 2, 3] },
    ]);
  });
});

describe("form preview model", () => {
  test("fields with titles, types, choices, defaults, bounds and the answer; broken fields carry their findings", () => {
    const register = analyze(demo).flows.find((f) => f.target === "register_user" && f.revision === "2025-11-25")!;
    const answer = register.elicitations[0]!.answerRecord!;
    const broken = demo.map((r) =>
      r.seq === answer && r.kind === "message"
        ? ({
            ...r,
            text: r.text.replace('"age":36', '"age":5').replace('"plan":"pro"', '"plan":"gold"'),
          } as CaptureRecord)
        : r,
    );
    const result = analyze(broken);
    const flow = result.flows.find((f) => f.id === register.id)!;
    const model = formModel(
      flow.elicitations[0]!,
      result.findings.filter((f) => f.flow === flow.id),
    );
    const byKey = Object.fromEntries(model.fields.map((f) => [f.key, f]));
    assert.deepEqual(Object.keys(byKey), ["email", "age", "newsletter", "plan", "topics"]);
    assert.equal(byKey.email!.label, "Email");
    assert.equal(byKey.email!.format, "email");
    assert.equal(byKey.age!.required, true);
    assert.deepEqual(byKey.age!.bounds, ["minimum 18", "maximum 120"]);
    assert.equal(byKey.age!.answer, 5);
    assert.equal(byKey.newsletter!.control, "checkbox");
    assert.equal(byKey.newsletter!.default, false);
    assert.equal(byKey.plan!.control, "select");
    assert.deepEqual(byKey.plan!.options, [
      { value: "free", label: "Free" },
      { value: "pro", label: "Pro" },
    ]);
    assert.equal(byKey.topics!.control, "multiselect");
    assert.ok(byKey.age!.answerFindings.length > 0, "age below its minimum is marked");
    assert.ok(byKey.plan!.answerFindings.length > 0, "a plan that is not an option is marked");
    assert.equal(byKey.email!.answerFindings.length, 0);
    assert.ok(byKey.age!.answerFindings.every((f) => f.pointer.startsWith("/result/content/age")));
  });

  test("a schema that is not an object schema is said so", () => {
    const model = formModel(
      {
        key: "k",
        mode: "form",
        message: "m",
        schema: "nope",
        action: null,
        completed: false,
        round: 1,
        askRecord: 0,
        askPointer: "/params",
        askedAt: 0,
      },
      [],
    );
    assert.equal(model.fields.length, 0);
    assert.ok(model.malformed);
  });
});
