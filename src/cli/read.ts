import { constants } from "node:buffer";
import { detectFormat, type CaptureFormat } from "../capture/import.ts";
import { readHead } from "../capture/head.ts";
import { importHarStream } from "../capture/har/stream.ts";
import { importJsonl } from "../capture/jsonl.ts";
import type { Decoder } from "../capture/envelopes/index.ts";
import type { Problem } from "../capture/problem.ts";
import type { CaptureRecord } from "../capture/record.ts";

/** Enough of a file to tell HAR from JSONL (import.ts looks at 4096 characters). */
const HEAD = 4096;

/**
 * A capture file (or standard input) as the CLI reads it: a HAR streams through the importer piece by piece and is
 * never held whole, whatever its size; a JSONL capture is read as one text (at most MAX_STRING_LENGTH). Records
 * go to `onRecords` in capture order.
 */
export async function readCapture(
  input: AsyncIterable<Uint8Array>,
  file: string,
  options: { rules: readonly Decoder[]; onRecords(records: CaptureRecord[]): void },
): Promise<{ format: CaptureFormat; problems: Problem[]; lines?: Map<number, number> }> {
  const pieces = input[Symbol.asyncIterator]();
  try {
    const head = await readHead(pieces, HEAD);
    const format = detectFormat(head.text, file);
    if (format === "har") return { format, problems: (await importHarStream(head.all, file, options)).problems };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const piece of head.all) {
      size += piece.length;
      if (size > constants.MAX_STRING_LENGTH) throw new TooLarge(size);
      chunks.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    }
    // The encoding readHead told by the byte-order mark (TextDecoder drops a UTF-16 one; the importers drop UTF-8's).
    const bytes = Buffer.concat(chunks);
    const text = head.encoding === "utf-8" ? bytes.toString("utf8") : new TextDecoder(head.encoding).decode(bytes);
    const imported = importJsonl(text, file, options);
    if (imported.records.length) options.onRecords(imported.records);
    return { format, problems: imported.problems, lines: jsonlLines(text) };
  } finally {
    await pieces.return?.();
  }
}

/** What the CLI says of a file it cannot read: too large is said so, with the limit. */
export function readError(error: unknown, size?: number): string {
  const e = error as NodeJS.ErrnoException;
  if (
    e instanceof TooLarge ||
    e.code === "ERR_FS_FILE_TOO_LARGE" ||
    e.code === "ERR_STRING_TOO_LONG" ||
    (e instanceof RangeError && /string length/i.test(e.message))
  ) {
    const bytes = e instanceof TooLarge ? e.bytes : size;
    return `too large to read${bytes !== undefined ? ` (${mb(bytes)})` : ""}: this build reads a capture of at most ${mb(constants.MAX_STRING_LENGTH)} as one text`;
  }
  if (e.code === "ENOENT") return "no such file";
  if (e.code === "EISDIR") return "a directory, not a file";
  return e.message;
}

/**
 * The line (1-based) of each record of a JSONL capture, by seq, for reports that point into the file (SARIF regions,
 * GitHub annotations). A top-level `"seq":` cannot occur inside a record's string values, where quotes are escaped;
 * a file without seqs is numbered in line order, as the importer numbers it.
 */
function jsonlLines(text: string): Map<number, number> {
  const lines = new Map<number, number>();
  let ordinal = 0;
  let at = 0;
  for (let line = 1; at <= text.length; line++) {
    const found = text.indexOf("\n", at);
    const end = found < 0 ? text.length : found;
    // The head of the line is enough: the tap and the exporter write seq second, after v.
    const head = text.slice(at, Math.min(end, at + 200));
    const blank = head.trim() === "" && end - at <= 200;
    at = end + 1;
    if (blank) continue;
    const seq = /"seq":\s*(\d+)/.exec(head);
    lines.set(seq ? Number(seq[1]) : ordinal, line);
    ordinal++;
  }
  return lines;
}

const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;

class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`${bytes} bytes`);
  }
}
