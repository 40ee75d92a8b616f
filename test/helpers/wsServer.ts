import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";

/**
 * The server side of a WebSocket for the tests (the transparency battery, the MCP-over-WebSocket fixture, the decode
 * host), on the `ws` package: the handshake picks the first subprotocol the client offers; text and binary messages
 * come to the handlers; a close is echoed and reported with its code and reason.
 */
export interface WsPeer {
  protocol: string;
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  /** Sends a close frame (code and reason) and ends the TCP connection once the client answers. */
  close(code: number, reason: string): void;
}

export interface WsHandlers {
  onText?(text: string, peer: WsPeer): void;
  onBinary?(bytes: Buffer, peer: WsPeer): void;
  /** The client's close frame (code undefined when it carried none); the server has already echoed it. */
  onClose?(code: number | undefined, reason: string): void;
}

/** No HTTP server of its own: each test server hands its upgrade requests here. */
const server = new WebSocketServer({ noServer: true, perMessageDeflate: false });

/** Completes the upgrade of `req` on `socket` (`head`: the bytes read past the request, if any). */
export function acceptWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  handlers: WsHandlers,
  head: Buffer = Buffer.alloc(0),
): WsPeer {
  const queued: ((ws: WebSocket) => void)[] = [];
  let socketOf: WebSocket | undefined;
  const withSocket = (act: (ws: WebSocket) => void): void => {
    if (socketOf) act(socketOf);
    else queued.push(act);
  };
  const offered = String(req.headers["sec-websocket-protocol"] ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const peer: WsPeer = {
    protocol: offered[0] ?? "",
    sendText: (text) => withSocket((ws) => ws.send(text)),
    sendBinary: (bytes) => withSocket((ws) => ws.send(bytes)),
    close: (code, reason) => withSocket((ws) => ws.close(code, reason)),
  };
  server.handleUpgrade(req, socket, head, (ws) => {
    socketOf = ws;
    peer.protocol = ws.protocol;
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (isBinary) handlers.onBinary?.(data, peer);
      else handlers.onText?.(data.toString("utf8"), peer);
    });
    // 1005: the close frame had no code (RFC 6455 §7.1.5).
    ws.on("close", (code: number, reason: Buffer) =>
      handlers.onClose?.(code === 1005 ? undefined : code, reason.toString("utf8")),
    );
    ws.on("error", () => ws.terminate());
    for (const act of queued.splice(0)) act(ws);
  });
  return peer;
}
