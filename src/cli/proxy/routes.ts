/** An upstream MCP server and where the proxy serves it: `/<name>` on the proxy's origin. */
export interface Upstream {
  name: string;
  url: URL;
}

export interface Route {
  upstream: Upstream;
  /** The upstream URL the request goes to. */
  target: URL;
  /** The proxy's own URL for this upstream (origin and `/<name>`), the records' `via`. */
  via: string;
}

/**
 * Maps a request path to its upstream. `/<name>` (with the client's query, if any, instead of the upstream's) is the
 * upstream's URL itself; `/<name>/<path>` is `<path>` on the upstream's origin, which is where an HTTP+SSE server's
 * `endpoint` event sends the client's POSTs (rewriteEndpoint makes that URL point back here).
 */
export function createRoutes(upstreams: readonly Upstream[], origin: () => string) {
  const byName = new Map(upstreams.map((u) => [u.name, u]));
  return {
    resolve(requestUrl: string): Route | undefined {
      const q = requestUrl.indexOf("?");
      const path = q < 0 ? requestUrl : requestUrl.slice(0, q);
      const query = q < 0 ? "" : requestUrl.slice(q);
      const slash = path.indexOf("/", 1);
      const name = safeDecode(slash < 0 ? path.slice(1) : path.slice(1, slash));
      const upstream = name === undefined ? undefined : byName.get(name);
      if (!upstream) return undefined;
      const rest = slash < 0 ? "" : path.slice(slash);
      const target = new URL(upstream.url);
      if (rest === "") {
        if (query !== "") target.search = query;
      } else {
        target.pathname = rest;
        target.search = query;
      }
      return { upstream, target, via: `${origin()}/${encodeURIComponent(upstream.name)}` };
    },

    /**
     * The `endpoint` event's URL (relative to the stream's URL, or absolute) as the client must see it: on the
     * proxy, under the upstream's name, in the same form (relative stays relative). A URL on another origin is
     * left alone (the proxy cannot serve it) and reported.
     */
    rewriteEndpoint(route: Route, data: string): string | undefined {
      let resolved: URL;
      try {
        resolved = new URL(data.trim(), route.target);
      } catch {
        return undefined;
      }
      if (resolved.origin !== route.upstream.url.origin) return undefined;
      const local = `/${encodeURIComponent(route.upstream.name)}${resolved.pathname}${resolved.search}`;
      return /^[a-z][a-z0-9+.-]*:/i.test(data.trim()) ? `${origin()}${local}` : local;
    },
  };
}

export type Routes = ReturnType<typeof createRoutes>;

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
