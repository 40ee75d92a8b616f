import { escapeInvisible, hasInvisible } from "./text.ts";

/** A URL-mode URL taken apart for display. Nothing here fetches or opens it. */
export interface UrlInfo {
  /** The URL as written, with invisible characters made visible, split around its host. */
  before: string;
  host: string;
  after: string;
  /** The host as the browser would resolve it (ASCII, punycode), when the URL parses. */
  hostname?: string;
  /** The host in Unicode, when it is an IDN (xn-- labels). */
  unicodeHost?: string;
  warnings: string[];
}

const AUTHORITY = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)([\s\S]*)$/;

export function urlInfo(raw: unknown): UrlInfo {
  if (typeof raw !== "string")
    return {
      before: "",
      host: "",
      after: "",
      warnings: [`url is not a string (${raw === null ? "null" : typeof raw})`],
    };
  const warnings: string[] = [];
  if (hasInvisible(raw))
    warnings.push(
      "The URL contains invisible or bidirectional-control characters (shown as \\u escapes): what a user sees is not what it is.",
    );
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    warnings.push("The URL does not parse.");
  }
  const shownRaw = escapeInvisible(raw);
  const m = AUTHORITY.exec(shownRaw);
  let before = shownRaw;
  let host = "";
  let after = "";
  if (m) {
    const authority = m[2]!;
    const at = authority.lastIndexOf("@");
    const hostPort = authority.slice(at + 1);
    const port = /:\d*$/.exec(hostPort);
    host = port && !hostPort.endsWith("]") ? hostPort.slice(0, port.index) : hostPort;
    before = m[1]! + authority.slice(0, at + 1);
    after = hostPort.slice(host.length) + m[3]!;
    if (at >= 0) warnings.push(`Everything before "@" is a user name, not the site: the site is ${host}.`);
  }
  const info: UrlInfo = { before, host, after, warnings };
  if (parsed) {
    const scheme = parsed.protocol;
    if (scheme !== "https:" && scheme !== "http:")
      warnings.push(`Scheme ${scheme} is not a web page: a client must never open it.`);
    else if (scheme === "http:")
      warnings.push("Plain http: the page and what the user types into it travel unencrypted.");
    if (parsed.hostname) {
      info.hostname = parsed.hostname;
      if (parsed.hostname.split(".").some((label) => label.startsWith("xn--"))) {
        const unicode = parsed.hostname
          .split(".")
          .map((label) => (label.startsWith("xn--") ? (decodePunycode(label.slice(4)) ?? label) : label))
          .join(".");
        info.unicodeHost = escapeInvisible(unicode);
        warnings.push(
          `Internationalized domain: the browser resolves ${parsed.hostname}, which may be shown as ${info.unicodeHost}; look-alike letters can imitate another site.`,
        );
      }
      if (/^[\d.]+$/.test(parsed.hostname) || parsed.hostname.startsWith("["))
        warnings.push("The host is an IP address, not a domain name.");
    }
  }
  return info;
}

/** RFC 3492 decoding of one label's payload (after "xn--"); undefined when it is not valid punycode. */
export function decodePunycode(input: string): string | undefined {
  const base = 36,
    tMin = 1,
    tMax = 26,
    skew = 38,
    damp = 700;
  const output: number[] = [];
  const delimiter = input.lastIndexOf("-");
  for (let j = 0; j < Math.max(0, delimiter); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return undefined;
    output.push(c);
  }
  const digit = (c: number): number => (c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : base);
  let n = 128,
    bias = 72,
    i = 0;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length; ) {
    const oldi = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return undefined;
      const d = digit(input.charCodeAt(index++));
      if (d >= base) return undefined;
      i += d * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (d < t) break;
      w *= base - t;
      if (w > 0x7fffffff) return undefined;
    }
    const len = output.length + 1;
    let delta = oldi === 0 ? Math.floor((i - oldi) / damp) : (i - oldi) >> 1;
    delta += Math.floor(delta / len);
    let k = 0;
    for (; delta > ((base - tMin) * tMax) >> 1; k += base) delta = Math.floor(delta / (base - tMin));
    bias = Math.floor(k + ((base - tMin + 1) * delta) / (delta + skew));
    n += Math.floor(i / len);
    i %= len;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
