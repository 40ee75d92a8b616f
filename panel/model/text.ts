/**
 * Captured payloads are hostile: they are only ever rendered as text nodes, and the characters that would make a
 * text lie about itself — bidi overrides and isolates, zero-width and other invisible format characters — are
 * shown as visible `\uXXXX` escapes (in JSON that escape is also the same string, so copied JSON stays equal).
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed code point is matched alone on purpose.
  /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]/g;

export const hasInvisible = (text: string): boolean => {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
};

export const escapeInvisible = (text: string): string =>
  text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Any captured value as one line of safe text (non-strings as compact JSON), cut at `max` characters. */
export function shown(value: unknown, max = 200): string {
  const text = typeof value === "string" ? value : value === undefined ? "" : (JSON.stringify(value) ?? String(value));
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return escapeInvisible(cut);
}

export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "";
  if (ms < 1) return ms <= 0 ? "0 ms" : "<1 ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Wall-clock time of day with milliseconds. */
export function clock(time: number): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}
