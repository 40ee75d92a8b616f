import { createDecoders, DECODE_PREFIX } from "./decoders.ts";
import { createGeneric, GENERIC } from "./generic.ts";
import { createInspectorV2, INSPECTOR_V2 } from "./inspectorV2.ts";
import { createMcpB, MCP_B } from "./mcpB.ts";
import { createProxyQuery, PROXY } from "./proxyQuery.ts";
import { createRelay, RELAY_PREFIX } from "./relay.ts";
import { NOT_JSON, type Adapter, type Decoder, type Draft, type Seen, type Tally } from "./types.ts";

/**
 * The envelope stage: MCP that a page carries inside a host's own envelope (a backend API, a postMessage wrapper,
 * a proxy's query, a user's decode rule) becomes the records the engine reads. It runs wherever records are made
 * — the worker before it numbers and stores the tap's records, importHar, importJsonl, the CLI — and is pure and
 * stateful (Inspector v2's connect answer names the upstream of later sends). docs/capture-format.md, "Envelopes".
 */
export type { Decoder, Draft } from "./types.ts";
export { validateDecoder, validateDecoders } from "./decoders.ts";
export { envelopeEndpoints } from "./endpoints.ts";

export interface Unwrapper {
  /**
   * One captured record → what to store: itself (bare MCP, or not a message), the MCP message(s) its envelope
   * carries, stamped, or nothing (an envelope body that carries no MCP: a wrapper, `{"ok":true}`). Never throws.
   */
  push(record: Draft): Draft[];
  /**
   * Messages recognised, by envelope stamp: `inspector-v2`, `mcp-b`, `generic`, `proxy`, `decode:<rule id>`; and
   * `unreadable`: envelope bodies that could not be read (bad JSON, a payload that is not JSON-RPC), dropped.
   */
  counts(): Record<string, number>;
}

/** What the panel says a message came through ("via MCP Inspector backend"); decode rules show their own label. */
export const ENVELOPE_LABELS: Record<string, string> = {
  [INSPECTOR_V2]: "MCP Inspector backend",
  [MCP_B]: "MCP-B postMessage",
  [GENERIC]: "nested JSON-RPC",
  [PROXY]: "proxy",
};

/** The label of any stamp: a decode rule's is "decode rule <id>" unless the caller knows the rule's label. */
export const envelopeLabel = (envelope: string): string =>
  ENVELOPE_LABELS[envelope] ??
  (envelope.startsWith(DECODE_PREFIX)
    ? `decoder ${envelope.slice(DECODE_PREFIX.length)}`
    : envelope.startsWith(RELAY_PREFIX)
      ? `relayed by the app (${envelope.slice(RELAY_PREFIX.length)})`
      : envelope);
export { RELAY_PREFIX };

export function createUnwrapper(options: { rules?: readonly Decoder[] } = {}): Unwrapper {
  // Order matters: a user's rule is explicit and wins; the host adapters are tied to URLs and tags; the generic
  // fallback takes what is left; an elicitation relayed in an app's own shape is no MCP message at all.
  const adapters: Adapter[] = [
    createDecoders(options.rules ?? []),
    createInspectorV2(),
    createMcpB(),
    createProxyQuery(),
    createGeneric(),
    createRelay(),
  ];
  const counts: Record<string, number> = {};
  const count = (key: string): void => void (counts[key] = (counts[key] ?? 0) + 1);
  const tally: Tally = { found: count, unreadable: () => count("unreadable") };

  return {
    push(record: Draft): Draft[] {
      let parsed: unknown;
      let done = false;
      const seen: Seen = {
        record,
        json() {
          if (!done) {
            done = true;
            parsed = parse(record);
          }
          return parsed;
        },
      };
      try {
        // Stamped already (a JSONL capture, our HAR export's records, the stored records a woken worker replays):
        // the envelope was opened when it was captured; the adapters relearn what they keep of the host's session
        // from it (Inspector v2's session → upstream, a proxied HTTP+SSE stream's endpoint → its POST URL).
        if (record.kind === "message" && (record.envelope !== undefined || record.stream === "envelope")) {
          for (const adapter of adapters) adapter.learn?.(record);
          return [record];
        }
        for (const adapter of adapters) {
          const out = adapter.push(seen, tally);
          if (out !== undefined) return out;
        }
      } catch {
        // A bug in an adapter must not lose the record: it goes on as it came, counted.
        count("failed");
      }
      return [record];
    },
    counts: () => ({ ...counts }),
  };
}

function parse(record: Draft): unknown {
  if (record.kind !== "message" || record.truncated !== undefined) return NOT_JSON;
  const text = record.text;
  const first = text.trimStart().charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}
