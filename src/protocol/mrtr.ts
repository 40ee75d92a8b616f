/** 2026-07-28 Multi Round-Trip Requests (basic/patterns/mrtr.mdx; schema.ts InputRequiredResult). */
export const INPUT_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;
/** Only these requests may be answered with an InputRequiredResult (mrtr.mdx § "Supported Requests"). */
export const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);
