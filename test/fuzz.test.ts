import { test } from "node:test";
import fc from "fast-check";
import { harInput, jsonlInput, sseInput } from "./fuzz/arbitraries.ts";
import { checkInput } from "./fuzz/properties.ts";

/**
 * The fuzz properties (test/fuzz/properties.ts), bounded to a few seconds each so they run in every `npm test`;
 * `npm run fuzz` runs 1,000,000 inputs. A failure prints fast-check's shrunk reproducer and its seed.
 */
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 2);
const options = { numRuns: 1_000_000, interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false } as const;

test("fuzz: JSONL captures (mutated records and messages)", () => fc.assert(fc.property(jsonlInput, checkInput), options));
test("fuzz: HAR captures (our export, mutated as a HAR tree)", () => fc.assert(fc.property(harInput, checkInput), options));
test("fuzz: SSE framing in HAR entries", () => fc.assert(fc.property(sseInput, checkInput), options));
