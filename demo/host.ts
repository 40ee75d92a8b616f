import { readFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { startLegacyServer } from "./servers/legacyServer.ts";
import type { PeerServer } from "./servers/legacyServer.ts";
import { startModernServer } from "./servers/modernServer.ts";

/**
 * The embedded demo host (`npm start`): real SDK MCP servers of both eras on 127.0.0.1, and one origin in front
 * of them serving the hosted-agent page (demo/page/, bundled with esbuild at start), proxying `/legacy/mcp` and
 * `/modern/mcp` to the servers, and serving the URL-mode consent pages at `/legacy/consent/<id>` and
 * `/modern/consent/<id>`: visiting one is the out-of-band step that completes the elicitation.
 *
 * Same origin for page and servers: the page's MCP traffic needs no CORS, as in a host whose agent backend sits
 * behind its own domain.
 */
export interface DemoHost {
  url: string;
  close(): Promise<void>;
}

const pageDir = fileURLToPath(new URL("./page/", import.meta.url));
const eras = ["legacy", "modern"] as const;
type EraPath = (typeof eras)[number];

/** The page's client code: the real SDK clients of both eras, for the browser. */
async function bundlePage(): Promise<{ js: string; map: string }> {
  const built = await esbuild.build({
    entryPoints: [`${pageDir}main.ts`],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    outfile: "app.js",
    sourcemap: "linked",
    write: false,
    logLevel: "warning",
  });
  const file = (suffix: string) => built.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? "";
  return { js: file("app.js"), map: file("app.js.map") };
}

/** Streams both ways (SSE arrives as the server sends it); the upstream request dies with the page's. */
function proxy(req: IncomingMessage, res: ServerResponse, target: URL): void {
  const forward = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: target.pathname + target.search,
      headers: { ...req.headers, host: target.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    },
  );
  forward.on("error", () =>
    res.headersSent
      ? res.destroy()
      : res.writeHead(502, { "content-type": "text/plain" }).end("MCP server unreachable"),
  );
  res.on("close", () => forward.destroy());
  req.pipe(forward);
}

const consentPage = (ok: boolean): string =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${ok ? "Account linked" : "Unknown consent"}</title>` +
  `<body style="font: 16px system-ui, sans-serif; margin: 3rem auto; max-width: 32rem">` +
  (ok
    ? `<h1>Calendar account linked</h1><p>The demo server has been told. You can close this tab and go back to the demo.</p>`
    : `<h1>Unknown consent</h1><p>This consent link is not known to the demo server (it may have been used already).</p>`) +
  `</body></html>`;

export async function startDemoHost(options: { port?: number } = {}): Promise<DemoHost> {
  const [html, page] = await Promise.all([readFile(`${pageDir}index.html`, "utf8"), bundlePage()]);
  const upstream = new Map<EraPath, PeerServer>();
  let origin = "";

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", origin);
    const send = (status: number, type: string, body: string) =>
      void res
        .writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" })
        .end(body);
    if (url.pathname === "/" || url.pathname === "/index.html") return send(200, "text/html; charset=utf-8", html);
    if (url.pathname === "/app.js") return send(200, "text/javascript; charset=utf-8", page.js);
    if (url.pathname === "/app.js.map") return send(200, "application/json", page.map);
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    const [, era, rest, id] = url.pathname.split("/");
    const server = upstream.get(era as EraPath);
    if (!server) return send(404, "text/plain", "Not found");
    const base = new URL(server.url);
    if (rest === "mcp" && id === undefined) return proxy(req, res, new URL(`/mcp${url.search}`, base));
    if (rest === "consent" && id && req.method === "GET") {
      // The visit is the out-of-band step: the server learns of it and (2025-11-25) sends the completion.
      const visited = await fetch(new URL(`/consent/${id}`, base));
      await visited.body?.cancel();
      return send(visited.ok ? 200 : 404, "text/html; charset=utf-8", consentPage(visited.ok));
    }
    send(404, "text/plain", "Not found");
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    upstream.set("legacy", await startLegacyServer({ consentBase: `${origin}/legacy/consent/` }));
    upstream.set("modern", await startModernServer({ consentBase: `${origin}/modern/consent/` }));
  } catch (error) {
    for (const server of upstream.values()) await server.close();
    http.close();
    throw error;
  }

  return {
    url: `${origin}/`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      for (const server of upstream.values()) await server.close();
    },
  };
}
