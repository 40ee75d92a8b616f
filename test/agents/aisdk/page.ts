import { askFormScript } from "../askForm.ts";

/**
 * The agent's chat page: a form that sends a chat turn (`POST /api/chat`, the AI SDK's UI message shape), reads the
 * UI message stream it gets back (SSE, `x-vercel-ai-ui-message-stream: v1`), shows each `data-elicitation` ask as a
 * form of its own (Accept / Decline / Cancel) and posts the user's answer to `/api/elicit/<id>`. The ask is untrusted
 * text: the page builds its form with DOM calls and textContent, never markup.
 */
export function chatPage(servers: readonly string[]): string {
  const options = servers.map((s) => `<option value="${s}">${s}</option>`).join("");
  return `<!doctype html><meta charset="utf-8"><title>Agent chat</title>
<h1>Agent chat</h1>
<form id="chat" aria-label="Chat">
  <label>Server <select name="server">${options}</select></label>
  <label>Message <input name="text" autocomplete="off"></label>
  <button>Send</button>
</form>
<ol id="log" aria-label="Conversation"></ol>
<script>${askFormScript}
${script}</script>`;
}

const script = String.raw`
const log = document.getElementById("log");
let turns = 0;
document.getElementById("chat").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const text = form.elements.text.value;
  const server = form.elements.server.value;
  form.elements.text.value = "";
  void send(server, text);
});

async function send(server, text) {
  const turn = ++turns;
  const item = document.createElement("li");
  item.textContent = "You: " + text;
  log.append(item);
  const reply = document.createElement("li");
  const said = document.createElement("output");
  said.setAttribute("data-turn", String(turn));
  reply.append("Agent: ", said);
  log.append(reply);
  const message = { id: "m" + turn, role: "user", parts: [{ type: "text", text }] };
  const response = await fetch("/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "chat-1", messages: [message], trigger: "submit-message", server }),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let answer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = event.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (!data || data === "[DONE]") continue;
      const part = JSON.parse(data);
      if (part.type === "text-delta") answer += part.delta;
      else if (part.type === "data-elicitation" && part.data.state === "pending") showAsk(part.data, reply, (action, content) => fetch("/api/elicit/" + encodeURIComponent(part.id), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(action === "accept" ? { action, content } : { action }),
      }));
      else if (part.type === "error") answer += "error: " + part.errorText;
    }
  }
  said.textContent = answer;
  said.setAttribute("data-done", "");
}

`;
