const utf8 = new TextDecoder("utf-8");

/**
 * Decodes base64 to UTF-8 text with `atob`, which browsers and Node both have (no Buffer: the panel runs this too).
 * Invalid UTF-8 becomes U+FFFD rather than an error: the engine then reports the text it cannot parse.
 * Throws on input that is not base64; callers report that as a problem.
 */
export function decodeBase64Text(base64: string): string {
  const binary = atob(/\s/.test(base64) ? base64.replace(/\s+/g, "") : base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return utf8.decode(bytes);
}
