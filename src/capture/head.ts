/** How a capture's bytes are read: UTF-16 when a byte-order mark says so, UTF-8 otherwise. */
export type CaptureEncoding = "utf-8" | "utf-16le" | "utf-16be";

/**
 * The first `n` bytes or more (whole pieces) of a capture, as text to tell its format by (`encoding`: UTF-16 with a BOM
 * as such, UTF-8 otherwise), and every piece again from the first. The CLI (src/cli/read.ts) and the panel's import
 * worker (panel/io/importFile.ts) both read a file's head this way. Reading `all` to its end, or closing it early,
 * closes `source`.
 */
export async function readHead(
  source: AsyncIterator<Uint8Array>,
  n: number,
): Promise<{ text: string; encoding: CaptureEncoding; all: AsyncGenerator<Uint8Array> }> {
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < n) {
    const next = await source.next();
    if (next.done) break;
    head.push(next.value);
    size += next.value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of head) bytes.set(piece, (at += piece.byteLength) - piece.byteLength);
  const encoding: CaptureEncoding =
    bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  async function* all(): AsyncGenerator<Uint8Array> {
    try {
      yield* head.splice(0);
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } finally {
      await source.return?.(undefined);
    }
  }
  // Only the head is looked at (import.ts: 4096 characters); a sequence cut at its end decodes to U+FFFD.
  return { text: new TextDecoder(encoding).decode(bytes.subarray(0, 4 * n)), encoding, all: all() };
}
