import { main } from "./main.ts";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`mcp-elicit: internal error: ${(e as Error).stack ?? String(e)}`);
    process.exitCode = 2;
  },
);
