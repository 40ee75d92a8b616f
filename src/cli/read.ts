import { constants } from "node:buffer";
import { readFile } from "node:fs/promises";

/** A capture file as text. UTF-16 files (with a BOM) are decoded as such; UTF-8 otherwise (a UTF-8 BOM is dropped by the importers). */
export async function readCaptureFile(file: string): Promise<string> {
  const bytes = await readFile(file);
  return decodeCapture(bytes);
}

export function decodeCapture(bytes: Buffer): string {
  if (bytes.length > constants.MAX_STRING_LENGTH) throw new TooLarge(bytes.length);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  return bytes.toString("utf8");
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
