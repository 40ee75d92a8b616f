// CPU time of a browser's whole process tree from /proc: every thread's on-CPU nanoseconds (task/*/schedstat),
// summed over the browser process and its descendants (zygote, renderers, the extension's worker, GPU, network and
// storage services). A thread that ends between two readings loses its time; Chromium's threads live long.
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid: string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so split after the last ')'.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
  } catch {
    return undefined;
  }
}

/** The root and all its descendants, found by walking every process's parent. */
export function processTree(root: number): string[] {
  const children = new Map<string, string[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent === undefined) continue;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(name);
  }
  const out: string[] = [];
  const stack = [String(root)];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Milliseconds of CPU used so far by every thread of the given processes. */
export function cpuMs(pids: readonly string[]): number {
  let ns = 0;
  for (const pid of pids) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone
    }
    for (const tid of tasks) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // ended meanwhile
      }
    }
  }
  return ns / 1e6;
}
