import { attempt, type Behaviour, type Ctx, mcpHeaders, rpc, sleep, stats } from "./kit.ts";

const http = (url: string) => ({ transport: "http" as const, url: () => url });

const EVENTS = ["readystatechange", "loadstart", "progress", "load", "loadend", "abort", "error", "timeout"];
const UPLOAD_EVENTS = ["loadstart", "progress", "load", "loadend", "abort", "error", "timeout"];

/** Every event of an XHR (and of its upload) as the page sees it, with the state at that moment. */
function watch(xhr: XMLHttpRequest, options: { text?: boolean; upload?: boolean } = {}): unknown[] {
  const log: unknown[] = [];
  for (const type of EVENTS) {
    xhr.addEventListener(type, (e) => {
      const p = e as ProgressEvent;
      log.push({
        type,
        readyState: xhr.readyState,
        status: xhr.status,
        ...(p instanceof ProgressEvent && { loaded: p.loaded, total: p.total, computable: p.lengthComputable }),
        ...(options.text && { text: xhr.responseText }),
      });
    });
  }
  if (options.upload)
    for (const type of UPLOAD_EVENTS)
      xhr.upload.addEventListener(type, (e) =>
        log.push({ upload: type, loaded: (e as ProgressEvent).loaded, total: (e as ProgressEvent).total }),
      );
  return log;
}

function open(
  xhr: XMLHttpRequest,
  method: string,
  url: string,
  headers: Record<string, string> = mcpHeaders(),
  async = true,
): void {
  xhr.open(method, url, async);
  for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
}

const finished = (xhr: XMLHttpRequest): Promise<void> =>
  new Promise((resolve) => xhr.addEventListener("loadend", () => resolve()));

const head = (xhr: XMLHttpRequest) => ({
  status: xhr.status,
  statusText: xhr.statusText,
  readyState: xhr.readyState,
  responseURL: xhr.responseURL,
  headers: xhr
    .getAllResponseHeaders()
    .split("\r\n")
    .filter((line) => line && !/^(date|keep-alive):/i.test(line)),
  session: xhr.getResponseHeader("Mcp-Session-Id"),
});

/** What each `responseType` gives the page, and the errors of the accessors that do not apply to it. */
async function responseOf(ctx: Ctx, type: XMLHttpRequestResponseType, query = ""): Promise<unknown> {
  const xhr = new XMLHttpRequest();
  open(xhr, "POST", `/mcp?k=${ctx.token}${query}`);
  xhr.responseType = type;
  const log = watch(xhr);
  const done = finished(xhr);
  xhr.send(rpc("tools/call", { type }, 1));
  await done;
  const r: unknown = xhr.response;
  let value: unknown;
  if (r instanceof ArrayBuffer)
    value = { arraybuffer: [...new Uint8Array(r)].length, first: [...new Uint8Array(r, 0, 8)] };
  else if (r instanceof Blob) value = { size: r.size, type: r.type, text: await r.text() };
  else if (r instanceof Document)
    value = {
      contentType: r.contentType,
      title: r.title,
      x: r.querySelector("#x")?.textContent ?? null,
      root: r.documentElement.nodeName,
      a: [...r.getElementsByTagName("a")].map((a) => a.getAttribute("n")),
    };
  else value = r;
  return {
    type,
    responseType: xhr.responseType,
    value,
    log,
    head: head(xhr),
    responseText: attempt(() => xhr.responseText),
    responseXML: attempt(() => (xhr.responseXML ? xhr.responseXML.documentElement.nodeName : null)),
  };
}

