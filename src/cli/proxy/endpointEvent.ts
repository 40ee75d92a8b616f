/**
 * The HTTP+SSE transport (2024-11-05) opens its stream with an `endpoint` event whose data is the URL the client
 * must POST to. Behind the proxy that URL must point back at the proxy, so the first event of a GET stream is held
 * until its blank line (the client could not dispatch it any earlier) and rewritten when it is an `endpoint`
 * event; every byte after it passes untouched. Comment-only blocks before it (keep-alives) pass as they come.
 */
export interface EndpointRewriter {
  /** The bytes to forward now for this chunk (possibly none while the first event is incomplete). */
  push(chunk: Buffer): Buffer | undefined;
  /** The stream ended: whatever is still held, unchanged. */
  flush(): Buffer | undefined;
}

/** A blank line after a line end: CRLF, LF or a lone CR each end a line (HTML §9.2.5). */
const BLANK_LINE = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/;
const LINE_END = /\r\n|\r|\n/;

export function createEndpointRewriter(rewrite: (data: string) => string | undefined): EndpointRewriter {
  let held: Buffer | undefined;
  let done = false;
  /** The replaced event ended on a CR that may be half of a CRLF: its LF, if it comes next, belonged to it. */
  let dropLf = false;
  return {
    push(chunk) {
      if (done) {
        if (dropLf && chunk[0] === 0x0a) chunk = chunk.subarray(1);
        dropLf = false;
        return chunk.length > 0 ? chunk : undefined;
      }
      held = held ? Buffer.concat([held, chunk]) : chunk;
      const out: Buffer[] = [];
      for (;;) {
        // latin1 maps bytes to characters one to one, so an index in the text is an index in the bytes.
        const match = BLANK_LINE.exec(held.toString("latin1"));
        if (!match) break;
        const end = match.index + match[0].length;
        const block = held.subarray(0, end);
        held = held.subarray(end);
        const fields = parseBlock(block.toString("utf8"));
        if (fields.data === undefined && fields.event === undefined) {
          out.push(block);
          continue;
        }
        done = true;
        const replaced = fields.event === "endpoint" && fields.data !== undefined ? rewrite(fields.data) : undefined;
        out.push(replaced === undefined ? block : Buffer.from(endpointBlock(fields.id, replaced), "utf8"), held);
        dropLf = replaced !== undefined && held.length === 0 && block[block.length - 1] === 0x0d;
        held = undefined;
        break;
      }
      return out.length === 0 ? undefined : out.length === 1 ? out[0] : Buffer.concat(out);
    },
    flush() {
      const rest = held;
      held = undefined;
      done = true;
      return rest && rest.length > 0 ? rest : undefined;
    },
  };
}

function parseBlock(text: string): { data?: string; event?: string; id?: string } {
  let data: string[] | undefined;
  let event: string | undefined;
  let id: string | undefined;
  for (const line of text.split(LINE_END)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") (data ??= []).push(value);
    else if (name === "event") event = value;
    else if (name === "id") id = value;
  }
  return {
    ...(data && { data: data.join("\n") }),
    ...(event !== undefined && { event }),
    ...(id !== undefined && { id }),
  };
}

const endpointBlock = (id: string | undefined, data: string): string =>
  `event: endpoint\n${id !== undefined ? `id: ${id}\n` : ""}data: ${data}\n\n`;
