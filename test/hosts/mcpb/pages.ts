import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as esbuild from "esbuild";

/**
 * Serves the MCP-B test pages on two 127.0.0.1 origins: `host` (the tab page and the iframe host page) and
 * `frame` (the iframe's server page), so the iframe case crosses origins as an embedded widget does.
 */
export interface McpbPages {
  /** The tab page: server and client in one window. */
  tabUrl: string;
  /** The iframe host page (client), embedding the server page of the other origin. */
  iframeUrl: string;
  hostOrigin: string;
  frameOrigin: string;
  close(): Promise<void>;
}

const bundle = async (entry: string): Promise<string> => {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "warning",
  });
  return out.outputFiles[0]!.text;
};

const html = (title: string, body: string, script: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}<script src="${script}"></script></body></html>`;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startMcpbPages(): Promise<McpbPages> {
  const [tab, parent, child] = await Promise.all([
    bundle("test/hosts/mcpb/tabPage.ts"),
    bundle("test/hosts/mcpb/iframeParent.ts"),
    bundle("test/hosts/mcpb/iframeChild.ts"),
  ]);
  let frameOrigin = "";
  let hostOrigin = "";
  const js = (res: import("node:http").ServerResponse, text: string) =>
    res.writeHead(200, { "content-type": "text/javascript" }).end(text);
  const page = (res: import("node:http").ServerResponse, text: string) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(text);
  const host = await listen((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/tab") return page(res, html("MCP-B tab", "", "/tab.js"));
    if (path === "/tab.js") return js(res, tab);
    if (path === "/iframe")
      return page(
        res,
        html(
          "MCP-B iframe host",
          `<iframe id="server" src="${frameOrigin}/server?parent=${encodeURIComponent(hostOrigin)}"></iframe>`,
          "/parent.js",
        ),
      );
    if (path === "/parent.js") return js(res, parent);
    res.writeHead(404).end();
  });
  hostOrigin = host.origin;
  const frame = await listen((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/server") return page(res, html("MCP-B iframe server", "", "/child.js"));
    if (path === "/child.js") return js(res, child);
    res.writeHead(404).end();
  });
  frameOrigin = frame.origin;
  return {
    tabUrl: `${hostOrigin}/tab`,
    iframeUrl: `${hostOrigin}/iframe`,
    hostOrigin,
    frameOrigin,
    async close() {
      for (const s of [host.server, frame.server]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
