import { askFormScript } from "../../askForm.ts";

/**
 * The agent's page, served by the worker at `/`: a chat form that asks the agent (over its WebSocket,
 * `/agents/elicit-agent/<name>`, the name from `?agent=`) to call a tool on a server, shows each `mcp_elicitation`
 * frame as a form (test/agents/askForm.ts) and sends the user's answer back as an `elicitation_response` frame. It
 * also loads any link an `open_url` frame names, unasked: the agent decides (the `open-url` fault).
 */
export function agentPage(servers: readonly string[]): string {
  const options = servers.map((s) => `<option value="${s}">${s}</option>`).join("");
  return `<!doctype html><meta charset="utf-8"><title>Agent chat</title>
<h1>Agent chat</h1>
<p id="status">connecting</p>
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
const name = new URLSearchParams(location.search).get("agent") || "default";
const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/agents/elicit-agent/" + encodeURIComponent(name));
const replies = new Map();
let turns = 0;
let current = null;
socket.addEventListener("open", () => (document.getElementById("status").textContent = "connected"));
socket.addEventListener("message", (event) => {
  let frame;
  try {
    frame = JSON.parse(event.data);
  } catch {
    return;
  }
  if (frame.type === "mcp_elicitation") {
    showAsk(frame.params, current || log, (action, content) =>
      socket.send(JSON.stringify({ type: "elicitation_response", id: frame.id, result: action === "accept" ? { action, content } : { action } })),
    );
  } else if (frame.type === "open_url") {
    // The app's own command to load a link the agent names (a preview): no consent is asked here.
    void fetch(frame.url, { mode: "no-cors" }).catch(() => undefined);
  } else if (frame.type === "tool_result") {
    const said = replies.get(frame.turn);
    if (!said) return;
    said.textContent = "Result: " + frame.text;
    said.setAttribute("data-done", "");
  }
});
document.getElementById("chat").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const tool = form.elements.text.value;
  const server = form.elements.server.value;
  form.elements.text.value = "";
  const turn = ++turns;
  const item = document.createElement("li");
  item.textContent = "You: " + tool;
  const reply = document.createElement("li");
  const said = document.createElement("output");
  said.setAttribute("data-turn", String(turn));
  reply.append("Agent: ", said);
  log.append(item, reply);
  replies.set(turn, said);
  current = reply;
  socket.send(JSON.stringify({ type: "call", turn, server, tool }));
});
`;
