import type { CaptureEncoding } from "../../src/capture/head.ts";

/** A file as the import worker gets it: a File (a Blob with a name); tests may pass only its text. */
export type ImportSource = {
  name: string;
  size?: number;
  stream?(): ReadableStream<Uint8Array>;
  text(): Promise<string>;
};

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

/** Bytes as text, decoded as TextDecoderStream would (a BOM dropped, bad bytes replaced): UTF-8 unless told. */
export async function* textOf(
  bytes: AsyncIterable<Uint8Array>,
  encoding: CaptureEncoding = "utf-8",
): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const piece of bytes) {
    const text = decoder.decode(piece, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}
