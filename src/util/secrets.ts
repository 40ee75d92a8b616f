// Credential heuristics for form-secret-field, form-secret-value and url-no-sensitive-data.
//
// WHY: 2025-11-25 and 2026-07-28 client/elicitation.mdx § "User Interaction Model" (Warning block):
// "Servers MUST NOT use form mode elicitation to request sensitive information such as passwords, API
// keys, access tokens, or payment credentials. Servers MUST use URL mode for interactions involving such
// sensitive information." 2025-06-18 forbids "sensitive information" outright, undefined, so there
// identity numbers (SSN and similar) are flagged too, at warning. Profile data ("a name, email address,
// or username") is "not categorically prohibited" and never flagged.
//
// FIELD HEURISTIC (secretTerm, askedTerm)
// 1. Text (a property name, title, description or the message) is split into lower-case words on case
//    changes, digits-to-letters and separators: `apiKey`, `api-key`, `API_KEY`, "API key" all read
//    "api key"; `passwordExpiryDays` reads "password expiry days"; `secretariat` stays one word.
// 2. A credential term is a whole-word sequence from SECRET_TERMS (a trailing plural "s" is allowed:
//    "api keys"). Substrings never count: `pinned`, `secretariat`, `spinner`, `keypad` are not "pin",
//    "secret", "key".
// 3. A term that is only talked ABOUT is not asked for: it is ignored when a modifier word follows it
//    within two words (hint, count, length, expiry, policy, type, name, id, …: "password expiry days",
//    "token type", "API key name"), a quantity word comes right before it ("max tokens",
//    "number of api keys"), or a modifier then "for"/"of" leads up to it ("a name for the new API
//    token", "the length of your password"). "pin" counts only alone or as "PIN code/number" ("pin
//    location" is a map pin). Number, integer and boolean properties and selects (enum, oneOf, arrays)
//    are never secret fields: they hold a quantity, a yes/no or a choice about the credential
//    ("password_age_days", "has_api_key", "which API key to rotate").
// 4. Property name and title are labels: any unmodified term there fires. A description fires only if it
//    also asks ("enter", "provide", "paste", "your", …) and the name/title do not already say the field
//    is ordinary profile data (a username field whose description mentions "your password" is fine).
// 5. The message fires only if it asks (same cues) and the form has a free-text string field to put the
//    answer in: "Enter your OpenAI API key" fires; "Confirm you want to delete the token list" does not
//    ("list" is a modifier, and "confirm" is not a request for input).
// 6. Payment words: card number, credit card, cvv/cvc, card + expiry, iban; routing/account number only
//    next to "payment" or "bank".
//
// VALUE HEURISTIC (secretValue): well-known key prefixes, a JWT whose header decodes to JSON with "alg",
// a PEM private-key block, and 13–19 digit Luhn-valid card numbers starting 2–6 (the card-issuer range,
// which also keeps 13-digit millisecond timestamps out). Findings name the kind, never the value.

/**
 * Splits identifiers and prose into lower-case words: runs of ASCII letters and digits, split where a lower-case
 * letter meets an upper-case one (apiKey), before the last capital of a run that goes on in lower case (OAuthToken:
 * o auth token) and where a letter meets a digit (fa2: fa 2, but 2fa stays). One pass over the characters; a text
 * with any non-ASCII character goes through `wordsOf`, the same rules as regular expressions, because lower-casing
 * can turn such a character into an ASCII letter (the Kelvin sign K into k) that then belongs to a word.
 */
