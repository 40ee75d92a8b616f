import * as z from "zod/mini";
import type { Decoder as EnvelopeRule } from "../capture/envelopes/index.ts";
import { MAX_DECODE_RULES, MAX_RULE_URL } from "./tags.ts";

/**
 * "Decode as MCP" rules (issue 9 item 4), as the panel asks for one and as the worker keeps them. The worker checks
 * every rule the panel sends against `DecoderInput` and gives it its id; what it stores (storage.local,
 * `StoredDecoders`) is read back through the same schema on every wake. The engine side of a rule (what its pointer
 * and direction do to a record) is src/capture/envelopes/decoders.ts.
 */
/** RFC 6901: "" (the whole body) or `/`-separated reference tokens; `~` only as the escapes `~0` and `~1`. */
const Pointer = z.string().check(
  z.maxLength(1024),
  z.refine((p) => (p === "" || p.startsWith("/")) && !/~[^01]|~$/.test(p)),
);
const base = {
  label: z.optional(z.string().check(z.maxLength(200))),
  /** Matched against the full request URL (the origin, for window messages): `*` wildcards, else a substring. */
  url: z.string().check(z.minLength(1), z.maxLength(MAX_RULE_URL)),
  /** An HTTP method token (absent: any method, and traffic without one). */
  method: z.optional(z.string().check(z.regex(/^[A-Za-z]{1,16}$/))),
};
/** "Decode as MCP": where the MCP message lies, and which way it goes. */
const McpDecoderInput = z.object({
  ...base,
  kind: z.optional(z.undefined()),
  pointer: Pointer,
  direction: z.enum(["c2s", "s2c", "both"]),
});
/** "Decode as relayed elicitation": where the ask, its id, the answer's action, content and id lie. */
const RelayDecoderInput = z
  .object({
    ...base,
    kind: z.literal("relay"),
    ask: z.optional(Pointer),
    askId: z.optional(Pointer),
    action: z.optional(Pointer),
    content: z.optional(Pointer),
    answerId: z.optional(Pointer),
  })
  .check(z.refine((d) => d.ask !== undefined || d.action !== undefined));
export const DecoderInput = z.union([McpDecoderInput, RelayDecoderInput]);
export type DecoderInput = z.infer<typeof DecoderInput>;

/** Given by the worker: `d1`, `d2`, …, never reused (the panel's counts and the records' `decode:<id>` name it). */
const Id = z.string().check(z.regex(/^d[1-9]\d{0,8}$/));
export const Decoder = z.union([z.extend(McpDecoderInput, { id: Id }), z.extend(RelayDecoderInput, { id: Id })]);
export type Decoder = z.infer<typeof Decoder>;

/** The storage.local value (tags.ts DECODERS_KEY); `rev` grows with each change (src/content/decoders.ts). */
export const StoredDecoders = z.object({
  rev: z.int().check(z.nonnegative()),
  /** The number of the next rule's id. */
  next: z.int().check(z.positive()),
  rules: z.array(Decoder).check(z.maxLength(MAX_DECODE_RULES)),
});
export type StoredDecoders = z.infer<typeof StoredDecoders>;

// The rule the worker keeps is the rule the envelope stage applies (src/capture/envelopes/types.ts).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRule: Same<Decoder, EnvelopeRule> = true;
void sameRule;
