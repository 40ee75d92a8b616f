import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, Locator, Page } from "playwright-core";
import { startDemoHost } from "../../demo/host.ts";
import type { DemoHost } from "../../demo/host.ts";

/**
 * The demo host end to end, without the extension: headless Chromium clicks each scenario of both eras, answers
 * the real SDK servers' questions through the page's forms (accept, decline, cancel, URL mode with the consent
 * page), and reads each final result off the page.
 */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

async function eventually(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Demo {
  page: Page;
  run(name: string): Promise<void>;
  card(): Locator;
  button(name: string): Locator;
  /** Waits for the scenario's result, then returns it. */
  result(name: string): Promise<string>;
  /** Clicks Open on the URL card and waits for the consent page it opened. */
  openConsent(): Promise<string>;
}

function drive(page: Page): Demo {
  const output = (name: string) => page.getByRole("status", { name: `Result: ${name}`, exact: true });
  const demo: Demo = {
    page,
    async run(name) {
      await page.getByRole("button", { name: `Run: ${name}`, exact: true }).click();
    },
    card: () => page.locator("#asks section.ask"),
    button: (name) => page.locator("#asks").getByRole("button", { name, exact: true }),
    async result(name) {
      const out = output(name);
      let text = "";
      await eventually(`the result of ${name}`, async () => {
        text = (await out.textContent()) ?? "";
        return text !== "" && text !== "running…";
      });
      return text;
    },
    async openConsent() {
      const [tab] = await Promise.all([page.context().waitForEvent("page"), demo.button("Open").click()]);
      await tab.waitForLoadState();
      const text = (await tab.locator("h1").textContent()) ?? "";
      const url = tab.url();
      await tab.close();
      return `${text} @ ${url}`;
    },
  };
  return demo;
}

test("the demo host: every scenario of both eras, answered in the page, against the real SDK servers", {
  timeout: 180_000,
}, async (t) => {
  const host: DemoHost = await startDemoHost();
  t.after(() => host.close());
  const browser: Browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(host.url);
  const demo = drive(page);
  const origin = new URL(host.url).origin;
  assert.equal(await page.locator("#asks").textContent(), "No question from a server right now. Run a scenario.");

  await t.test(`confirm (${LEGACY}): accept`, async () => {
    await demo.run(`confirm (${LEGACY})`);
    await demo.card().getByRole("heading", { name: "Delete the staging database?" }).waitFor();
    await demo.card().getByLabel("Confirm", { exact: true }).check();
    await demo.button("Accept").click();
    assert.equal(await demo.result(`confirm (${LEGACY})`), 'confirm: accept {"confirm":true}');
  });

  await t.test(`register (${LEGACY}): the form checks its fields, then accept with all of them`, async () => {
    await demo.run(`register (${LEGACY})`);
    await demo.card().getByRole("heading", { name: "Create your account" }).waitFor();
    // Required fields empty: Accept is refused by the form and the question stays up.
    await demo.button("Accept").click();
    assert.equal(await demo.card().count(), 1);
    await demo.card().getByLabel("Email", { exact: true }).fill("ada@example.com");
    await demo.card().getByLabel("Age", { exact: true }).fill("36");
    await demo.card().getByLabel("Newsletter", { exact: true }).check();
    await demo.card().getByLabel("Plan", { exact: true }).selectOption("pro");
    await demo.card().getByLabel("Model Context Protocol", { exact: true }).check();
    await demo.card().getByLabel("Devtools", { exact: true }).check();
    await demo.button("Accept").click();
    assert.equal(
      await demo.result(`register (${LEGACY})`),
      'registered: accept {"email":"ada@example.com","age":36,"newsletter":true,"plan":"pro","topics":["mcp","devtools"]}',
    );
  });

  await t.test(`sign-in (${LEGACY}): URL mode, accept first, then the consent page completes it`, async () => {
    await demo.run(`sign-in (${LEGACY})`);
    await demo.card().getByText("Link your calendar account").waitFor();
    const shown = (await demo.card().locator("code").textContent()) ?? "";
    assert.ok(shown.startsWith(`${origin}/legacy/consent/`), shown);
    await demo.button("Accept").click();
    // Accepted is consent, not completion: the card waits for notifications/elicitation/complete, Open at hand.
    await demo.card().getByRole("status").waitFor();
    assert.match(await demo.openConsent(), new RegExp(`^Calendar account linked @ ${origin}/legacy/consent/`));
    assert.equal(await demo.result(`sign-in (${LEGACY})`), "sign-in: linked");
    await eventually("the card to go", async () => (await demo.card().count()) === 0);
  });

  await t.test(
    `sign-in (${LEGACY}): accept, then stop waiting: the host ends the session instead of hanging`,
    async () => {
      await demo.run(`sign-in (${LEGACY})`);
      await demo.card().getByText("Link your calendar account").waitFor();
      await demo.button("Accept").click();
      await demo.button("Stop waiting").click();
      assert.equal(
        await demo.result(`sign-in (${LEGACY})`),
        "failed: you stopped waiting for the page, so the host closed the session",
      );
      assert.equal(await demo.card().count(), 0);
    },
  );

  await t.test(`repositories (${LEGACY}): -32042, the consent page, then the retry`, async () => {
    await demo.run(`repositories (${LEGACY})`);
    await demo.card().getByText("Authorise access to your repositories").waitFor();
    await demo.openConsent();
    await demo.button("Accept").click();
    assert.equal(await demo.result(`repositories (${LEGACY})`), "repositories: mcp-elicitation-inspector");
  });

  await t.test(`trip (${LEGACY}): two questions, server text shown as text, then decline`, async () => {
    const city = `<img src=x onerror="window.__pwned=1">Lisbon`;
    await demo.run(`trip (${LEGACY})`);
    await demo.card().getByLabel("City", { exact: true }).fill(city);
    await demo.button("Accept").click();
    // The second question quotes the first answer: it must arrive as text, never as markup.
    const heading = demo.card().getByRole("heading", { name: `How many nights in ${city}?` });
    await heading.waitFor();
    assert.equal(await demo.card().locator("img").count(), 0);
    await demo.button("Decline").click();
    assert.equal(await demo.result(`trip (${LEGACY})`), `trip: accept ${JSON.stringify({ city })} then decline`);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  await t.test(`confirm (${MODERN}): cancel`, async () => {
    await demo.run(`confirm (${MODERN})`);
    await demo.card().getByRole("heading", { name: "Delete the staging database?" }).waitFor();
    await demo.button("Cancel").click();
    assert.equal(await demo.result(`confirm (${MODERN})`), "confirm: cancel");
  });

  await t.test(`register (${MODERN}): decline`, async () => {
    await demo.run(`register (${MODERN})`);
    await demo.card().getByRole("heading", { name: "Create your account" }).waitFor();
    await demo.button("Decline").click();
    assert.equal(await demo.result(`register (${MODERN})`), "registered: decline");
  });

  await t.test(`sign-in (${MODERN}): URL mode, open the consent page, then accept`, async () => {
    await demo.run(`sign-in (${MODERN})`);
    await demo.card().getByText("Link your calendar account").waitFor();
    assert.match(await demo.openConsent(), new RegExp(`^Calendar account linked @ ${origin}/modern/consent/`));
    await demo.button("Accept").click();
    assert.equal(await demo.result(`sign-in (${MODERN})`), "sign-in: linked");
  });

  await t.test(`trip (${MODERN}): MRTR over two rounds`, async () => {
    await demo.run(`trip (${MODERN})`);
    await demo.card().getByLabel("City", { exact: true }).fill("Porto");
    await demo.button("Accept").click();
    await demo.card().getByRole("heading", { name: "How many nights in Porto?" }).waitFor();
    await demo.card().getByLabel("nights", { exact: true }).fill("3");
    await demo.button("Accept").click();
    assert.equal(await demo.result(`trip (${MODERN})`), 'trip: Porto for accept {"nights":3}');
  });

  await t.test(`deploy (${MODERN}): three rounds`, async () => {
    await demo.run(`deploy (${MODERN})`);
    await demo.card().getByLabel("Environment", { exact: true }).selectOption("staging");
    await demo.button("Accept").click();
    await demo.card().getByRole("heading", { name: "Deploy to staging?" }).waitFor();
    await demo.card().getByLabel("Confirm", { exact: true }).check();
    await demo.button("Accept").click();
    await demo.card().getByLabel("Reason", { exact: true }).fill("hotfix");
    await demo.button("Accept").click();
    assert.equal(await demo.result(`deploy (${MODERN})`), 'deploy: staging because accept {"reason":"hotfix"}');
  });

  await t.test(`meeting (${MODERN}): two keyed questions in one round, one card after the other`, async () => {
    await demo.run(`meeting (${MODERN})`);
    await demo.card().getByLabel("Date", { exact: true }).fill("2026-09-01");
    await demo.button("Accept").click();
    await demo.card().getByLabel("Room", { exact: true }).selectOption("r2");
    await demo.button("Accept").click();
    assert.equal(
      await demo.result(`meeting (${MODERN})`),
      'meeting: accept {"date":"2026-09-01"} in accept {"room":"r2"}',
    );
  });

  await t.test(`prompt and resource (${MODERN})`, async () => {
    await demo.run(`prompt (${MODERN})`);
    await demo.card().getByLabel("Tone", { exact: true }).selectOption("formal");
    await demo.button("Accept").click();
    assert.equal(await demo.result(`prompt (${MODERN})`), "Draft a formal reply.");
    await demo.run(`resource (${MODERN})`);
    await demo.card().getByRole("heading", { name: "Show your private notes?" }).waitFor();
    await demo.button("Decline").click();
    assert.equal(await demo.result(`resource (${MODERN})`), "(hidden)");
  });

  await t.test("the transcript and the page stayed clean", async () => {
    const transcript = (await page.locator("#transcript").textContent()) ?? "";
    assert.match(transcript, /2025-11-25 list_repositories failed with -32042/);
    assert.match(transcript, /2026-07-28 plan_trip: you answered accept \{"nights":3\}/);
    assert.equal(await demo.card().count(), 0);
    assert.deepEqual(errors, []);
  });
});

test("npm start without a display: serves the demo, says so, prints the URL and how to load the extension", {
  timeout: 60_000,
}, async () => {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(process.execPath, ["scripts/start.mjs", "--port", "0"], {
    cwd: REPO,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  try {
    await eventually("the demo URL", async () => /Serving until Ctrl-C/.test(out) || child.exitCode !== null, 45_000);
    const url = /Demo page: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
    assert.ok(url, `no URL in:\n${out}\n${err}`);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>MCP elicitation demo host<\/title>/);
    const script = await fetch(new URL("/app.js", url));
    assert.equal(script.status, 200);
    assert.ok((await script.text()).length > 100_000, "the bundled SDK clients");
    assert.match(out, /No display here/);
    assert.match(out, /chrome:\/\/extensions → Developer mode → Load unpacked → .*dist\/chrome/);
    assert.match(out, /about:debugging → .*Load Temporary Add-on → .*dist\/firefox\/manifest\.json/);
    assert.match(out, /CLI demo: /);
    assert.doesNotMatch(out, /Launched Chromium/);
  } finally {
    child.kill("SIGTERM");
  }
  assert.equal(await exited, 0, err);
  assert.match(out, /Demo host stopped\./);
});

test("npm start with a display: launches the browser on the demo page with dist/chrome loaded; Ctrl-C stops both", {
  timeout: 60_000,
}, async (t) => {
  // A stand-in for Chromium that records its arguments and stays up, so the launch is checked without a display.
  const dir = await mkdtemp(join(tmpdir(), "mcp-demo-fake-chromium-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const fake = join(dir, "chromium");
  const argsFile = join(dir, "args");
  await writeFile(fake, `#!/bin/sh\necho $$ > "${argsFile}.pid"\nprintf '%s\\n' "$@" > "${argsFile}"\nexec sleep 60\n`);
  await chmod(fake, 0o755);
  const child = spawn(process.execPath, ["scripts/start.mjs", "--port", "0"], {
    cwd: REPO,
    env: { ...process.env, DISPLAY: ":99", CHROMIUM: fake },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  let flags: string[] = [];
  try {
    await eventually(
      "the browser launch",
      async () => existsSync(argsFile) && /Serving until Ctrl-C/.test(out),
      45_000,
    );
    flags = (await readFile(argsFile, "utf8")).trim().split("\n");
  } finally {
    child.kill("SIGINT");
  }
  assert.equal(await exited, 0);
  const url = /Demo page: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
  assert.equal(flags.at(-1), url, "opens the demo page");
  assert.ok(flags.includes("--auto-open-devtools-for-tabs"));
  const profile = flags.find((f) => f.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
  assert.ok(profile && profile.startsWith(tmpdir()), "a fresh temporary profile");
  assert.equal(existsSync(profile), false, "the profile is removed on exit");
  const extension = join(REPO, "dist/chrome");
  if (existsSync(join(extension, "manifest.json"))) {
    assert.ok(
      flags.includes(`--load-extension=${extension}`) && flags.includes(`--disable-extensions-except=${extension}`),
      flags.join(" "),
    );
    assert.match(out, /Launched Chromium with .*dist\/chrome loaded/);
  } else {
    assert.ok(!flags.some((f) => f.startsWith("--load-extension")));
    assert.match(out, /The extension build is missing/);
  }
  assert.doesNotMatch(out, /No display here/);
  const pid = Number(await readFile(`${argsFile}.pid`, "utf8"));
  assert.throws(() => process.kill(pid, 0), "the browser was stopped with the host");
});
