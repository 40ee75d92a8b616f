import * as z from "zod/mini";
import { DIRECTIONS, KEPT_HEADERS, STREAM_KINDS, TRANSPORTS, type KeptHeader } from "../capture/kinds.ts";
import type { CaptureRecord } from "../capture/record.ts";
import { MESSAGE_CAP } from "./tags.ts";

/**
 * A capture record as the page tap makes it: everything but `seq` and `v`, which the worker assigns on arrival
 * (one seq space per tab). Written with zod/mini (~15 KB) because the content relay runs in every frame of every
 * page and full zod would add ~450 KB to it; the type check at the bottom keeps it equal to
 * src/capture/record.ts, so the two cannot drift apart unnoticed.
 */
const text = z.string().check(z.maxLength(MESSAGE_CAP));
const short = z.string().check(z.maxLength(8192));

const Headers = z.object(
  Object.fromEntries(KEPT_HEADERS.map((name) => [name, z.optional(short)])) as {
    [K in KeptHeader]: z.ZodMiniOptional<typeof short>;
  },
);

const base = {
  time: z.number(),
  transport: z.enum(TRANSPORTS),
  exchange: z.optional(short),
  url: z.optional(text),
  client: z.optional(short),
};

export const TapMessage = z.object({
  ...base,
  kind: z.literal("message"),
  direction: z.enum(DIRECTIONS),
  stream: z.enum(STREAM_KINDS),
  method: z.optional(short),
  headers: z.optional(Headers),
  eventId: z.optional(short),
  event: z.optional(short),
  text,
  truncated: z.optional(z.int()),
  // Set by the worker's envelope stage (src/capture/envelopes), not by the tap; here so the types stay equal.
  envelope: z.optional(short),
  server: z.optional(text),
  via: z.optional(text),
  upstreamTransport: z.optional(short),
});

export const TapResponse = z.object({
  ...base,
  kind: z.literal("response"),
  status: z.int(),
  headers: z.optional(Headers),
  emptyBody: z.optional(z.boolean()),
});

export const TapEnd = z.object({
  ...base,
  kind: z.literal("end"),
  error: z.optional(short),
});

/** A request of the page for a relayed URL-mode ask's URL (page/relay.ts `createAskUrls`): method, origin, path. */
export const TapPageRequest = z.object({
  ...base,
  kind: z.literal("page-request"),
  method: short,
  // Only HAR imports set it; here so the types stay equal.
  metadata: z.optional(
    z.object({
      resource: z.optional(short),
      authorizationServers: z.optional(z.array(short)),
      issuer: z.optional(short),
      authorizationEndpoint: z.optional(short),
    }),
  ),
});

export const TapRecord = z.discriminatedUnion("kind", [TapMessage, TapResponse, TapEnd, TapPageRequest]);
export type TapRecord = z.infer<typeof TapRecord>;

/**
 * The record types without the fields the worker assigns (and `entry`, which only HAR imports have); the tap's only
 * `page-request` records are the page's requests for a relayed URL-mode ask's URL.
 */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type RecordDraft = DistributiveOmit<CaptureRecord, "seq" | "v" | "entry">;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<TapRecord, RecordDraft> = true;
void sameShape;
