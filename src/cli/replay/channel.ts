import type { ServerResponse } from "node:http";

/**
 * One HTTP response replay answers on: a POST's (JSON or an SSE stream, as the captured response was) or a
 * session's GET stream. Captured text goes out as it was, one SSE event or one JSON body per message record.
 */
export interface Channel {
  head(status: number, contentType: string | undefined, sessionId: string | undefined): void;
  send(text: string, sse: boolean): void;
  end(): void;
  readonly ended: boolean;
}

export function createChannel(res: ServerResponse): Channel {
  let mode: "sse" | "json" | undefined;
  let status = 200;
  const headers: Record<string, string> = {};
  let ended = false;
  res.on("close", () => void (ended = true));
  const channel: Channel = {
    head(code, contentType, sessionId) {
      if (mode !== undefined || ended) return;
      status = code;
      if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
      if (contentType?.includes("text/event-stream")) {
        mode = "sse";
        res.writeHead(status, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.flushHeaders();
      } else {
        mode = "json";
        headers["content-type"] = contentType ?? "application/json";
      }
    },
    send(text, sse) {
      if (ended) return;
      if (mode === undefined) channel.head(200, sse ? "text/event-stream" : "application/json", undefined);
      if (mode === "sse") {
        // A captured text is one line of JSON; should it hold a line break, each line is a data line of one event.
        res.write(
          `event: message\n${text
            .split(/\r?\n/)
            .map((line) => `data: ${line}`)
            .join("\n")}\n\n`,
        );
        return;
      }
      res.writeHead(status, headers);
      res.end(text);
      ended = true;
    },
    end() {
      if (ended) return;
      ended = true;
      if (!res.headersSent) res.writeHead(mode === undefined && status === 200 ? 202 : status, headers);
      res.end();
    },
    get ended() {
      return ended;
    },
  };
  return channel;
}
