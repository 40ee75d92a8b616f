import type { Page, Response } from "playwright-core";

/**
 * Each host driven through its own UI, as a person would (selectors measured in docs/hosts-wire.md). Each step
 * waits for what the host shows, never for a fixed time.
 */

const UI_TIMEOUT = 30_000;

/** What the page showed and what it was answered: compared between a run with the extension and one without. */
export interface Observed {
  /** The tool results the host showed, in order. */
  results: string[];
  /** Every response the page got from the host's origin(s): `METHOD path status` (no query: ids and tokens differ). */
  responses: string[];
  /** Uncaught errors in the page. */
  errors: string[];
}

/** Starts observing a page: its responses from `origins` and its uncaught errors. */
export function observe(page: Page, origins: readonly string[]): Observed {
  const observed: Observed = { results: [], responses: [], errors: [] };
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (!origins.includes(url.origin)) return;
    observed.responses.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
  });
  page.on("pageerror", (error) => observed.errors.push(error.message));
  return observed;
}

/** MCP Inspector v2 (2.12.0): connect to its one server, open Tools, pick a tool. */
export async function inspectorV2Connect(page: Page, url: string, tool: string): Promise<void> {
  await page.goto(url);
  // The Mantine switch's input is covered by its track: a person clicks the track.
  await page.locator(".mantine-Switch-track").first().click({ timeout: UI_TIMEOUT });
  await page.getByText("Connected", { exact: true }).first().waitFor({ timeout: UI_TIMEOUT });
  await page.getByText("Tools", { exact: true }).click({ timeout: UI_TIMEOUT });
  await page.getByRole("button", { name: tool }).click({ timeout: UI_TIMEOUT });
}

/**
 * MCP Inspector v2: Execute Tool, answer its "Elicitation Request" dialog (fill `fields` by their titles and Submit,
 * or Decline), wait for the Results and return their text, then close them so the tool can run again.
 */
export async function inspectorV2Call(
  page: Page,
  answer: { fill: Record<string, string> } | "decline",
  expect: RegExp,
): Promise<string> {
  await page.getByRole("button", { name: "Execute Tool" }).click({ timeout: UI_TIMEOUT });
  const dialog = page.getByRole("dialog", { name: "Elicitation Request" });
  await dialog.waitFor({ timeout: UI_TIMEOUT });
  if (answer === "decline") await dialog.getByRole("button", { name: "Decline" }).click();
  else {
    for (const [title, value] of Object.entries(answer.fill))
      await dialog.getByRole("textbox", { name: title, exact: true }).fill(value);
    await dialog.getByRole("button", { name: "Submit" }).click();
  }
  const result = page.getByText(expect);
  await result.waitFor({ timeout: UI_TIMEOUT });
  const text = (await result.textContent()) ?? "";
  await page.getByRole("button", { name: "Close results" }).click({ timeout: UI_TIMEOUT });
  return text;
}

/** MCP Inspector v1 (1.0.3): Connect to the URL in its URL box (through its proxy, as the page query set it). */
export async function inspectorV1Connect(page: Page, serverName: string): Promise<void> {
  await page.getByRole("button", { name: "Connect", exact: true }).click({ timeout: UI_TIMEOUT });
  await page.getByText(new RegExp(`Connected\\s*${serverName}`)).waitFor({ timeout: UI_TIMEOUT });
}

/** MCP Inspector v1: Disconnect, type another server's URL, Connect. */
export async function inspectorV1Switch(page: Page, serverUrl: string, serverName: string): Promise<void> {
  await page.getByRole("button", { name: "Disconnect" }).click({ timeout: UI_TIMEOUT });
  await page.getByRole("button", { name: "Connect", exact: true }).waitFor({ timeout: UI_TIMEOUT });
  await page.getByRole("textbox", { name: "URL" }).fill(serverUrl);
  await inspectorV1Connect(page, serverName);
}

/**
 * MCP Inspector v1: Tools → (Clear, List Tools) → the tool → Run Tool; answer in its Elicitations tab (fill fields by
 * their descriptions and Submit, or Decline); back in Tools, return the "Tool Result" text.
 */
export async function inspectorV1Call(
  page: Page,
  tool: string,
  answer: { fill: Record<string, string> } | "decline",
  expect: RegExp,
): Promise<string> {
  await page.getByRole("tab", { name: "Tools" }).click({ timeout: UI_TIMEOUT });
  const tools = page.getByRole("tabpanel", { name: "Tools" });
  // After a reconnect the previous server's list stays until cleared.
  const clear = tools.getByRole("button", { name: "Clear" });
  if (await clear.isEnabled()) await clear.click();
  await tools.getByRole("button", { name: "List Tools" }).click({ timeout: UI_TIMEOUT });
  await tools.getByText(tool, { exact: true }).click({ timeout: UI_TIMEOUT });
  await tools.getByRole("button", { name: "Run Tool" }).click({ timeout: UI_TIMEOUT });
  const asked = page.getByRole("tabpanel", { name: /Elicitations/ });
  await asked.getByRole("heading", { name: "Information Request" }).waitFor({ timeout: UI_TIMEOUT });
  if (answer === "decline") await asked.getByRole("button", { name: "Decline" }).click();
  else {
    for (const [description, value] of Object.entries(answer.fill))
      await asked.getByRole("textbox", { name: description, exact: true }).fill(value);
    await asked.getByRole("button", { name: "Submit" }).click();
  }
  await page.getByRole("tab", { name: "Tools" }).click({ timeout: UI_TIMEOUT });
  await tools.getByRole("heading", { name: /Tool Result/ }).waitFor({ timeout: UI_TIMEOUT });
  const result = tools.getByText(expect);
  await result.waitFor({ timeout: UI_TIMEOUT });
  return (await result.textContent()) ?? "";
}

/** The MCP-B test pages (test/hosts/mcpb/): click a tool's button, answer the page's dialog, read its output. */
export async function mcpbCall(
  page: Page,
  tool: string,
  answer: { fill: Record<string, string> } | "decline",
  expect: RegExp,
): Promise<string> {
  await page.getByRole("button", { name: tool, exact: true }).click({ timeout: UI_TIMEOUT });
  const dialog = page.getByRole("dialog");
  await dialog.waitFor({ timeout: UI_TIMEOUT });
  if (answer === "decline") await dialog.getByRole("button", { name: "Decline" }).click();
  else {
    for (const [label, value] of Object.entries(answer.fill))
      await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole("button", { name: "Accept" }).click();
  }
  const output = page.locator("output").filter({ hasText: expect });
  await output.waitFor({ timeout: UI_TIMEOUT });
  return (await output.textContent()) ?? "";
}
