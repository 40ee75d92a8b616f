// The panel's one door to the filter language (panel/filter.ts).
export { matchFlow, parseFilter } from "./filter.ts";
export type { ParsedFilter as Filter } from "./filter.ts";
