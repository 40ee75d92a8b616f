import { readdirSync, readFileSync } from "node:fs";

/**
 * Memory of a Chromium's processes from /proc (Linux): those whose command line names the profile
 * (`--user-data-dir=<profile>`). The extension's pages and workers run in
 * renderers started with `--extension-process` (the panel page, its import worker and the service worker share
 * one when they can).
 */
export interface ChromiumProcess {
  pid: number;
  /** `--type=` of the process ("browser" for the browser itself). */
  type: string;
  extension: boolean;
  /** Resident set now and its high-water mark (VmRSS, VmHWM), bytes. */
  rss: number;
  hwm: number;
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

const kb = (status: string, field: string): number =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;

export function chromiumProcesses(profile: string): ChromiumProcess[] {
  const out: ChromiumProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    // Chromium rewrites its children's titles: their command line is one string joined by spaces, not by NULs.
    const cmd = read(`/proc/${name}/cmdline`)?.split(/[\0 ]/);
    // Every Chromium process of this browser names the profile (the browser, its zygotes and their children).
    if (!cmd?.includes(`--user-data-dir=${profile}`)) continue;
    const status = read(`/proc/${name}/status`);
    if (!status) continue;
    const type = cmd.find((a) => a.startsWith("--type="))?.slice(7) ?? "browser";
    out.push({
      pid: Number(name),
      type,
      extension: cmd.includes("--extension-process"),
      rss: kb(status, "VmRSS"),
      hwm: kb(status, "VmHWM"),
    });
  }
  return out;
}

/**
 * Polls the extension renderers' RSS every `everyMs` until stopped: the peak of their summed RSS, and of each
 * process's own high-water mark (the kernel's VmHWM, which a poll cannot miss).
 */
export function watchExtensionMemory(profile: string, everyMs = 100) {
  let peakSum = 0;
  const hwm = new Map<number, number>();
  const sample = (): number => {
    let sum = 0;
    for (const p of chromiumProcesses(profile)) {
      if (!p.extension) continue;
      sum += p.rss;
      hwm.set(p.pid, Math.max(hwm.get(p.pid) ?? 0, p.hwm));
    }
    peakSum = Math.max(peakSum, sum);
    return sum;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    sample,
    /** Peak summed RSS since the last reset, and the sum of the processes' high-water marks (since they started). */
    peak: (): { sum: number; hwm: number; processes: number } => {
      sample();
      return { sum: peakSum, hwm: [...hwm.values()].reduce((a, b) => a + b, 0), processes: hwm.size };
    },
    reset(): void {
      peakSum = 0;
      sample();
    },
    stop: (): void => clearInterval(timer),
  };
}
