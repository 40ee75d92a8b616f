// A headless Chromium driven over raw CDP on --remote-debugging-pipe: no Playwright. Playwright (and Puppeteer)
// enable the Network domain on every page, which adds instrumentation work to each fetch in all three browsers
// alike and so would dilute the ratio the benchmark is after. Here the page gets only Runtime.evaluate and
// Performance.getMetrics; the browser's pid is ours, so its process tree can be read from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/** The switches Playwright passes that matter for timing (no throttling of background pages or timers), plus headless. */
const COMMON_ARGS = [
  "--headless",
  "--remote-debugging-pipe",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-field-trial-config",
  "--disable-background-networking",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--disable-back-forward-cache",
  "--disable-breakpad",
  "--disable-component-update",
  "--disable-component-extensions-with-background-pages",
  "--disable-default-apps",
  "--disable-dev-shm-usage",
  "--disable-hang-monitor",
  "--disable-ipc-flooding-protection",
  "--disable-popup-blocking",
  "--disable-sync",
  "--metrics-recording-only",
  "--password-store=basic",
  "--use-mock-keychain",
  "--mute-audio",
  "--disable-features=OptimizationHints,MediaRouter,DestroyProfileOnBrowserClose,HttpsUpgrades,PaintHolding",
];

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  method: string;
}

export interface Session {
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Runs an expression in the page and returns its (awaited) value. */
  evaluate<T>(expression: string): Promise<T>;
}

export interface Browser {
  name: string;
  pid: number;
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Browser-level events (Tracing's, for profile.ts). */
  on<T>(method: string, listener: (params: T) => void): void;
  attach(targetId: string): Promise<Session>;
  close(): Promise<void>;
}

export async function launch(name: string, extensionDir?: string): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), `bench-tap-${name}-`));
  const args = [...COMMON_ARGS, `--user-data-dir=${profile}`];
  if (extensionDir) args.push(`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`);
  args.push("about:blank");
  const child: ChildProcess = spawn("/usr/bin/chromium", args, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  toBrowser.on("error", () => undefined);

  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, ((params: unknown) => void)[]>();
  let buffer = "";
  let exited = false;
  fromBrowser.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let end: number;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const message = JSON.parse(text) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id === undefined) {
        // Events: the bench itself enables none; profile.ts listens to Tracing's.
        if (message.method) for (const listener of listeners.get(message.method) ?? []) listener(message.params);
        continue;
      }
      const waiter = pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${name}: ${waiter.method}: ${message.error.message}`));
      else waiter.resolve(message.result);
    }
  });
  const exitedPromise = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      for (const waiter of pending.values())
        waiter.reject(new Error(`${name}: browser exited (${waiter.method})\n${stderr.slice(-2000)}`));
      pending.clear();
      resolve();
    }),
  );

  const raw = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> => {
    if (exited) return Promise.reject(new Error(`${name}: browser has exited`));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }) + "\0");
    });
  };

  return {
    name,
    pid: child.pid!,
    send: (method, params) => raw(method, params),
    on(method, listener) {
      listeners.set(method, [...(listeners.get(method) ?? []), listener as (params: unknown) => void]);
    },
    async attach(targetId) {
      const { sessionId } = await raw<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
      const send = <T>(method: string, params?: Record<string, unknown>) => raw<T>(method, params, sessionId);
      return {
        send,
        async evaluate<T>(expression: string): Promise<T> {
          const reply = await send<{
            result: { value?: T };
            exceptionDetails?: { text: string; exception?: { description?: string } };
          }>("Runtime.evaluate", {
            expression,
            awaitPromise: true,
            returnByValue: true,
          });
          if (reply.exceptionDetails)
            throw new Error(`${name}: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
          return reply.result.value as T;
        },
      };
    },
    async close() {
      if (!exited) {
        raw("Browser.close").catch(() => undefined);
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exitedPromise;
        clearTimeout(timer);
      }
      await rm(profile, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

/** The renderer main thread's CPU time so far (CDP `Performance.getMetrics` ThreadTime), in ms; needs `Performance.enable`. */
export async function threadTimeMs(page: Session): Promise<number> {
  const { metrics } = await page.send<{ metrics: { name: string; value: number }[] }>("Performance.getMetrics");
  return metrics.find((m) => m.name === "ThreadTime")!.value * 1000;
}

/** Opens the bench page in a new tab and waits until its script is ready (profile.ts, trace.ts). */
export async function openBenchPage(browser: Browser, url: string): Promise<Session> {
  const { targetId } = await browser.send<{ targetId: string }>("Target.createTarget", { url });
  const page = await browser.attach(targetId);
  for (
    let i = 0;
    i < 100 && !(await page.evaluate<boolean>("typeof window.benchReady === 'object'").catch(() => false));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  await page.evaluate("window.benchReady");
  return page;
}
