/**
 * Text for XML 1.0: captured payloads are hostile, so every character XML cannot carry (C0 controls other than tab,
 * newline and return; lone surrogates; U+FFFE and U+FFFF) becomes U+FFFD, and markup characters are escaped.
 */
const NOT_XML = new RegExp(
  "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]" + // controls XML 1.0 forbids; U+FFFE, U+FFFF
    "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]", // lone surrogates
  "g",
);

export const xmlText = (s: string): string =>
  s.replace(NOT_XML, "\ufffd").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** An attribute value: as text, with quotes escaped and whitespace kept (a parser would fold a raw newline). */
export const xmlAttr = (s: string): string =>
  xmlText(s)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
