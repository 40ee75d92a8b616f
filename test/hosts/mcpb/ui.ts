/**
 * What the MCP-B test pages share (page code, bundled by esbuild): the page's own log of every MCP-B envelope that
 * reached this window (the wire, as the page itself saw it, with or without the extension), and the page's own
 * elicitation dialog, drawn from the request's schema, which the test answers like a person would.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";

export interface WireEntry {
  channel: unknown;
  direction: unknown;
  payload: unknown;
  /** When it arrived (ms since the epoch, the page's clock): orders the two windows' logs of the iframe case. */
  at: number;
}

declare global {
  interface Window {
    mcpbWire: WireEntry[];
    mcpbReady?: Promise<void>;
  }
}

/** Logs every `{type: "mcp"}` envelope that arrives in this window (a deep copy, as it was when it arrived). */
export function logEnvelopes(): void {
  window.mcpbWire = [];
  window.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { type?: unknown; channel?: unknown; direction?: unknown; payload?: unknown } | null;
    if (data === null || typeof data !== "object" || data.type !== "mcp") return;
    window.mcpbWire.push({
      channel: data.channel,
      direction: data.direction,
      payload: JSON.parse(JSON.stringify(data.payload)) as unknown,
      at: performance.timeOrigin + performance.now(),
    });
  });
}

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

/** Answers elicitation/create with a dialog in the page: one labelled input per schema property, Accept and Decline. */
export function answerWithDialog(client: Client): void {
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const params = request.params as {
      message: string;
      requestedSchema?: { properties: Record<string, { type?: string; title?: string }> };
    };
    return new Promise<ElicitResult>((resolve) => {
      const inputs: [string, HTMLInputElement, string | undefined][] = [];
      const form = el("form", { method: "dialog" });
      for (const [name, property] of Object.entries(params.requestedSchema?.properties ?? {})) {
        const input = el("input", {
          name,
          type:
            property.type === "boolean"
              ? "checkbox"
              : property.type === "string" && /key|secret|password|token/i.test(name)
                ? "password"
                : "text",
        });
        inputs.push([name, input, property.type]);
        form.append(el("label", {}, property.title ?? name, input));
      }
      const dialog = el("dialog", { ariaLabel: "Elicitation" }, el("p", {}, params.message), form);
      const close = (result: ElicitResult) => {
        dialog.close();
        dialog.remove();
        resolve(result);
      };
      const accept = el("button", { type: "button", textContent: "Accept", value: "accept" });
      accept.addEventListener("click", () => {
        const content: Record<string, string | number | boolean> = {};
        for (const [name, input, type] of inputs)
          content[name] =
            type === "boolean"
              ? input.checked
              : type === "integer" || type === "number"
                ? Number(input.value)
                : input.value;
        close({ action: "accept", content });
      });
      const decline = el("button", { type: "button", textContent: "Decline", value: "decline" });
      decline.addEventListener("click", () => close({ action: "decline" }));
      form.append(accept, decline);
      document.body.append(dialog);
      dialog.showModal();
    });
  });
}

/**
 * One button per tool (`button[data-tool=<name>]`); a click calls it and shows the result's text in the page's
 * `<output>`. The dialog's buttons are `button[value=accept]` and `button[value=decline]`, its inputs `input[name=…]`.
 */
export async function toolButtons(client: Client): Promise<void> {
  const output = el("output", { ariaLabel: "Result" });
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const button = el("button", { type: "button", textContent: tool.name });
    button.dataset.tool = tool.name;
    button.addEventListener("click", () => {
      output.textContent = "…";
      client.callTool({ name: tool.name, arguments: {} }).then(
        (result) =>
          (output.textContent = (result.content as { type: string; text?: string }[])
            .map((c) => c.text ?? "")
            .join("\n")),
        (error: unknown) => (output.textContent = `error: ${String(error)}`),
      );
    });
    document.body.append(button);
  }
  document.body.append(output);
}
