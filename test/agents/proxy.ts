import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { CaptureRecord } from "../../src/capture/record.ts";

/**
 * `mcp-elicit proxy` run as a user runs it (bin/mcp-elicit.js, the built CLI), one `--upstream name=url` per server,
 * recording to `out`. It prints `name<TAB>url` per upstream, then the panel's feed URL; SIGINT flushes and stops it.
 */
export interface RunningProxy {
  /** Per upstream name, the URL to give the agent instead of the server's. */
  urls: Record<string, string>;
  /** The feed URL for the panel's "Backend…" control (with its one-time token). */
  feed: string;
  /** Stops it (SIGINT) and returns the records it wrote to `out`. */
  stop(): Promise<CaptureRecord[]>;
}

export async function startProxyCli(upstreams: Record<string, string>, out: string): Promise<RunningProxy> {
  const args = [
    "bin/mcp-elicit.js",
    "proxy",
    ...Object.entries(upstreams).flatMap(([name, url]) => ["--upstream", `${name}=${url}`]),
    "--out",
    out,
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mcp-elicit proxy printed no URLs in 15 s:\n${stdout}${stderr}`)),
      15_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const got = stdout.split("\n").filter(Boolean);
      if (got.length < Object.keys(upstreams).length + 1) return;
      clearTimeout(timer);
      resolve(got);
    });
    void exited.then((code) => reject(new Error(`mcp-elicit proxy exited (${code}):\n${stdout}${stderr}`)));
  });
  const urls = Object.fromEntries(lines.slice(0, -1).map((line) => line.split("\t") as [string, string]));
  return {
    urls,
    feed: lines.at(-1)!,
    async stop() {
      child.kill("SIGINT");
      const code = await exited;
      if (code !== 0) throw new Error(`mcp-elicit proxy exited ${code} on SIGINT:\n${stderr}`);
      const text = await readFile(out, "utf8");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CaptureRecord);
    },
  };
}
