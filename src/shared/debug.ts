/**
 * Debug logging, compiled out of release builds: `__DEBUG__` is a build-time constant (build.mjs), so esbuild
 * drops the call sites' arguments with the dead branch.
 */
export function debug(scope: string, ...args: unknown[]): void {
  // biome-ignore lint/suspicious/noConsole: the one place extension code writes to the console, in debug builds only.
  if (typeof __DEBUG__ !== "undefined" && __DEBUG__) console.debug(`[mcp-elicit:${scope}]`, ...args);
}
