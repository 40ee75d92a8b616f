/**
 * Elicitation on the wire (client/elicitation.mdx of each revision; schema.ts is normative). The payload shapes
 * are not modelled here: the rules in src/engine/rules say precisely how traffic deviates from them.
 */
export const ELICIT_METHOD = "elicitation/create";
export const ELICIT_COMPLETE = "notifications/elicitation/complete";
