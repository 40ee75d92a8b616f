import type { Page } from "puppeteer-core";

/**
 * The demo host page (docs/demo.md), driven in Firefox with puppeteer's ARIA selectors: buttons `Run: <scenario>
 * (<era>)`, the question card's fields by label and its Accept / Decline / Cancel, and the result of each scenario
 * in `<output aria-label="Result: <scenario> (<era>)">`.
 */
export interface DemoDriver {
  run(scenario: string): Promise<void>;
  /** Waits for the question card whose heading is `text`. */
  question(text: string): Promise<void>;
  check(label: string): Promise<void>;
  fill(label: string, value: string, role?: "textbox" | "spinbutton"): Promise<void>;
  answer(action: "Accept" | "Decline" | "Cancel"): Promise<void>;
  /** Waits for the scenario's final result and returns it. */
  result(scenario: string): Promise<string>;
}

const quote = (s: string): string => JSON.stringify(s);
const aria = (role: string, name: string): string => `::-p-aria([name=${quote(name)}][role=${quote(role)}])`;

export function driveDemo(page: Page, timeout = 15_000): DemoDriver {
  return {
    async run(scenario) {
      await page
        .locator(aria("button", `Run: ${scenario}`))
        .setTimeout(timeout)
        .click();
    },
    async question(text) {
      await page.waitForFunction(
        (text) => [...document.querySelectorAll("#asks section.ask h3")].some((h) => h.textContent === text),
        { timeout, polling: 50 },
        text,
      );
    },
    async check(label) {
      await page.locator(aria("checkbox", label)).setTimeout(timeout).click();
    },
    async fill(label, value, role = "textbox") {
      await page.locator(aria(role, label)).setTimeout(timeout).fill(value);
    },
    async answer(action) {
      await page.locator(aria("button", action)).setTimeout(timeout).click();
    },
    async result(scenario) {
      const selector = `output[aria-label=${quote(`Result: ${scenario}`)}]`;
      const handle = await page.waitForFunction(
        (selector) => {
          const text = document.querySelector(selector)?.textContent ?? "";
          return text !== "" && text !== "running…" && text;
        },
        { timeout, polling: 50 },
        selector,
      );
      return (await handle.jsonValue()) as string;
    },
  };
}
