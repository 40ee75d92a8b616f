// `npm run fuzz`: the properties of test/fuzz/properties.ts over 1,000,000 generated inputs (FUZZ_RUNS to change
// it, FUZZ_SEED to start elsewhere, FUZZ_ONLY=jsonl|har|sse|file for one generator; `file` is the panel's import of
// a generated capture saved as UTF-8 or UTF-16 against the CLI's: test/fuzz/sameAsCli.ts). The generators take turns in
// chunks of FUZZ_CHUNK inputs, each chunk with its own seed, so that a failure (shrunk by fast-check to a minimal
// reproducer, printed with its generator, seed and path) does not end the run. Prints the rate as it goes, in
// inputs per CPU-second of this process (a shared machine's load does not change it), per generator. Exit 1 when
// any input failed. Run it with `nice` on a shared machine.
import fc from "fast-check";
import { harInput, jsonlInput, sseInput, type Input } from "./arbitraries.ts";
import { checkInput } from "./properties.ts";
import { checkSameAsCli, savedInput } from "./sameAsCli.ts";

/** Each generator's property: the three of properties.ts, and the panel's import of a saved file against the CLI's. */
const GENERATORS = {
  jsonl: () => fc.property(jsonlInput, (input) => checkInput(input)),
  har: () => fc.property(harInput, (input) => checkInput(input)),
  sse: () => fc.property(sseInput, (input) => checkInput(input)),
  file: () => fc.asyncProperty(savedInput, ([input, encoding]) => checkSameAsCli(input, encoding)),
} as const;
type Name = keyof typeof GENERATORS;

const total = Number(process.env.FUZZ_RUNS ?? process.argv[2] ?? 1_000_000);
const chunk = Math.min(total, Number(process.env.FUZZ_CHUNK ?? 5_000));
let seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const only = process.env.FUZZ_ONLY;
if (only !== undefined && !(only in GENERATORS))
  throw new Error(`FUZZ_ONLY=${only}: one of ${Object.keys(GENERATORS).join(", ")}`);
const names = (only ? [only] : Object.keys(GENERATORS)) as Name[];

const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const stats = Object.fromEntries(names.map((n) => [n, { inputs: 0, cpu: 0, failures: 0 }])) as Record<
  Name,
  { inputs: number; cpu: number; failures: number }
>;
const rate = (inputs: number, seconds: number): number => Math.round(inputs / Math.max(seconds, 1e-9));
const rates = (): string => names.map((n) => `${n} ${rate(stats[n].inputs, stats[n].cpu)}`).join(", ");

const startedCpu = cpu();
const started = Date.now();
let done = 0;
let failures = 0;
const seen = new Set<string>();
console.log(`fuzz: ${total} inputs (${names.join(", ")} in turn, ${chunk} a chunk), first seed ${seed}`);
while (done < total) {
  for (const name of names) {
    if (done >= total) break;
    const runs = Math.min(chunk, total - done);
    const before = cpu();
    // A sync property's check returns its result, an async one's a promise of it.
    const property: fc.IRawProperty<unknown[]> = GENERATORS[name]();
    const result = await fc.check(property, { numRuns: runs, seed });
    const ran = result.failed ? result.numRuns : runs;
    stats[name].cpu += cpu() - before;
    stats[name].inputs += ran;
    done += ran;
    if (result.failed) {
      failures++;
      stats[name].failures++;
      const error = String((result.errorInstance as Error)?.message ?? result.errorInstance).split("\n")[0]!;
      const example = result.counterexample![0] as Input | [Input, string];
      const input = Array.isArray(example)
        ? { ...example[0], format: `${example[0].format} saved as ${example[1]}` }
        : example;
      const key = `${name}: ${error.replace(/\d+/g, "#").slice(0, 120)}`;
      const where = `${name}, seed ${seed}, path ${result.counterexamplePath}; again: FUZZ_ONLY=${name} FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`;
      if (!seen.has(key)) {
        seen.add(key);
        console.log(`\nFAILURE ${failures} (${where}): ${error}`);
        console.log(
          `  minimised ${input.format} input (${input.text.length} chars): ${JSON.stringify(input.text.length > 3000 ? input.text.slice(0, 3000) + "…" : input.text)}`,
        );
      } else console.log(`\nFAILURE ${failures} (${where}): same as an earlier one: ${error.slice(0, 160)}`);
    }
    seed = (seed + 7919) % 2 ** 31;
  }
  const seconds = cpu() - startedCpu;
  console.log(
    `fuzz: ${done} inputs, ${failures} failures, ${rate(done, seconds)} inputs/CPU-s (${rates()}), ${Math.round(seconds)} CPU-s, ${Math.round((Date.now() - started) / 1000)} s`,
  );
}
const seconds = cpu() - startedCpu;
for (const key of seen) console.log(`  distinct failure: ${key}`);
console.log(
  `\nfuzz: ${done} inputs in ${seconds.toFixed(0)} CPU-s, ${((Date.now() - started) / 1000).toFixed(0)} s (${rate(done, seconds)} inputs/CPU-s; ${rates()}), ${failures} failures (${seen.size} distinct)`,
);
process.exitCode = failures ? 1 : 0;
