// The bench page's traffic that is not MCP (bundled into both page scripts, page.ts and pageSdk.ts): what a chat
// page does besides MCP. A JSON API call (`POST /api/search`, JSON body, `response.json()`) and a chat model's token
// stream (`POST /v1/chat/completions` with `stream: true`, read with a stream reader, split into events, each
// event's JSON parsed and its token appended, as a chat UI does). Each is timed from the call to the last byte read.

export async function plainBlock(n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await fetch("/api/search", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: `item ${i}`, limit: 10 }),
    });
    const body = (await response.json()) as { results?: unknown[] };
    if (!Array.isArray(body.results)) throw new Error("no results");
    times.push(performance.now() - t0);
  }
  return times;
}

export interface ChatBlock {
  /** Per stream: call → [DONE] read (ms). */
  times: number[];
  /** Token events read per stream (the server's BENCH_TAP_CHAT_EVENTS). */
  events: number[];
}

export async function chatBlock(n: number): Promise<ChatBlock> {
  const out: ChatBlock = { times: [], events: [] };
  const decoder = new TextDecoder();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await fetch("/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        model: "bench-chat",
        stream: true,
        messages: [{ role: "user", content: `tell me a story (${i})` }],
      }),
    });
    const reader = response.body!.getReader();
    let text = "";
    let answer = "";
    let events = 0;
    let done = false;
    while (!done) {
      const read = await reader.read();
      if (read.done) break;
      text += decoder.decode(read.value, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const line = text.slice(0, end);
        text = text.slice(end + 2);
        if (!line.startsWith("data: ")) continue;
        const data = line.slice(6);
        if (data === "[DONE]") {
          done = true;
          break;
        }
        const chunk = JSON.parse(data) as { choices: { delta: { content?: string } }[] };
        answer += chunk.choices[0]?.delta.content ?? "";
        events++;
      }
    }
    if (!done || answer.length === 0) throw new Error("chat stream ended without [DONE]");
    out.times.push(performance.now() - t0);
    out.events.push(events);
  }
  return out;
}
