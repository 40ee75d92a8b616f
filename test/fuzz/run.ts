// `npm run fuzz`: the properties of test/fuzz/properties.ts over 1,000,000 generated inputs (FUZZ_RUNS to change
// it, FUZZ_SEED to start elsewhere). Runs in chunks, each with its own seed, so that a failure (shrunk by
// fast-check to a minimal reproducer, printed with its seed and path) does not end the run; prints the rate as it
// goes. Exit 1 when any input failed. Run it with `nice` on a shared machine.
import fc from "fast-check";
import { anyInput, harInput, jsonlInput, sseInput, type Input } from "./arbitraries.ts";
import { checkInput } from "./properties.ts";

const total = Number(process.env.FUZZ_RUNS ?? process.argv[2] ?? 1_000_000);
const chunk = Math.min(total, Number(process.env.FUZZ_CHUNK ?? 10_000));
let seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const only = process.env.FUZZ_ONLY;
const arbitrary = only === "jsonl" ? jsonlInput : only === "har" ? harInput : only === "sse" ? sseInput : anyInput;

const started = Date.now();
let done = 0;
const failures: { seed: number; path?: string; error: string; input: Input }[] = [];
const seen = new Set<string>();
console.log(`fuzz: ${total} inputs (${only ?? "JSONL, HAR and SSE-framed HAR"}), first seed ${seed}`);
while (done < total) {
  const runs = Math.min(chunk, total - done);
  const result = fc.check(fc.property(arbitrary, (input) => checkInput(input)), { numRuns: runs, seed });
  const ran = result.failed ? result.numRuns : runs;
  done += ran;
  if (result.failed) {
    const error = String((result.errorInstance as Error)?.message ?? result.errorInstance).split("\n")[0]!;
    const input = result.counterexample![0] as Input;
    const key = error.replace(/\d+/g, "#").slice(0, 120);
    failures.push({ seed, ...(result.counterexamplePath && { path: result.counterexamplePath }), error, input });
    if (!seen.has(key)) {
      seen.add(key);
      console.log(`\nFAILURE ${failures.length} (seed ${seed}, path ${result.counterexamplePath}): ${error}`);
      console.log(`  minimised ${input.format} input (${input.text.length} chars): ${JSON.stringify(input.text.length > 3000 ? input.text.slice(0, 3000) + "…" : input.text)}`);
    } else console.log(`\nFAILURE ${failures.length} (seed ${seed}): same as an earlier one: ${error.slice(0, 160)}`);
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`fuzz: ${done} inputs, ${failures.length} failures, ${Math.round(done / seconds)} inputs/s, ${Math.round(seconds)} s`);
  seed = (seed + 7919) % 2 ** 31;
}
const seconds = (Date.now() - started) / 1000;
for (const key of seen) console.log(`  distinct failure: ${key}`);
console.log(`\nfuzz: ${done} inputs in ${seconds.toFixed(0)} s (${Math.round(done / seconds)} inputs/s), ${failures.length} failures (${seen.size} distinct)`);
process.exitCode = failures.length ? 1 : 0;
