import type { Page } from "playwright-core";

const UI_TIMEOUT = 30_000;

/**
 * What the user does with an ask in the page's own form (test/agents/askForm.ts): fill fields by their labels and
 * Accept; Open a URL-mode link; Decline; Cancel; or leave it unanswered (`ignore`: it was shown, the user did nothing).
 */
export type UserAnswer = { fill: Record<string, string>; check?: string[] } | "open" | "decline" | "cancel" | "ignore";

/**
 * One chat turn in either test agent's page, as a person does it: pick the server, type the tool's name, Send;
 * answer the ask the page shows (unless `expectAsk` is false: a swallowed ask never shows); return the agent's reply.
 */
export async function chatTurn(
  page: Page,
  server: string,
  tool: string,
  answer: UserAnswer,
  expectAsk = true,
): Promise<string> {
  const chat = page.getByRole("form", { name: "Chat" });
  const turn = (await page.locator("output[data-turn]").count()) + 1;
  await chat.getByLabel("Server").selectOption(server);
  await chat.getByLabel("Message").fill(tool);
  await chat.getByRole("button", { name: "Send" }).click();
  if (expectAsk) {
    // The ask shows in this turn's reply (an earlier ask left unanswered stays in its own).
    const reply = page.getByRole("listitem").filter({ has: page.locator(`output[data-turn="${turn}"]`) });
    const ask = reply.getByRole("form", { name: "Input requested" });
    await ask.waitFor({ timeout: UI_TIMEOUT });
    if (answer === "ignore") {
      // shown, never answered
    } else if (typeof answer === "string")
      await ask.getByRole("button", { name: answer[0]!.toUpperCase() + answer.slice(1), exact: true }).click();
    else {
      for (const [label, value] of Object.entries(answer.fill))
        await ask.getByLabel(label, { exact: true }).fill(value);
      for (const label of answer.check ?? []) await ask.getByLabel(label, { exact: true }).check();
      await ask.getByRole("button", { name: "Accept" }).click();
    }
  }
  const said = page.locator(`output[data-turn="${turn}"][data-done]`);
  await said.waitFor({ timeout: UI_TIMEOUT });
  return (await said.textContent()) ?? "";
}
