import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { importCapture } from "../../capture/import.ts";
import { readError } from "../read.ts";
import type { Divergence } from "./player.ts";
import { startReplay } from "./server.ts";

export const REPLAY_USAGE = "mcp-elicit replay [--port N] [--timeout S] <capture.har|capture.jsonl>";

const HELP = `Usage: ${REPLAY_USAGE}

Plays the captured server back to a real client over Streamable HTTP: prints the URL to give the client on its
first line, answers as the capture did, sends the captured elicitation asks at the captured points, and checks the
client's answers against the capture. Exit status: 0 the client did what the capture's did, 1 it diverged (each
divergence is printed) or stopped short, 2 the capture could not be read.

Options:
  --port <n>     the port to listen on, on 127.0.0.1 (default: any free port)
  --timeout <s>  give up when the client has not done everything the capture did after this long (default 120)
  --linger <ms>  once all is played, keep answering this long before exiting (default 1000)`;

/** The text of a divergence: the captured record (or HAR entry), what was going on, what the client did instead. */
function divergenceText(d: Divergence): string {
  const at = d.record < 0 ? "" : d.entry !== undefined ? ` at entry ${d.entry}` : ` at record ${d.record}`;
  // Captured and client text: no terminal escapes.
  return `diverged${at} (${d.context}): ${d.message}`.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
}

export async function replayMain(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: "string" },
        timeout: { type: "string", default: "120" },
        linger: { type: "string", default: "1000" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    console.error(`mcp-elicit: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) return (console.log(HELP), 0);
  const port = values.port === undefined ? 0 : Number(values.port);
  const timeout = Number(values.timeout);
  const linger = Number(values.linger);
  if (
    positionals.length !== 1 ||
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    !(timeout > 0) ||
    !(linger >= 0)
  ) {
    console.error(
      `mcp-elicit: replay takes one capture, a --port from 0 to 65535, a --timeout and --linger above 0\n\n${HELP}`,
    );
    return 2;
  }
  const file = positionals[0]!;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    console.error(`mcp-elicit: cannot read ${file}: ${readError(e)}`);
    return 2;
  }
  const imported = importCapture(text, file);
  if (imported.problems.length) {
    for (const p of imported.problems) console.error(`mcp-elicit: ${file}: ${p.message}`);
    return 2;
  }
  let replay;
  try {
    replay = await startReplay(imported.records, { port, onDivergence: (d) => console.log(divergenceText(d)) });
  } catch (e) {
    console.error(`mcp-elicit: cannot listen on port ${port}: ${(e as Error).message}`);
    return 2;
  }
  console.log(replay.url);
  if (replay.script.skipped > 0)
    console.error(`mcp-elicit: replay plays Streamable HTTP; ${replay.script.skipped} other records are left out`);

  const stopped = new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve(`timed out after ${timeout} s`), timeout * 1000);
    timer.unref();
    process.once("SIGINT", () => resolve("interrupted"));
    process.once("SIGTERM", () => resolve("terminated"));
  });
  const why = await Promise.race([replay.done.then(() => undefined), stopped]);
  if (why === undefined) await Promise.race([new Promise((resolve) => setTimeout(resolve, linger)), stopped]);
  const report = replay.report();
  await replay.close();
  for (const d of report.pending) console.log(divergenceText(d));
  const diverged = report.divergences.length + report.pending.length;
  const verdict =
    diverged === 0 ? "the client did what the capture's did" : `${diverged} divergence${diverged === 1 ? "" : "s"}`;
  console.log(`replay: ${report.played} requests played${why ? `, ${why}` : ""}; ${verdict}`);
  return diverged === 0 && report.complete ? 0 : 1;
}
