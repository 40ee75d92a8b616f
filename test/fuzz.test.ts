import { test } from "node:test";
import fc from "fast-check";
import { harInput, jsonlInput, sseInput } from "./fuzz/arbitraries.ts";
import { checkInput } from "./fuzz/properties.ts";
import { checkSameAsCli, savedInput } from "./fuzz/sameAsCli.ts";

/**
 * The fuzz properties (test/fuzz/properties.ts), bounded to a few seconds each so they run in every `npm test`;
 * `npm run fuzz` runs 1,000,000 inputs. A failure prints fast-check's shrunk reproducer and its seed.
 * A fixed seed and count, so every run of `npm test` checks the same inputs (a time limit would check more of them
 * on a faster machine, and CI could meet an input no run here met). FUZZ_SEED and FUZZ_RUNS explore further;
 * `npm run fuzz` draws new seeds.
 */
const options = {
  seed: Number(process.env.FUZZ_SEED ?? 20261201),
  numRuns: Number(process.env.FUZZ_RUNS ?? 300),
} as const;

test("fuzz: JSONL captures (mutated records and messages)", () =>
  fc.assert(fc.property(jsonlInput, checkInput), options));
test("fuzz: HAR captures (our export, mutated as a HAR tree)", () =>
  fc.assert(fc.property(harInput, checkInput), options));
test("fuzz: SSE framing in HAR entries", () => fc.assert(fc.property(sseInput, checkInput), options));

// The panel's import of a file's bytes against the CLI's, on the same generated captures saved as UTF-8 or UTF-16.
test("fuzz: the panel imports a file's bytes as the CLI does (UTF-8 and UTF-16)", () =>
  fc.assert(
    fc.asyncProperty(savedInput, ([input, encoding]) => checkSameAsCli(input, encoding)),
    options,
  ));
