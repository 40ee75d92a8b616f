// One proxy of the bench in a process of its own: `mcp-elicit` (the real one, recording to a JSONL file) or
// `passthrough` (node:http piping both ways: the floor of any HTTP proxy). Both serve /json and /sse of the upstream
// at the same paths. Tells its origin to the parent over IPC and answers CPU queries.
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { startProxy } from "../../src/cli/proxy/server.ts";

const [kind, upstream, out] = process.argv.slice(2) as [string, string, string | undefined];

async function start(): Promise<string> {
  if (kind === "mcp-elicit") {
    const proxy = await startProxy({
      upstreams: [
        { name: "json", url: new URL(`${upstream}/json`) },
        { name: "sse", url: new URL(`${upstream}/sse`) },
      ],
      ...(out !== undefined && { out }),
    });
    return new URL(proxy.urls[0]!.url).origin;
  }
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, noDelay: true });
  const server = createServer((req, res) => {
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

void start().then((origin) => process.send!({ origin }));
process.on("message", (m: { cpu?: boolean }) => {
  if (m.cpu) process.send!({ cpu: process.cpuUsage() });
});
process.on("disconnect", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));