export function words(text: string): string[] {
  if (NON_ASCII.test(text)) return wordsOf(text);
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const upper = c >= 65 && c <= 90;
    const digit = c >= 48 && c <= 57;
    if (!upper && !digit && !(c >= 97 && c <= 122)) {
      if (start >= 0) out.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) start = i;
    else {
      const p = text.charCodeAt(i - 1);
      const pLower = p >= 97 && p <= 122;
      const pUpper = p >= 65 && p <= 90;
      const next = text.charCodeAt(i + 1);
      if ((pLower && upper) || ((pLower || pUpper) && digit) || (pUpper && upper && next >= 97 && next <= 122)) {
        out.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  return out;
}

const NON_ASCII = /[^\x00-\x7f]/;

function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([a-zA-Z])(\d)/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const CREDENTIALS: string[][] = [
  ["password"],
  ["passwd"],
  ["passphrase"],
  ["passcode"],
  ["pwd"],
  ["pin"],
  ["pin", "code"],
  ["secret"],
  ["client", "secret"],
  ["api", "key"],
  ["apikey"],
  ["x", "api", "key"],
  ["access", "key"],
  ["secret", "key"],
  ["token"],
  ["access", "token"],
  ["refresh", "token"],
  ["auth", "token"],
  ["bearer"],
  ["session", "cookie"],
  ["private", "key"],
  ["ssh", "key"],
  ["seed", "phrase"],
  ["mnemonic"],
  ["recovery", "phrase"],
  ["recovery", "code"],
  ["otp"],
  ["2", "fa"],
  ["2fa"],
  ["mfa", "code"],
  ["totp"],
  ["one", "time", "code"],
  ["security", "code"],
  ["card", "number"],
  ["credit", "card"],
  ["debit", "card"],
  ["cvv"],
  ["cvc"],
  ["cvv", "2"],
  ["iban"],
];
const PAYMENT_ACCOUNT: string[][] = [
  ["routing", "number"],
  ["account", "number"],
];
// 2025-06-18 only ("sensitive information" undefined there): identity numbers.
const IDENTITY: string[][] = [
  ["ssn"],
  ["social", "security"],
  ["passport", "number"],
  ["national", "id"],
  ["tax", "id"],
  ["driver", "license"],
  ["drivers", "license"],
];

const MODIFIERS_AFTER = new Set([
  "hint",
  "hints",
  "count",
  "length",
  "expiry",
  "expiration",
  "expires",
  "expired",
  "expire",
  "age",
  "days",
  "policy",
  "policies",
  "type",
  "types",
  "name",
  "names",
  "id",
  "ids",
  "label",
  "reset",
  "strength",
  "rotation",
  "scope",
  "scopes",
  "limit",
  "limits",
  "list",
  "usage",
  "used",
  "format",
  "path",
  "file",
  "url",
  "uri",
  "endpoint",
  "manager",
  "prefix",
  "last",
  "digits",
  "budget",
  "ref",
  "reference",
  "arn",
  "version",
  "method",
  "channel",
  "provider",
  "enabled",
  "address",
  "symbol",
  "amount",
  "balance",
]);
const MODIFIERS_BEFORE = new Set(["max", "min", "maximum", "minimum", "num", "number", "many", "total", "count"]);
const ASK =
  /\b(enter|provide|paste|type|input|give|share|supply|submit|send|need|needs|require|requires|required|what is|what's|your)\b/i;
const PROFILE = new Set(["username", "user", "email", "name", "login", "handle", "account", "nickname", "display"]);

/** A term of the lists above, with its place in the order terms are tried in. */
interface Term {
  words: string[];
  name: string;
  group: "credential" | "identity" | "payment";
}

/**
 * Every term, longest first (so "access token" is named rather than "token"), then in list order, and filed under
 * each word it can start with: its first word, and a single word's plural too ("api keys" reads "api key" because
 * only the last word of a term may take an "s"). At each word of a text only the terms filed under that word are
 * tried, in that order; built once.
 */
const TERMS_BY_FIRST_WORD = (() => {
  const all: Term[] = [
    ...CREDENTIALS.map((w) => ({ words: w, name: w.join(" "), group: "credential" as const })),
    ...IDENTITY.map((w) => ({ words: w, name: w.join(" "), group: "identity" as const })),
    ...PAYMENT_ACCOUNT.map((w) => ({ words: w, name: w.join(" "), group: "payment" as const })),
  ];
  all.sort((a, b) => b.words.length - a.words.length);
  const index = new Map<string, Term[]>();
  const file = (word: string, term: Term): void => {
    const list = index.get(word);
    if (list) list.push(term);
    else index.set(word, [term]);
  };
  for (const term of all) {
    file(term.words[0]!, term);
    if (term.words.length === 1) file(term.words[0]! + "s", term);
  }
  return index;
})();

/** "a name for the new API token", "the length of your password": a modifier, then for/of, before the term. */
function isAboutPhrase(before: readonly string[]): boolean {
  const link = before.findIndex((w) => w === "for" || w === "of");
  return link > 0 && before.slice(0, link).some((w) => MODIFIERS_AFTER.has(w) || MODIFIERS_BEFORE.has(w));
}

/** Whether `term` is written at word `i` of `ws` (its last word may take a plural "s"). */
function termAt(ws: readonly string[], i: number, term: readonly string[]): boolean {
  const last = term.length - 1;
  for (let j = 1; j <= last; j++) {
    const w = ws[i + j];
    if (w !== term[j] && (j < last || w !== term[j] + "s")) return false;
  }
  return true;
}

/** The first credential term in `text` that is asked for rather than talked about, e.g. "api key". */
export function secretTerm(text: string, opts: { identity?: boolean } = {}): string | null {
  return termIn(words(text), opts);
}

/** `secretTerm` of a text already split into its `words`. */
export function termIn(ws: readonly string[], opts: { identity?: boolean } = {}): string | null {
  const payment = ws.includes("payment") || ws.includes("bank");
  if (ws.includes("card") && ws.some((w) => w.startsWith("expir") || w === "exp")) return "card expiry";
  for (let i = 0; i < ws.length; i++) {
    const candidates = TERMS_BY_FIRST_WORD.get(ws[i]!);
    if (candidates === undefined) continue;
    for (const { words: term, name, group } of candidates) {
      if ((group === "identity" && !opts.identity) || (group === "payment" && !payment) || !termAt(ws, i, term))
        continue;
      const end = i + term.length;
      const after = ws.slice(end, end + 2);
      const before = ws.slice(Math.max(0, i - 2), i);
      if (after.some((w) => MODIFIERS_AFTER.has(w)) || before.some((w) => MODIFIERS_BEFORE.has(w))) continue;
      if (isAboutPhrase(ws.slice(Math.max(0, i - 5), i))) continue;
      // "pin" is also a verb and a map marker: only "PIN", "PIN code", "PIN number" count.
      if (term.length === 1 && term[0] === "pin" && end < ws.length && ws[end] !== "code" && ws[end] !== "number")
        continue;
      return name;
    }
  }
  return null;
}

/** Whether prose asks for input ("enter", "provide", "your", …): descriptions and the message must, to name a secret. */
export const asksForInput = (text: string): boolean => ASK.test(text);

/** A credential term in prose that also asks for input (descriptions, the message). */
export function askedTerm(text: string, opts: { identity?: boolean } = {}): string | null {
  return asksForInput(text) ? secretTerm(text, opts) : null;
}

/** True when a field's own label says it is ordinary profile data. */
export const isProfileLabel = (text: string): boolean => isProfile(words(text));

/** `isProfileLabel` of a label already split into its `words`. */
export const isProfile = (ws: readonly string[]): boolean => ws.some((w) => PROFILE.has(w));

// ---- values ----

const PREFIXES: [RegExp, string][] = [
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/, "a Stripe secret key (sk_live_…)"],
  [/\bsk-[A-Za-z0-9_-]{20,}/, "an OpenAI-style secret key (sk-…)"],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, "a GitHub fine-grained token (github_pat_…)"],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/, "a GitHub token (ghp_…)"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, "a Slack token (xoxb-…)"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, "an AWS access key id (AKIA…)"],
  [/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/, "a PEM private key block"],
];

