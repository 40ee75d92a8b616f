import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/**
 * The server side of RFC 6455, as much as the tests need — the transparency battery and the MCP-over-WebSocket
 * fixture (Node 20 has no WebSocket server and `ws` is not a dependency): the opening handshake (§4.2.2) with an optional subprotocol, unfragmented text and binary
 * frames masked by the client (§5.3), close frames with a code and a reason echoed back (§5.5.1), ping → pong.
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
  /** The client's close frame; the server has already echoed it. */
  onClose?(code: number | undefined, reason: string): void;
}

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

export function acceptWebSocket(req: IncomingMessage, socket: Duplex, handlers: WsHandlers): WsPeer {
  const key = String(req.headers["sec-websocket-key"] ?? "");
  const accept = createHash("sha1").update(key + GUID).digest("base64");
  const offered = String(req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter(Boolean);
  const protocol = offered[0] ?? "";
  socket.write(
    ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${accept}`, ...(protocol ? [`Sec-WebSocket-Protocol: ${protocol}`] : []), "", ""].join("\r\n"),
  );
  let closing = false;
  const frame = (opcode: number, payload: Uint8Array): void => {
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 255]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(n)]);
    if (!socket.writableEnded) socket.write(Buffer.concat([head, payload]));
  };
  const closePayload = (code: number, reason: string): Buffer => {
    const bytes = Buffer.alloc(2 + Buffer.byteLength(reason));
    bytes.writeUInt16BE(code, 0);
    bytes.write(reason, 2, "utf8");
    return bytes;
  };
  const peer: WsPeer = {
    protocol,
    sendText: (text) => frame(1, Buffer.from(text, "utf8")),
    sendBinary: (bytes) => frame(2, bytes),
    close: (code, reason) => {
      closing = true;
      frame(8, closePayload(code, reason));
    },
  };
  let buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      const masked = (buffer[1]! & 0x80) !== 0;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const mask = masked ? buffer.subarray(offset, offset + 4) : undefined;
      if (masked) offset += 4;
      if (buffer.length < offset + length) return;
      const payload = Buffer.from(buffer.subarray(offset, offset + length));
      buffer = buffer.subarray(offset + length);
      if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      if (opcode === 8) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : undefined;
        const reason = payload.subarray(2).toString("utf8");
        // The client started the closing handshake: echo its frame (§5.5.1); if the server started it, this is the answer.
        if (!closing) frame(8, payload);
        socket.end();
        handlers.onClose?.(code, reason);
        return;
      }
      if (opcode === 9) frame(10, payload);
      else if (opcode === 1) handlers.onText?.(payload.toString("utf8"), peer);
      else if (opcode === 2) handlers.onBinary?.(payload, peer);
    }
  });
  socket.on("error", () => socket.destroy());
  return peer;
}

function bigLength(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}
