import { isObject } from "../util/json.ts";

/** mode(EP): EP.mode if a string, else "form" (§ "Elicitation Requests": a missing mode means form). */
export const elicitMode = (ep: unknown): string => (isObject(ep) && typeof ep.mode === "string" ? ep.mode : "form");