const ANY_PREFIX = new RegExp(PREFIXES.map(([re]) => re.source).join("|"));

function isJwt(s: string): boolean {
  if (!s.includes("eyJ")) return false;
  for (const m of s.matchAll(/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g)) {
    const head = m[0].split(".")[0] ?? "";
    try {
      // atob, not Buffer: the engine also runs in the extension's worker and panel.
      const b64 = head
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(head.length / 4) * 4, "=");
      const json: unknown = JSON.parse(atob(b64));
      if (typeof json === "object" && json !== null && "alg" in json) return true;
    } catch {
      // not a JWT header
    }
  }
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const CARD = /(?<![\d-])[2-6]\d(?:[ -]?\d){11,17}(?![\d-])/;

function hasCardNumber(s: string): boolean {
  // Most values hold no run of 13+ digits: one test, no match iterator.
  if (!CARD.test(s)) return false;
  for (const m of s.matchAll(new RegExp(CARD, "g"))) {
    const digits = m[0].replace(/[ -]/g, "");
    if (digits.length >= 13 && digits.length <= 19 && !/^(\d)\1+$/.test(digits) && luhn(digits)) return true;
  }
  return false;
}

/** What a string value looks like, e.g. "an OpenAI-style secret key (sk-…)", or null. */
export function secretValue(s: string, opts: { cards?: boolean } = {}): string | null {
  // One scan for all prefixes; only a hit needs the ordered list, to name the first kind that matches.
  if (ANY_PREFIX.test(s)) for (const [re, what] of PREFIXES) if (re.test(s)) return what;
  if (isJwt(s)) return "a JWT (eyJ…)";
  if (opts.cards !== false && hasCardNumber(s)) return "a payment card number (passes the Luhn check)";
  return null;
}