/** XMLHttpRequest: event sequences, response types, streaming, abort, errors, timeouts, sync requests. */
export const xhrBehaviours: Behaviour[] = [
  {
    name: "XHR: JSON-RPC POST, the whole event sequence (upload included)",
    timing: true,
    mcp: http("/mcp"),
    async run(ctx) {
      const xhr = new XMLHttpRequest();
      const log = watch(xhr, { text: true, upload: true });
      open(xhr, "POST", `/mcp?k=${ctx.token}`);
      const done = finished(xhr);
      xhr.send(rpc("tools/call", { name: "xhr" }, 1));
      await done;
      return { seen: { log, head: head(xhr), responseText: xhr.responseText, response: xhr.response as unknown } };
    },
  },
  {
    name: "XHR: responseType text, json, arraybuffer, blob, document",
    mcp: http("/mcp"),
    async run(ctx) {
      const out: unknown[] = [];
      for (const type of ["", "text", "json", "arraybuffer", "blob"] as const) out.push(await responseOf(ctx, type));
      out.push(await responseOf(ctx, "document", "&type=html"));
      out.push(await responseOf(ctx, "document", "&type=xml"));
      out.push(await responseOf(ctx, "", "&type=xml"));
      out.push(await responseOf(ctx, "json", "&type=html"));
      const setLate = new XMLHttpRequest();
      open(setLate, "POST", `/mcp?k=${ctx.token}`);
      const done = finished(setLate);
      setLate.send(rpc("ping", {}, 2));
      await done;
      out.push({ setAfterDone: attempt(() => (setLate.responseType = "json")) });
      return { seen: out };
    },
  },
  {
    name: "XHR: responseText during LOADING of a streamed SSE response",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const xhr = new XMLHttpRequest();
      const log = watch(xhr, { text: true });
      open(xhr, "POST", `/mcp/sse?k=${ctx.token}&n=4&gap=200`);
      const done = finished(xhr);
      xhr.send(rpc("tools/call", { name: "stream" }, 1));
      await done;
      const loading = log.filter((e) => (e as { readyState: number }).readyState === 3);
      if (loading.length < 4) throw new Error(`only ${loading.length} LOADING events`);
      return { seen: { log, head: head(xhr) } };
    },
  },
  {
    name: "XHR: abort mid-stream",
    timing: true,
    mcp: http("/mcp/sse"),
    async run(ctx) {
      const xhr = new XMLHttpRequest();
      const log = watch(xhr, { text: true });
      open(xhr, "POST", `/mcp/sse?k=${ctx.token}&script=hold&gap=100`);
      const done = finished(xhr);
      let aborted = false;
      xhr.addEventListener("progress", () => {
        if (!aborted && xhr.responseText.includes("id: e1")) {
          aborted = true;
          xhr.abort();
        }
      });
      xhr.send(rpc("tools/call", {}, 1));
      await done;
      await sleep(300);
      return {
        seen: {
          log,
          after: { readyState: xhr.readyState, status: xhr.status, text: xhr.responseText },
          closedByClient: (await stats(ctx)).closedEarly,
        },
      };
    },
  },
  {
    name: "XHR: network error and timeout events",
    mcp: http("/slow"),
    async run(ctx) {
      const refused = new XMLHttpRequest();
      const refusedLog = watch(refused);
      open(refused, "POST", `${ctx.refused}/mcp`);
      let done = finished(refused);
      refused.send(rpc("initialize", {}, 1));
      await done;
      const slow = new XMLHttpRequest();
      const slowLog = watch(slow);
      open(slow, "POST", `/slow?k=${ctx.token}&delay=800`);
      slow.timeout = 150;
      done = finished(slow);
      slow.send(rpc("tools/call", {}, 2));
      await done;
      return { seen: { refusedLog, refused: head(refused), slowLog, slow: head(slow) } };
    },
  },
  {
    name: "XHR: synchronous requests (success and network error)",
    mcp: http("/mcp"),
    async run(ctx) {
      const xhr = new XMLHttpRequest();
      const log = watch(xhr, { text: true });
      open(xhr, "POST", `/mcp?k=${ctx.token}`, mcpHeaders(), false);
      const sent = attempt(() => xhr.send(rpc("tools/call", { sync: true }, 1)));
      const failing = new XMLHttpRequest();
      const failingLog = watch(failing);
      open(failing, "POST", `${ctx.refused}/mcp`, mcpHeaders(), false);
      const failed = attempt(() => failing.send(rpc("ping", {}, 2)));
      return {
        seen: {
          sent,
          log,
          head: head(xhr),
          text: xhr.responseText,
          failed,
          failingLog,
          failingState: [failing.readyState, failing.status],
        },
      };
    },
  },
  {
    name: "XHR: an ordinary GET with responseType json, and a 404",
    async run() {
      const xhr = new XMLHttpRequest();
      xhr.open("GET", "/api/json");
      xhr.responseType = "json";
      const log = watch(xhr);
      let done = finished(xhr);
      xhr.send();
      await done;
      const missing = new XMLHttpRequest();
      missing.open("GET", "/nope");
      const missingLog = watch(missing, { text: true });
      done = finished(missing);
      missing.send();
      await done;
      return { seen: { log, head: head(xhr), response: xhr.response as unknown, missingLog, missing: head(missing) } };
    },
  },
  {
    name: "XHR: send() errors and open() twice",
    mcp: http("/mcp"),
    async run(ctx) {
      const notOpened = new XMLHttpRequest();
      const sendBeforeOpen = attempt(() => notOpened.send(rpc("ping", {}, 1)));
      const xhr = new XMLHttpRequest();
      const log = watch(xhr, { text: true });
      open(xhr, "POST", `/mcp?k=${ctx.token}&delay=200`);
      xhr.send(rpc("ping", {}, 2));
      const sendTwice = attempt(() => xhr.send(rpc("ping", {}, 3)));
      // Re-opening aborts the request in flight without events (XHR §4.5.1 step 13).
      open(xhr, "POST", `/mcp?k=${ctx.token}`);
      const done = finished(xhr);
      xhr.send(rpc("tools/list", {}, 4));
      await done;
      return {
        seen: {
          sendBeforeOpen,
          sendTwice,
          log,
          text: xhr.responseText,
          badHeader: attempt(() => xhr.setRequestHeader("X", "y")),
        },
      };
    },
  },
];
