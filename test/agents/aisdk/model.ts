import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";

/**
 * The agent's model, offline: `ai/test`'s mock. On the user's turn it calls the tool the user named (the chat's
 * text is a tool name); once the tool's result is in the prompt it answers with that result's text. A fresh stream on
 * every call: a stream is read once.
 */
export function toolCallingModel(): MockLanguageModelV4 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last?.role === "tool") {
        const text = `Result: ${resultText(last.content)}`;
        return {
          stream: convertArrayToReadableStream([
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: text },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
          ]),
        };
      }
      const asked =
        last?.role === "user" ? last.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("") : "";
      return {
        stream: convertArrayToReadableStream([
          { type: "tool-call", toolCallId: `call-${++calls}`, toolName: asked.trim(), input: "{}" },
          { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
        ]),
      };
    },
  });
}

/** The text items of an MCP tool result, wherever the tool-result part keeps it (its output's value). */
function resultText(content: unknown): string {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const item = value as Record<string, unknown>;
      if (item.type === "text" && typeof item.text === "string") texts.push(item.text);
      else Object.values(item).forEach(walk);
    }
  };
  walk(content);
  return texts.join(" ") || JSON.stringify(content);
}
