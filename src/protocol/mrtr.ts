import { z } from "zod";

/** 2026-07-28 Multi Round-Trip Requests (basic/patterns/mrtr.mdx; schema.ts InputRequiredResult). */
export const ResultType = z.enum(["complete", "input_required"]);
export const INPUT_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;
export const InputRequest = z.object({ method: z.enum(INPUT_METHODS), params: z.record(z.string(), z.unknown()).optional() });
export const InputRequiredResult = z.object({
  resultType: z.literal("input_required"),
  inputRequests: z.record(z.string(), InputRequest).optional(),
  requestState: z.string().optional(),
});
export const InputResponseRequestParams = z.object({
  inputResponses: z.record(z.string(), z.unknown()).optional(),
  requestState: z.string().optional(),
});
/** Only these requests may be answered with an InputRequiredResult (mrtr.mdx § "Supported Requests"). */
export const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);
