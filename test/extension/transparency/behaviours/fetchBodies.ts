import {
  attempt,
  type Behaviour,
  describeError,
  headerList,
  mcpHeaders,
  readChunks,
  responseHead,
  rpc,
  SESSION,
  settle,
} from "./kit.ts";

const http = (url: string) => ({ transport: "http" as const, url: () => url });

/** fetch of MCP-looking and ordinary requests: bodies, headers, clones, Request objects. */
export const fetchBodies: Behaviour[] = [
  {
    name: "fetch: JSON-RPC POST with a JSON response",
    mcp: http("/mcp"),
    async run({ token }) {
      const r = await fetch(`/mcp?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("tools/call", { name: "deploy" }, 1),
      });
      const head = responseHead(r);
      const json: unknown = await r.json();
      return { seen: { head, json, bodyUsed: r.bodyUsed } };
    },
  },
  {
    name: "fetch: chunked transfer encoding read chunk by chunk",
    timing: true,
    mcp: http("/chunked"),
    async run({ token }) {
      const r = await fetch(`/chunked?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("tools/list", {}, 2),
      });
      const { chunks, done } = await readChunks(r.body!);
      if (chunks.length < 3) throw new Error(`the chunks merged: ${chunks.length}`);
      return {
        seen: {
          head: responseHead(r),
          chunks: chunks.map(({ text, bytes }) => ({ text, bytes })),
          done,
          json: JSON.parse(chunks.map((c) => c.text).join("")) as unknown,
        },
      };
    },
  },
  {
    name: "fetch: binary body as arrayBuffer() and bytes()",
    mcp: http("/bin"),
    async run({ token }) {
      const r = await fetch(`/bin?k=${token}`, { headers: { "Mcp-Session-Id": SESSION } });
      const buffer = await r.arrayBuffer();
      const again = await fetch(`/bin?k=${token}`, { headers: { "Mcp-Session-Id": SESSION } });
      const bytes = await (again as Response & { bytes(): Promise<Uint8Array> }).bytes();
      const plain = new Uint8Array(await (await fetch("/bin")).arrayBuffer());
      return {
        seen: {
          byteLength: buffer.byteLength,
          bytes: [...new Uint8Array(buffer)],
          viaBytes: [...bytes],
          tag: Object.prototype.toString.call(bytes),
          plain: [...plain],
        },
      };
    },
  },
  {
    name: "fetch: blob()",
    mcp: http("/mcp"),
    async run({ token }) {
      const r = await fetch(`/mcp?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("resources/read", { uri: "x" }, 3),
      });
      const blob = await r.blob();
      return {
        seen: {
          size: blob.size,
          type: blob.type,
          text: await blob.text(),
          isBlob: blob instanceof Blob,
          bodyUsed: r.bodyUsed,
        },
      };
    },
  },
  {
    name: "fetch: FormData and URLSearchParams request bodies, formData() response",
    mcp: http("/echo"),
    async run({ token }) {
      const form = new FormData();
      form.append("a", "1");
      form.append("file", new Blob(["hello ✓"], { type: "text/plain" }), "x.txt");
      const withForm = await (
        await fetch(`/echo?k=${token}`, { method: "POST", headers: { "Mcp-Session-Id": SESSION }, body: form })
      ).json();
      const params = new URLSearchParams({ q: "a b", jsonrpc: "2.0" });
      const withParams = await (
        await fetch(`/echo?k=${token}`, { method: "POST", headers: { "Mcp-Session-Id": SESSION }, body: params })
      ).json();
      const blobBody = await (
        await fetch(`/echo?k=${token}`, {
          method: "POST",
          body: new Blob([rpc("ping", {}, 4)], { type: "application/json" }),
        })
      ).json();
      const bufferBody = await (
        await fetch(`/echo?k=${token}`, { method: "POST", body: new TextEncoder().encode(rpc("ping", {}, 5)) })
      ).json();
      const responseForm = await (
        await fetch(`/form-response?k=${token}`, { headers: { "Mcp-Session-Id": SESSION } })
      ).formData();
      return { seen: { withForm, withParams, blobBody, bufferBody, responseForm: [...responseForm] } };
    },
  },
  {
    // Chromium gives json()'s SyntaxError the caller's stack frames when the body had arrived before the call, and
    // none when it parses later: a tap that parsed the text itself could not tell which (docs/benchmarks-tap.md).
    name: "fetch: json() of an MCP answer that is not JSON rejects as the browser's does, stack frames included",
    timing: true,
    mcp: http("/mcp"),
    async run({ token }) {
      const broken = await fetch(`/mcp?k=${token}&type=broken`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("tools/call", { name: "x" }, 21),
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      let seen: unknown;
      try {
        await broken.json();
      } catch (error) {
        const e = error as Error;
        seen = {
          error: describeError(e),
          stack: e.stack,
          own: Object.getOwnPropertyNames(e),
          syntaxError: e instanceof SyntaxError,
        };
      }
      return { seen: { seen, bodyUsed: broken.bodyUsed, again: await settle(broken.text()) } };
    },
  },
  {
    name: "fetch: response.clone() then both bodies read",
    mcp: http("/mcp"),
    async run({ token }) {
      const r = await fetch(`/mcp?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("tools/call", { name: "a" }, 6),
      });
      const c = r.clone();
      const flags = [r.bodyUsed, c.bodyUsed, c === r, c.body === r.body];
      const [text, json] = await Promise.all([r.text(), c.json()]);
      return {
        seen: {
          flags,
          text,
          json,
          after: [r.bodyUsed, c.bodyUsed],
          sameHeaders: JSON.stringify(headerList(r.headers)) === JSON.stringify(headerList(c.headers)),
          cloneAfterUse: attempt(() => r.clone()),
        },
      };
    },
  },
  {
    name: "fetch: a body read twice rejects the same way",
    mcp: http("/mcp"),
    async run({ token }) {
      const r = await fetch(`/mcp?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("tools/list", {}, 7),
      });
      const first = await settle(r.json());
      const second = await settle(r.text());
      const third = await settle(r.arrayBuffer());
      const reader = attempt(() => r.body?.getReader());
      return {
        seen: {
          first,
          second,
          third,
          bodyUsed: r.bodyUsed,
          locked: r.body?.locked,
          reader: typeof reader === "object" && reader && "threw" in reader ? reader : "got a reader",
        },
      };
    },
  },
  {
    name: "fetch: Request object input vs (url, init)",
    mcp: http("/mcp"),
    async run({ token }) {
      const body = rpc("tools/call", { name: "r" }, 8);
      const request = new Request(`/mcp?k=${token}`, { method: "POST", headers: mcpHeaders(), body });
      const before = request.bodyUsed;
      const viaRequest = await (await fetch(request)).json();
      const after = request.bodyUsed;
      const reuse = await settle(fetch(request));
      const viaInit = await (await fetch(`/mcp?k=${token}`, { method: "POST", headers: mcpHeaders(), body })).json();
      const overridden = await (
        await fetch(new Request(`/mcp?k=${token}`, { method: "POST", headers: mcpHeaders(), body }), {
          headers: { "X-App": "override", "Content-Type": "application/json" },
        })
      ).json();
      return {
        seen: {
          before,
          after,
          viaRequest,
          reuse,
          same: JSON.stringify(viaRequest) === JSON.stringify(viaInit),
          overridden,
        },
      };
    },
  },
  {
    name: "fetch: request Headers round trip and response headers iteration",
    mcp: http("/mcp"),
    async run({ token }) {
      const headers = new Headers({ ...mcpHeaders(), "X-App": "battery", Authorization: "Bearer secret-token" });
      const before = [...headers];
      const r = await fetch(`/mcp?k=${token}`, { method: "POST", headers, body: rpc("ping", {}, 9) });
      const after = [...headers];
      const seenByServer = ((await r.clone().json()) as { result: unknown }).result;
      const pairs = await (
        await fetch(`/mcp?k=${token}`, {
          method: "POST",
          headers: [
            ["Content-Type", "application/json"],
            ["Mcp-Session-Id", SESSION],
            ["X-App", "pairs"],
          ],
          body: rpc("ping", {}, 10),
        })
      ).json();
      const h = r.headers;
      return {
        seen: {
          before,
          after,
          seenByServer,
          pairs,
          iteration: headerList(h),
          keys: [...h.keys()].filter((k) => k !== "date" && k !== "keep-alive"),
          multi: h.get("x-multi"),
          session: h.get("Mcp-Session-Id"),
          has: h.has("mcp-session-id"),
          setCookie: h.getSetCookie(),
          forEach: (() => {
            const out: string[] = [];
            h.forEach((value, name) => name !== "date" && name !== "keep-alive" && out.push(`${name}=${value}`));
            return out;
          })(),
          immutable: attempt(() => h.set("x", "y")),
        },
      };
    },
  },
  {
    name: "fetch: ordinary JSON and text APIs",
    async run() {
      const j = await fetch("/api/json");
      const t = await fetch("/api/text");
      const missing = await fetch("/nope");
      return {
        seen: {
          json: [responseHead(j), await j.json()],
          text: [responseHead(t), await t.text()],
          missing: [responseHead(missing), await missing.text()],
        },
      };
    },
  },
  {
    name: "fetch: redirects followed and manual, a no-cors opaque response",
    mcp: http("/mcp"),
    async run({ token, cross }) {
      const followed = await fetch(`/redirect?k=${token}&to=${encodeURIComponent(`/mcp?k=${token}`)}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("ping", {}, 11),
      });
      const manual = await fetch(`/redirect?k=${token}&to=/mcp`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("ping", {}, 12),
        redirect: "manual",
      });
      const opaque = await fetch(`${cross}/mcp?k=${token}`, {
        method: "POST",
        mode: "no-cors",
        body: rpc("ping", {}, 13),
      });
      const cors = await fetch(`${cross}/mcp?k=${token}`, {
        method: "POST",
        headers: mcpHeaders(),
        body: rpc("ping", {}, 14),
      });
      return {
        seen: {
          followed: [responseHead(followed), await followed.json()],
          manual: [responseHead(manual), await manual.text()],
          opaque: [responseHead(opaque), await opaque.text()],
          cors: [responseHead(cors), await cors.json()],
        },
      };
    },
  },
  {
    name: "fetch: a streaming request body (duplex: half) over HTTP/1.1",
    async run({ token }) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(rpc("ping", {}, 15)));
          controller.close();
        },
      });
      const outcome = await settle(
        fetch(`/echo?k=${token}`, { method: "POST", headers: mcpHeaders(), body, duplex: "half" } as RequestInit),
        async (r) => r.status,
      );
      return { seen: { outcome, locked: body.locked } };
    },
  },
  {
    name: "fetch: arguments are read as the browser reads them (getters, toString, Headers subclass)",
    bug: "T4",
    mcp: http("/mcp"),
    async run({ token }) {
      const log: string[] = [];
      const url = `/mcp?k=${token}`;
      const input = { toString: () => (log.push("input.toString"), url) };
      const init = {
        get method() {
          return (log.push("init.method"), "POST");
        },
        get headers() {
          return (log.push("init.headers"), mcpHeaders());
        },
        get body() {
          return (log.push("init.body"), rpc("ping", {}, 16));
        },
        get signal() {
          return (log.push("init.signal"), undefined);
        },
      };
      await (await fetch(input as unknown as string, init)).text();
      log.push("--");
      class LoggingHeaders extends Headers {
        override get(name: string): string | null {
          log.push(`Headers.get(${name})`);
          return super.get(name);
        }
        override forEach(cb: (value: string, key: string, parent: Headers) => void): void {
          log.push("Headers.forEach");
          super.forEach(cb);
        }
      }
      await (
        await fetch(url, { method: "POST", headers: new LoggingHeaders(mcpHeaders()), body: rpc("ping", {}, 17) })
      ).text();
      log.push("--");
      class LoggingRequest extends Request {
        override get url(): string {
          return (log.push("Request.url"), super.url);
        }
        override get method(): string {
          return (log.push("Request.method"), super.method);
        }
        override get headers(): Headers {
          return (log.push("Request.headers"), super.headers);
        }
      }
      await (
        await fetch(new LoggingRequest(url, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 18) }))
      ).text();
      return {
        seen: {
          log,
          bad: describeError(
            await fetch({ toString: () => "http://[bad" } as unknown as string).catch((e: unknown) => e),
          ),
        },
      };
    },
  },
  {
    name: "fetch: resource timing entries of MCP and ordinary requests",
    mcp: http("/mcp"),
    async run({ token }) {
      await (
        await fetch(`/mcp?k=${token}`, { method: "POST", headers: mcpHeaders(), body: rpc("ping", {}, 19) })
      ).text();
      await (
        await fetch(`/mcp/sse?k=${token}&n=2&gap=20`, {
          method: "POST",
          headers: mcpHeaders(),
          body: rpc("ping", {}, 20),
        })
      ).text();
      await (await fetch("/api/json")).text();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      return {
        seen: entries.map((e) => ({
          name: e.name.replace(/^https?:\/\/[^/]+/, ""),
          initiatorType: e.initiatorType,
          encodedBodySize: e.encodedBodySize,
          decodedBodySize: e.decodedBodySize,
          status: e.responseStatus,
          contentType: (e as PerformanceResourceTiming & { contentType?: string }).contentType,
        })),
      };
    },
  },
];
