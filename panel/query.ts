// The panel's one door to the filter language (panel/filter.ts).
export { matchFlow, parseFilter } from "./model/filter.ts";
export type { ParsedFilter as Filter } from "./model/filter.ts";
