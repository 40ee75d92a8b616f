/**
 * The made-up host's page (bundled by esbuild): a real sdk 1.32.2 Client on a transport of the host's own design,
 * which no built-in envelope adapter knows: one WebSocket to `/bus`, each frame
 * `{"type":"frame","seq":<n>,"body":{"rpc":"<the JSON-RPC message, as a string>"}}` both ways, and frames of the
 * host's own (`{"type":"presence",…}`) among them. Only a Decode-as rule (pointer `/body/rpc`, a string-encoded
 * message, both directions) tells the extension where the MCP is.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { answerWithDialog, toolButtons } from "../mcpb/ui.ts";

class BusTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private socket?: WebSocket;
  private seq = 0;

  async start(): Promise<void> {
    const socket = new WebSocket(`${location.origin.replace(/^http/, "ws")}/bus`);
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data as string) as { type: string; body?: { rpc: string } };
      if (frame.type === "frame" && frame.body) this.onmessage?.(JSON.parse(frame.body.rpc) as JSONRPCMessage);
    });
    socket.addEventListener("close", () => this.onclose?.());
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("the bus did not open")), { once: true });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.socket!.send(JSON.stringify({ type: "frame", seq: ++this.seq, body: { rpc: JSON.stringify(message) } }));
  }

  async close(): Promise<void> {
    this.socket?.close();
  }
}

// The page connects when a person clicks Connect (so a rule added before the click applies to all of it).
const connect = document.createElement("button");
connect.type = "button";
connect.textContent = "Connect";
connect.addEventListener("click", () => {
  connect.disabled = true;
  void (async () => {
    const client = new Client({ name: "bus-page", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    answerWithDialog(client);
    await client.connect(new BusTransport());
    await toolButtons(client);
  })();
});
document.body.append(connect);
