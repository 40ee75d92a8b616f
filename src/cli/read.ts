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
): Promise<{ format: CaptureFormat; problems: Problem[] }> {
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
    return { format, problems: imported.problems };
  } finally {
    await pieces.return?.();
  }
}

/** What the CLI says of a file it cannot read: too large is said so, with the limit. */
export function readError(error: unknown, size?: number): string {
  const e = error as NodeJS.ErrnoException;
  if (e instanceof TooLarge || e.code === "ERR_FS_FILE_TOO_LARGE" || e.code === "ERR_STRING_TOO_LONG" || (e instanceof RangeError && /string length/i.test(e.message))) {
    const bytes = e instanceof TooLarge ? e.bytes : size;
    return `too large to read${bytes !== undefined ? ` (${mb(bytes)})` : ""}: this build reads a capture of at most ${mb(constants.MAX_STRING_LENGTH)} as one text`;
  }
  if (e.code === "ENOENT") return "no such file";
  if (e.code === "EISDIR") return "a directory, not a file";
  return e.message;
}

const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;

class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`${bytes} bytes`);
  }
}
