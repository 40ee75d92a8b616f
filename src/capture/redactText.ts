import { secretValue } from "../util/secrets.ts";

// Credentials in free text and URLs (redact.ts applies these to every string of a record); what is replaced and
// why: docs/capture-format.md, "Export and redaction".

export const REDACTED = "[REDACTED]";

/** Query and fragment parameters that hold credentials, lower-cased without `-` and `_`. OAuth `state` is benign. */
const URL_SECRETS = new Set([
  "token",
  "accesstoken",
  "idtoken",
  "refreshtoken",
  "authtoken",
  "sessiontoken",
  "logintoken",
  "code",
  "sig",
  "signature",
  "xamzsignature",
  "xamzcredential",
  "xamzsecuritytoken",
  "xgoogsignature",
  "xgoogcredential",
  "apikey",
  "password",
  "pass",
  "passwd",
  "pwd",
  "secret",
  "clientsecret",
  "session",
  "auth",
  "authorization",
  "jwt",
  "otp",
  "magic",
  "magiclink",
]);
/** `key=` alone is often a map or cache key; only a long value is taken for an API key. */
const LONG_KEY = 16;

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const PEM = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g;
/** Runs that can hold a key, a token or a JWT (dots inside only: a sentence's full stop stays); each is tested on its own with secrets.ts. */
const CANDIDATE = /[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*/g;
/** Digit runs that can hold a card number, separators included. */
const DIGITS = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

const norm = (name: string): string => name.toLowerCase().replace(/[-_]/g, "");
const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
};

/** Path segments that name a key in the path itself (`/s/<secret>/mcp`, `/key/<key>`). */
const KEY_SEGMENTS = new Set([
  "s",
  "k",
  "key",
  "keys",
  "apikey",
  "api-key",
  "api_key",
  "token",
  "tokens",
  "secret",
  "secrets",
  "sk",
]);

/**
 * A key carried in a URL's path, as hosted MCP servers do (`/v3/<32 hex>/mcp`, `/s/<secret>/mcp`): a run of 32 or
 * more hex digits, a segment after one that names a key, or a long run of letters and digits mixed like a token.
 */
function isPathKey(previous: string, segment: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(segment)) return true;
  if (KEY_SEGMENTS.has(previous) && segment.length >= 8) return true;
  return (
    segment.length >= 24 &&
    /^[A-Za-z0-9_-]+$/.test(segment) &&
    /\d/.test(segment) &&
    /[A-Za-z]/.test(segment) &&
    !/^[a-z]+(-[a-z0-9]+)*$/.test(segment)
  );
}

/**
 * A URL with its credentials replaced: the user info (`[REDACTED]@host`), credential parameters in the query or
 * fragment (`token=[REDACTED]`, name kept), any parameter value or path segment that looks like a credential, and
 * keys carried in the path (isPathKey).
 * Scheme, host and the rest of the path stay, so the endpoint (origin + path) the engine groups by is unchanged.
 */
export function redactUrl(url: string): string {
  const start = url.search(/[?#]/);
  const head = start < 0 ? url : url.slice(0, start);
  const tail = start < 0 ? "" : url.slice(start);
  const withoutUser = head.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i,
    (_, scheme: string) => `${scheme}${REDACTED}@`,
  );
  let previous = "";
  const path = withoutUser.replace(/\/([^/]+)/g, (whole, segment: string) => {
    const plain = decode(segment);
    const secret = secretValue(plain) !== null || isPathKey(previous, plain);
    previous = plain.toLowerCase();
    return secret ? `/${REDACTED}` : whole;
  });
  const params = tail.replace(
    /([?&#;])([^=&#?;\s]*)=([^&#;?\s]*)/g,
    (whole, sep: string, name: string, value: string) => {
      if (value === "" || value === REDACTED) return whole;
      const n = norm(decode(name));
      const secret =
        URL_SECRETS.has(n) || (n === "key" && value.length >= LONG_KEY) || secretValue(decode(value)) !== null;
      return secret ? `${sep}${name}=${REDACTED}` : whole;
    },
  );
  const out = path + params;
  // A url member that is not a URL at all (a hand-made capture) can be a bare credential: its tokens are checked too.
  return secretValue(out) === null
    ? out
    : out.replace(CANDIDATE, (t) => (secretValue(t, { cards: false }) ? REDACTED : t));
}

/**
 * A free text with its credentials replaced: URLs (see redactUrl; a whole-text relative URL too, as in the
 * HTTP+SSE `endpoint` event), PEM private-key blocks, and every token secrets.ts takes for a key, a JWT or a card
 * number. Should secrets.ts still see a credential afterwards, the whole text is replaced.
 */
export function redactText(text: string): string {
  let out = text;
  if (out.includes("://")) out = out.replace(URL_IN_TEXT, redactUrl);
  else if (/^[/?][^\s]*[?#]/.test(out)) out = redactUrl(out);
  if (secretValue(out) === null) return out;
  out = out
    .replace(PEM, REDACTED)
    .replace(CANDIDATE, (t) => (secretValue(t, { cards: false }) ? REDACTED : t))
    .replace(DIGITS, (t) => (secretValue(t) ? REDACTED : t));
  return secretValue(out) === null ? out : REDACTED;
}
