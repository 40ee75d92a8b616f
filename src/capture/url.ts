/**
 * URL helpers of the capture layer, without zod: the envelope adapters (src/capture/envelopes) run in the worker
 * and the importers and need them, and record.ts re-exports them for everything else.
 */

/** An http(s) URL, parsed; undefined for anything else. */
export function httpUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `https://host:port/path` of an http(s) URL (no query, no fragment), or undefined. */
export function originAndPath(url: string): string | undefined {
  const parsed = httpUrl(url);
  return parsed && `${parsed.origin}${parsed.pathname}`;
}

/** `https://host:port` of an http(s) URL, or undefined. */
export const originOf = (url: string): string | undefined => httpUrl(url)?.origin;
