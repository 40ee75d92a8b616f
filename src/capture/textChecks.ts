import type { Problem } from "./problem.ts";

/**
 * What both importers say before they parse: an empty file is empty (not "not JSON", not a silent success), and a
 * file in UTF-16 — Windows tools write it, and a UTF-8 read turns it into NULs and U+FFFD — is named as such.
 */
export function unreadableText(text: string, file: string): Problem | undefined {
  if (text.trim() === "" || text === "\uFEFF") return { file, message: "the file is empty: no capture records" };
  const encoding = utf16Of(text);
  return encoding ? notUtf8(file, encoding) : undefined;
}

export const notUtf8 = (file: string, encoding: string): Problem => ({
  file,
  message: `the file is ${encoding} encoded; capture files are UTF-8 (save or convert it as UTF-8)`,
});

/** "UTF-16LE"/"UTF-16BE" when the text is UTF-16 read as UTF-8 (or as Latin-1): its BOM, or a NUL beside every ASCII character. */
export function utf16Of(text: string): string | undefined {
  const head = text.slice(0, 64);
  // FF FE / FE FF: as UTF-8 two U+FFFD; as Latin-1 ÿþ / þÿ.
  if (head.startsWith("\uFFFD\uFFFD") || head.startsWith("\u00FF\u00FE"))
    return head.charCodeAt(2) === 0 ? "UTF-16BE" : "UTF-16LE";
  if (head.startsWith("\u00FE\u00FF")) return "UTF-16BE";
  let even = 0;
  let odd = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0) i % 2 === 0 ? even++ : odd++;
  if (even + odd < head.length / 4) return undefined;
  return odd > even ? "UTF-16LE" : "UTF-16BE";
}
