import { z } from "zod";

/**
 * Elicitation wire models after schema.ts (normative; schema.json has known errors, rules.md §5).
 * These describe valid traffic; the rules in src/engine/rules say precisely how traffic deviates.
 */
const Str = z.string();

export const StringSchema = z.object({
  type: z.literal("string"),
  title: Str.optional(),
  description: Str.optional(),
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  /** 2025-11-25 on (SEP-1034). */
  default: Str.optional(),
});
export const NumberSchema = z.object({
  type: z.enum(["number", "integer"]),
  title: Str.optional(),
  description: Str.optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
export const BooleanSchema = z.object({ type: z.literal("boolean"), title: Str.optional(), description: Str.optional(), default: z.boolean().optional() });
export const UntitledSingleSelectEnumSchema = z.object({ type: z.literal("string"), title: Str.optional(), description: Str.optional(), enum: z.array(Str), default: Str.optional() });
export const TitledSingleSelectEnumSchema = z.object({
  type: z.literal("string"),
  title: Str.optional(),
  description: Str.optional(),
  oneOf: z.array(z.object({ const: Str, title: Str })),
  default: Str.optional(),
});
export const UntitledMultiSelectEnumSchema = z.object({
  type: z.literal("array"),
  title: Str.optional(),
  description: Str.optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.object({ type: z.literal("string"), enum: z.array(Str) }),
  default: z.array(Str).optional(),
});
export const TitledMultiSelectEnumSchema = z.object({
  type: z.literal("array"),
  title: Str.optional(),
  description: Str.optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.object({ anyOf: z.array(z.object({ const: Str, title: Str })) }),
  default: z.array(Str).optional(),
});
/** Deprecated from 2025-11-25; the standard EnumSchema in 2025-06-18. */
export const LegacyTitledEnumSchema = z.object({ type: z.literal("string"), title: Str.optional(), description: Str.optional(), enum: z.array(Str), enumNames: z.array(Str).optional(), default: Str.optional() });

export const PrimitiveSchemaDefinition = z.union([
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  StringSchema,
  NumberSchema,
  BooleanSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema,
]);

export const RequestedSchema = z.object({
  $schema: Str.optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinition),
  required: z.array(Str).optional(),
});

export const ElicitRequestFormParams = z.object({
  mode: z.literal("form").optional(),
  message: Str,
  requestedSchema: RequestedSchema,
});
/** 2025-11-25: elicitationId required. 2026-07-28: removed. */
export const ElicitRequestURLParams2025 = z.object({ mode: z.literal("url"), message: Str, elicitationId: Str, url: Str });
export const ElicitRequestURLParams2026 = z.object({ mode: z.literal("url"), message: Str, url: Str });

export const ElicitAction = z.enum(["accept", "decline", "cancel"]);
/** content values: 2025-06-18 string | number | boolean; 2025-11-25 on also string[]. */
export const ElicitResult = z.object({
  action: ElicitAction,
  content: z.record(z.string(), z.union([Str, z.number(), z.boolean(), z.array(Str)])).optional(),
});
export type ElicitResult = z.infer<typeof ElicitResult>;

/** 2025-11-25 only. */
export const ElicitationCompleteNotificationParams = z.object({ elicitationId: Str });
/** 2025-11-25 only: URLElicitationRequiredError (-32042) data. */
export const UrlElicitationRequiredData = z.object({ elicitations: z.array(ElicitRequestURLParams2025).min(1) });

export const ELICIT_METHOD = "elicitation/create";
export const ELICIT_COMPLETE = "notifications/elicitation/complete";
