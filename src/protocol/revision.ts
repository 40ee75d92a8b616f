/** Protocol revisions the inspector knows. Dated strings; anything else is kept as seen. */
export const revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type KnownRevision = (typeof revisions)[number];
export type Revision = KnownRevision | (string & {});

export const MODERN: KnownRevision = "2026-07-28";

/** Stateless era (2026-07-28 and later drafts): capabilities per request, MRTR, no server requests. */
export const isModern = (rev: Revision | null | undefined): boolean => rev != null && rev >= MODERN;
/** Elicitation exists from 2025-06-18 on. */
export const hasElicitation = (rev: Revision | null | undefined): boolean => rev != null && rev >= "2025-06-18";
/** URL mode, SEP-1034 defaults and SEP-1330 enums exist from 2025-11-25 on. */
export const hasUrlMode = (rev: Revision | null | undefined): boolean => rev != null && rev >= "2025-11-25";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_RELATED_TASK = "io.modelcontextprotocol/related-task";
