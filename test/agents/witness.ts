import type { Page, Request, Response, WebSocket } from "playwright-core";

/**
 * What the page's own wire carried of the relay, seen by Playwright (not by the extension): each ask the app relayed
 * to the page and each answer the page sent back, in their app shapes. The tests compare the panel's joined flows
 * with this and with what the servers reported.
 */
export interface RelayWitness {
  /**
   * The relayed asks: the AI SDK page's `data-elicitation` parts (`state: "pending"`), the Cloudflare
   * `mcp_elicitation` frames.
   */
  asks: { id: string; params: Record<string, unknown> }[];
  /** The page's answers: `POST /api/elicit/<id>` bodies, `elicitation_response` frames. */
  answers: { id: string; action: string; content?: Record<string, unknown> }[];
  /** Everything the page got from the app's origin: `METHOD path status` (no query). */
  responses: string[];
  /** Uncaught errors in the page. */
  errors: string[];
}

type Json = Record<string, unknown>;
const parse = (text: string): Json | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Starts witnessing a page of the app at `origin` (before its first navigation). `settled()` gives what was seen once
 * every streamed answer has been read (the asks of a UI message stream are read when it ends).
 */
export function witness(page: Page, origin: string): { settled(): Promise<RelayWitness> } {
  const seen: RelayWitness = { asks: [], answers: [], responses: [], errors: [] };
  const pendingBodies: Promise<void>[] = [];
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== origin || !url.pathname.startsWith("/api/elicit/")) return;
    const body = parse(request.postData() ?? "");
    seen.answers.push({
      id: decodeURIComponent(url.pathname.slice("/api/elicit/".length)),
      action: String(body?.action),
      ...(body?.content ? { content: body.content as Json } : {}),
    });
  });
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (url.origin !== origin) return;
    seen.responses.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    if (url.pathname !== "/api/chat") return;
    // The UI message stream: one `data:` JSON part per event, `[DONE]` last.
    pendingBodies.push(
      response.text().then(
        (text) => {
          for (const line of text.split("\n")) {
            const part = line.startsWith("data: ") ? parse(line.slice(6)) : undefined;
            const data = part?.data as Json | undefined;
            if (part?.type === "data-elicitation" && data?.state === "pending")
              seen.asks.push({ id: String(part.id), params: data });
          }
        },
        () => undefined,
      ),
    );
  });
  page.on("websocket", (socket: WebSocket) => {
    socket.on("framereceived", ({ payload }) => {
      const frame = parse(String(payload));
      if (frame?.type === "mcp_elicitation") seen.asks.push({ id: String(frame.id), params: frame.params as Json });
    });
    socket.on("framesent", ({ payload }) => {
      const frame = parse(String(payload));
      const result = frame?.result as Json | undefined;
      if (frame?.type === "elicitation_response")
        seen.answers.push({
          id: String(frame.id),
          action: String(result?.action),
          ...(result?.content ? { content: result.content as Json } : {}),
        });
    });
  });
  return {
    async settled() {
      await Promise.all(pendingBodies);
      return seen;
    },
  };
}
