import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import "../../src/shared/jitless.ts";
import { createEngine } from "../../src/engine/index.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { importBoth } from "../fuzz/sameAsCli.ts";
import { toText } from "../../src/cli/report.ts";

// The panel's import of a file's bytes (importFile, as the import worker runs it on a File) against the CLI's
// (readCapture, as `mcp-elicit lint` reads the same bytes): the same records, flows and problems.

const demo = readFileSync("demo/demo-capture.jsonl", "utf8");
const BOM_LE = [0xff, 0xfe];

describe("the panel reads a file's bytes as the CLI does", () => {
  test("a UTF-16 JSONL capture with its byte-order mark, little- and big-endian: the demo's records and flows, no problem", async () => {
    const le = Buffer.concat([Buffer.from(BOM_LE), Buffer.from(demo, "utf16le")]);
    const be = Buffer.from(le).swap16();
    for (const [label, bytes] of [
      ["utf-16le", le],
      ["utf-16be", be],
    ] as const) {
      const { panel, cli } = await importBoth("demo.jsonl", new Uint8Array(bytes));
      assert.deepEqual(cli.problems, [], label);
      assert.equal(cli.records, 315, label);
      assert.deepEqual(panel.problems, [], label);
      assert.equal(panel.records, cli.records, label);
      assert.equal(panel.flows, cli.flows, label);
    }
  });

  test("an empty or blank JSONL file: the panel says it is empty, as the CLI does", async () => {
    for (const text of ["", "\n\n  \n", "\uFEFF"]) {
      const { panel, cli } = await importBoth("empty.jsonl", new TextEncoder().encode(text));
      assert.equal(panel.records, 0, JSON.stringify(text));
      assert.deepEqual(
        cli.problems.map((p) => p.message),
        ["the file is empty: no capture records"],
        JSON.stringify(text),
      );
      assert.deepEqual(
        panel.problems.map((p) => p.message),
        cli.problems.map((p) => p.message),
        JSON.stringify(text),
      );
    }
  });
});

describe("the CLI's text output", () => {
  test("prints no control character a capture put in a flow's method or protocol version", () => {
    const rpc = (m: object) => JSON.stringify(m);
    const base = {
      v: 1,
      transport: "http",
      url: "http://127.0.0.1:1/mcp",
      kind: "message",
      stream: "body",
      method: "POST",
    } as const;
    const texts = [
      rpc({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25\u001b]0;title\u0007",
          capabilities: { elicitation: {} },
          clientInfo: { name: "c", version: "1" },
        },
      }),
      rpc({
        jsonrpc: "2.0",
        id: 0,
        result: {
          protocolVersion: "2025-11-25\u001b]0;title\u0007",
          capabilities: {},
          serverInfo: { name: "s", version: "1" },
        },
      }),
      rpc({ jsonrpc: "2.0", id: 1, method: "tools/call\u001b[2J", params: { name: "t", arguments: {} } }),
      rpc({
        jsonrpc: "2.0",
        id: 7,
        method: "elicitation/create",
        params: { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } },
      }),
    ];
    const records = texts.map(
      (text, seq) =>
        ({
          ...base,
          seq,
          time: 1000 + seq,
          exchange: `x${seq >> 1}`,
          direction: seq % 2 === 0 && seq !== 3 ? "c2s" : "s2c",
          text,
        }) as CaptureRecord,
    );
    const engine = createEngine();
    for (const r of records) engine.push(r);
    const flows = [...engine.flows()];
    assert.equal(flows.length, 1);
    assert.match(flows[0]!.method, /\u001b/);
    const out = toText([{ file: "x.jsonl", flows, findings: [...engine.findings()], problems: [] }], false);
    assert.match(out, /tools\/call/);
    assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
