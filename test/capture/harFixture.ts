/** Builds HAR 1.2 documents the way Chrome DevTools writes them, for the importer tests. */
export interface EntryOptions {
  method?: string;
  url?: string;
  started: string;
  /** Request headers; Authorization and Cookie included on purpose by the tests. */
  headers?: Record<string, string>;
  body?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  mimeType?: string;
  text?: string;
  encoding?: string;
  wait?: number;
  receive?: number;
  pageref?: string;
  extra?: Record<string, unknown>;
}

export const SECRET = "Bearer sk-live-DO-NOT-LEAK-4242";
export const COOKIE = "session=cookie-DO-NOT-LEAK-9191";

const pairs = (h: Record<string, string> = {}) => Object.entries(h).map(([name, value]) => ({ name, value }));

export function harEntry(o: EntryOptions): Record<string, unknown> {
  const wait = o.wait ?? 5;
  const receive = o.receive ?? 1;
  return {
    ...(o.pageref !== undefined && { pageref: o.pageref }),
    startedDateTime: o.started,
    time: 2 + wait + receive,
    request: {
      method: o.method ?? "POST",
      url: o.url ?? "http://127.0.0.1:3000/mcp",
      httpVersion: "HTTP/1.1",
      headers: pairs(o.headers),
      queryString: [],
      cookies: [{ name: "session", value: "cookie-DO-NOT-LEAK-9191" }],
      headersSize: -1,
      bodySize: o.body?.length ?? 0,
      ...(o.body !== undefined && { postData: { mimeType: "application/json", text: o.body } }),
    },
    response: {
      status: o.status ?? 200,
      statusText: "",
      httpVersion: "HTTP/1.1",
      headers: pairs(o.responseHeaders ?? (o.mimeType ? { "Content-Type": o.mimeType } : {})),
      cookies: [],
      content: {
        size: o.text?.length ?? 0,
        mimeType: o.mimeType ?? "x-unknown",
        ...(o.text !== undefined && { text: o.text }),
        ...(o.encoding !== undefined && { encoding: o.encoding }),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 1, wait, receive },
    ...o.extra,
  };
}

export function har(
  entries: unknown[],
  pages: unknown[] = [{ id: "page_1", title: "http://127.0.0.1:3000/", startedDateTime: "2026-01-01T00:00:00.000Z" }],
): string {
  return JSON.stringify(
    { log: { version: "1.2", creator: { name: "WebInspector", version: "537.36" }, pages, entries } },
    null,
    2,
  );
}

export const rpc = (value: unknown): string => JSON.stringify(value);
export const sse = (...events: string[]): string => events.map((e) => `${e}\n\n`).join("");
