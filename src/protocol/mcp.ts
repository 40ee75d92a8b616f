import { z } from "zod";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "./revision.ts";

/** Error codes the elicitation flows touch (schema.ts of each revision). */
export const ErrorCode = {
  invalidParams: -32602,
  internal: -32603,
  methodNotFound: -32601,
  /** 2025-11-25 only: URLElicitationRequiredError. */
  urlElicitationRequired: -32042,
  /** 2026-07-28: HeaderMismatch (pre-release drafts: -32001). */
  headerMismatch: -32020,
  /** 2026-07-28: MissingRequiredClientCapability (pre-release drafts: -32003). */
  missingRequiredClientCapability: -32021,
  /** 2026-07-28: UnsupportedProtocolVersion (pre-release drafts: -32004). */
  unsupportedProtocolVersion: -32022,
} as const;

const JsonObject = z.record(z.string(), z.unknown());

/** ClientCapabilities.elicitation: 2025-06-18 `object`; 2025-11-25 and 2026-07-28 `{ form?, url? }`. */
export const ElicitationCapability = z.object({ form: JsonObject.optional(), url: JsonObject.optional() }).catchall(z.unknown());
export const ClientCapabilities = z
  .object({
    experimental: JsonObject.optional(),
    roots: JsonObject.optional(),
    sampling: JsonObject.optional(),
    elicitation: ElicitationCapability.optional(),
    /** 2025-11-25 tasks: `tasks.requests.elicitation.create`. */
    tasks: JsonObject.optional(),
    /** 2026-07-28 extensions. */
    extensions: JsonObject.optional(),
  })
  .catchall(z.unknown());
export type ClientCapabilities = z.infer<typeof ClientCapabilities>;

export const Implementation = z.object({ name: z.string(), version: z.string() }).catchall(z.unknown());

/** 2025-06-18 / 2025-11-25 lifecycle. */
export const InitializeRequestParams = z.object({
  protocolVersion: z.string(),
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
});
export const InitializeResult = z.object({
  protocolVersion: z.string(),
  capabilities: JsonObject,
  serverInfo: Implementation,
  instructions: z.string().optional(),
});

/** 2026-07-28 per-request `_meta` (RequestMetaObject): protocolVersion and clientCapabilities are required. */
export const RequestMeta = z
  .object({
    [META_PROTOCOL_VERSION]: z.string(),
    [META_CLIENT_CAPABILITIES]: ClientCapabilities,
    [META_CLIENT_INFO]: Implementation.optional(),
    progressToken: z.union([z.string(), z.number()]).optional(),
  })
  .catchall(z.unknown());

/** 2026-07-28 `server/discover` result. */
export const DiscoverResult = z.object({
  supportedVersions: z.array(z.string()),
  capabilities: JsonObject,
  instructions: z.string().optional(),
});

/** 2026-07-28 MissingRequiredClientCapabilityError data. */
export const MissingCapabilityData = z.object({ requiredCapabilities: ClientCapabilities });
