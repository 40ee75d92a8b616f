import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CaptureRecord } from "../../../src/capture/record.ts";
import { createRecorder } from "../../peers/recorder.ts";

/**
 * A second witness of the page's MCP traffic, outside the browser: a reverse proxy in front of the demo host that
 * passes everything through (SSE as it arrives) and writes what travels on its MCP endpoints into capture records
 * with the same recorder the peer tests use. The page is loaded through the proxy, so the tap and the proxy see the
 * very same exchanges; records carry the proxy's URLs and origin, as the tap's do.
 */
export interface RecordingProxy {
  url: string;
  origin: string;
  records: CaptureRecord[];
  close(): Promise<void>;
}

const MCP_PATHS = new Set(["/legacy/mcp", "/modern/mcp"]);
// fetch refuses to set these itself, or they describe the hop rather than the message.
const HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "expect",
  "content-length",
  "accept-encoding",
  "te",
  "trailer",
  "proxy-connection",
]);

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const toUpstream = (url: string | URL | Request): string => {
    const u = new URL(url instanceof Request ? url.url : String(url));
    return new URL(u.pathname + u.search, target).href;
  };
  // The tap's `client` is the page origin, and its URLs the page's: the proxy's.
  const recorder = createRecorder({ client: origin, fetch: (input, init) => fetch(toUpstream(input), init) });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const path = new URL(req.url ?? "/", origin);
    const isMcp = MCP_PATHS.has(path.pathname);
    const init: RequestInit = { method: req.method ?? "GET", headers, signal: abort.signal, redirect: "manual" };
    if (body.length > 0) init.body = isMcp ? body.toString("utf8") : body;
    const response = isMcp
      ? await recorder.fetch(`${origin}${path.pathname}${path.search}`, init)
      : await fetch(toUpstream(path.href), init);

    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP.has(name) && name !== "content-encoding") out[name] = value;
    });
    res.writeHead(response.status, out);
    res.flushHeaders();
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) res.write(chunk.value);
    res.end();
  };

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("proxy: upstream failed");
      else res.destroy();
    });
  });
  return {
    url: `${origin}/`,
    origin,
    records: recorder.records,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
