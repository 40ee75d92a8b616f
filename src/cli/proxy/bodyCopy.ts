import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** A copy of a body, decoded to text as it arrives, for the recorder; the forwarded bytes are never touched. */
export interface BodyCopy {
  write(chunk: Buffer): void;
  /** The body ended; `done` runs once every decoded byte has reached `onText`. */
  end(done: () => void): void;
}

const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Text of a body, piece by piece. A `Content-Encoding` the proxy knows is undone on the copy (the agent still gets
 * the compressed bytes); an unknown one leaves the copy as is, and its text is what the engine then reports.
 */
export function createBodyCopy(contentEncoding: string | undefined, onText: (text: string) => void): BodyCopy {
  const decoder = new TextDecoder();
  const coding = (contentEncoding ?? "").trim().toLowerCase();
  const make = decoders[coding];
  if (!make) {
    return {
      write: (chunk) => onText(decoder.decode(chunk, { stream: true })),
      end(done) {
        const rest = decoder.decode();
        if (rest) onText(rest);
        done();
      },
    };
  }
  const inflate = make();
  let over = false;
  let whenOver: (() => void) | undefined;
  const finish = (): void => {
    if (over) return;
    over = true;
    const rest = decoder.decode();
    if (rest) onText(rest);
    whenOver?.();
  };
  inflate.on("data", (chunk: Buffer) => onText(decoder.decode(chunk, { stream: true })));
  inflate.on("end", finish);
  // A corrupt compressed body: the agent gets its bytes as they were; the copy stops where it broke.
  inflate.on("error", finish);
  return {
    write: (chunk) => void (!over && inflate.write(chunk)),
    end(done) {
      if (over) return done();
      whenOver = done;
      inflate.end();
    },
  };
}
