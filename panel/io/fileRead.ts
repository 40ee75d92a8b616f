/** A file as the import worker gets it: a File (a Blob with a name); tests may pass only its text. */
export type ImportSource = { name: string; size?: number; stream?(): ReadableStream<Uint8Array>; text(): Promise<string> };

/** Text encoded at once for a source that has only its text (tests), in characters. */
const TEXT_PIECE = 64 * 1024;

/**
 * A file's bytes as they are read, counted in `read.bytes` (the first bytes are in hand after one disk read). A
 * source with only its text is encoded to UTF-8 piece by piece, never between the halves of a surrogate pair.
 * Closing the generator early cancels the file's stream.
 */
export async function* fileBytes(file: ImportSource, read: { bytes: number }): AsyncGenerator<Uint8Array> {
  read.bytes = 0;
  if (typeof file.stream === "function") {
    const reader = file.stream().getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        read.bytes += value.byteLength;
        yield value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
  const text = await file.text();
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + TEXT_PIECE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    const bytes = encoder.encode(text.slice(at, end));
    at = end;
    read.bytes += bytes.byteLength;
    yield bytes;
  }
}

/** Bytes as text, decoded as TextDecoderStream would (UTF-8, a BOM dropped, bad bytes replaced). */
export async function* textOf(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const piece of bytes) {
    const text = decoder.decode(piece, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

/**
 * The first `n` bytes or more (whole pieces) of `source`, as text to tell the format by (UTF-16 with a BOM as
 * such, UTF-8 otherwise, as the CLI reads a file: src/cli/read.ts), and every piece again from the first.
 */
export async function readHead(source: AsyncGenerator<Uint8Array>, n: number): Promise<{ text: string; all: AsyncGenerator<Uint8Array> }> {
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
  const label = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  async function* all(): AsyncGenerator<Uint8Array> {
    try {
      yield* head.splice(0);
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } finally {
      await source.return(undefined);
    }
  }
  // Only the head is looked at (import.ts: 4096 characters); a sequence cut at its end decodes to U+FFFD.
  return { text: new TextDecoder(label).decode(bytes.subarray(0, 4 * n)), all: all() };
}
