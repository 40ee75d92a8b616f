import assert from "node:assert/strict";
import fc from "fast-check";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { readCapture } from "../../src/cli/read.ts";
import { createEngine } from "../../src/engine/index.ts";
import { importFile } from "../../panel/io/importFile.ts";
import { harInput, jsonlInput, sseInput, type Input } from "./arbitraries.ts";

/** How a generated capture is saved: UTF-8, or UTF-16 with its byte-order mark. */
export type Encoding = "utf-8" | "utf-16le" | "utf-16be";

/** A generated capture of any of the three generators, saved as UTF-8 (half of them) or UTF-16. */
export const savedInput: fc.Arbitrary<[Input, Encoding]> = fc.tuple(
  fc.oneof(jsonlInput, harInput, sseInput),
  fc.constantFrom<Encoding>("utf-8", "utf-8", "utf-16le", "utf-16be"),
);

/** A text as the bytes of a file in `encoding`. */
export function bytesOf(text: string, encoding: Encoding): Uint8Array<ArrayBuffer> {
  if (encoding === "utf-8") return new Uint8Array(Buffer.from(text, "utf8"));
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/^\uFEFF/, ""), "utf16le")]);
  return new Uint8Array(encoding === "utf-16le" ? le : le.swap16());
}

/**
 * The property the panel's import keeps with the CLI's (issue 11): a file's bytes imported by the panel's import
 * worker (importFile, over a Blob's stream) and by `mcp-elicit lint` (readCapture) give the same format, records,
 * flows, findings and import problems. Neither throws.
 */
export async function checkSameAsCli(
  input: Input,
  encoding: Encoding,
  name = `capture.${input.format}`,
): Promise<void> {
  const { panel, cli } = await importBoth(name, bytesOf(input.text, encoding));
  assert.deepEqual(
    {
      format: panel.format,
      records: panel.records,
      flows: panel.flows,
      findings: panel.findings,
      problems: panel.problems.map((p) => p.message),
    },
    {
      format: cli.format,
      records: cli.records,
      flows: cli.flows,
      findings: cli.findings,
      problems: cli.problems.map((p) => p.message),
    },
  );
}

/** A file's bytes imported by the panel (importFile over a Blob's stream) and by the CLI (readCapture, then the engine). */
export async function importBoth(name: string, bytes: Uint8Array<ArrayBuffer>) {
  const file = {
    name,
    size: bytes.byteLength,
    stream: () => new Blob([bytes]).stream(),
    text: async () => new TextDecoder().decode(bytes),
  };
  const panel = await importFile(file, () => undefined, { stepMs: 0 });
  const records: CaptureRecord[] = [];
  const read = await readCapture(
    (async function* () {
      yield bytes;
    })(),
    name,
    { rules: [], onRecords: (batch) => void records.push(...batch) },
  );
  const engine = createEngine();
  for (const r of records) engine.push(r);
  return {
    panel,
    cli: {
      format: read.format,
      records: records.length,
      flows: engine.flows().length,
      findings: engine.findings().length,
      problems: read.problems,
    },
  };
}
