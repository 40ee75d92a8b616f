import type { Page } from "playwright-core";
import { chromium } from "playwright-core";
import { chatTurn, type UserAnswer } from "./drive.ts";

/** One chat turn: which server and tool the user asks for, what they answer in the page, what the tool reports. */
export interface Turn {
  server: string;
  tool: string;
  answer: UserAnswer;
  /** The ask reaches the page (false: a swallowing agent never shows it). */
  shown?: boolean;
  result: RegExp;
}

/**
 * What the user does with both stacks, on a server of each era (test/peers: sdk 1.32.2 `elicitInput`, server 2.4.0
 * `input_required`): an account form accepted, a confirmation declined, one cancelled.
 */
export const threeAnswers = (server: string): Turn[] => [
  {
    server,
    tool: "register_user",
    answer: { fill: { Email: "ada@example.com", Age: "36" } },
    result: /registered: accept \{"email":"ada@example\.com","age":36,"newsletter":false,"plan":"free"\}/,
  },
  { server, tool: "confirm_action", answer: "decline", result: /confirm: decline$/ },
  { server, tool: "confirm_action", answer: "cancel", result: /confirm: cancel$/ },
];

/** Plays the turns in the page; returns what the agent said after each. */
export async function play(page: Page, turns: readonly Turn[]): Promise<string[]> {
  const said: string[] = [];
  for (const turn of turns) said.push(await chatTurn(page, turn.server, turn.tool, turn.answer, turn.shown ?? true));
  return said;
}

/** Chromium without the extension (the baseline run): `run` gets a fresh page; the browser is closed after. */
export async function withPlainChromium<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  try {
    return await run(await browser.newPage());
  } finally {
    await browser.close();
  }
}
