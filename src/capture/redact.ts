import { askedTerm, isProfileLabel, secretTerm, secretValue } from "../util/secrets.ts";
import { MAX_DEPTH, parseBounded } from "../util/depth.ts";
import type { CaptureRecord } from "./record.ts";

// Redaction for sharing a capture; what is replaced and why: docs/capture-format.md, "Export and redaction".

export interface RedactOptions {
  /**
   * Secret form field names known from elsewhere (answers travel in other records than their questions): the
   * panel redacts one record at a time and passes the fields its flow asked for.
   */
  secretFields?: Iterable<string>;
}

export const REDACTED = "[REDACTED]";

/** Headers that carry credentials. Records never keep them (pickHeaders); this catches a record built by hand. */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token", "x-amz-security-token"]);
/** Header values the engine correlates on: redacted to a numbered placeholder so distinct values stay distinct. */
const ID_HEADERS = new Set(["mcp-session-id", "last-event-id"]);
/**
 * JSON members the engine correlates on (JSON-RPC ids, MRTR `requestState`, URL-mode `elicitationId`, FrontMCP's
 * `elicitId`, progress tokens). A server that signs its requestState as a JWT would otherwise see every round of
 * every flow collapse onto one "[REDACTED]" state.
 */
const ID_MEMBERS = new Set(["id", "requestState", "elicitationId", "elicitId", "progressToken"]);

/** Query and fragment parameters that hold credentials, lower-cased without `-` and `_`. OAuth `state` is benign. */
const URL_SECRETS = new Set([
  "token", "accesstoken", "idtoken", "refreshtoken", "authtoken", "sessiontoken", "logintoken", "code", "sig", "signature",
  "xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogsignature", "xgoogcredential", "apikey", "password", "pass",
  "passwd", "pwd", "secret", "clientsecret", "session", "auth", "authorization", "jwt", "otp", "magic", "magiclink",
]);
/** `key=` alone is often a map or cache key; only a long value is taken for an API key. */
const LONG_KEY = 16;

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const PEM = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g;
/** Runs that can hold a key, a token or a JWT (dots inside only: a sentence's full stop stays); each is tested on its own with secrets.ts. */
const CANDIDATE = /[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*/g;
/** Digit runs that can hold a card number, separators included. */
const DIGITS = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;

const NOT_JSON: unique symbol = Symbol("not JSON");
const norm = (name: string): string => name.toLowerCase().replace(/[-_]/g, "");
const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
};

/**
 * A URL with its credentials replaced: the user info (`[REDACTED]@host`), credential parameters in the query or
 * fragment (`token=[REDACTED]`, name kept), and any parameter value or path segment that looks like a credential.
 * Scheme, host and the rest of the path stay, so the endpoint (origin + path) the engine groups by is unchanged.
 */
export function redactUrl(url: string): string {
  const start = url.search(/[?#]/);
  const head = start < 0 ? url : url.slice(0, start);
  const tail = start < 0 ? "" : url.slice(start);
  const withoutUser = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string) => `${scheme}${REDACTED}@`);
  const path = withoutUser.replace(/\/([^/]+)/g, (whole, segment: string) => (secretValue(decode(segment)) ? `/${REDACTED}` : whole));
  const params = tail.replace(/([?&#;])([^=&#?;\s]*)=([^&#;?\s]*)/g, (whole, sep: string, name: string, value: string) => {
    if (value === "" || value === REDACTED) return whole;
    const n = norm(decode(name));
    const secret = URL_SECRETS.has(n) || (n === "key" && value.length >= LONG_KEY) || secretValue(decode(value)) !== null;
    return secret ? `${sep}${name}=${REDACTED}` : whole;
  });
  const out = path + params;
  // A url member that is not a URL at all (a hand-made capture) can be a bare credential: its tokens are checked too.
  return secretValue(out) === null ? out : out.replace(CANDIDATE, (t) => (secretValue(t, { cards: false }) ? REDACTED : t));
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

/**
 * Redacted copies (the records passed in are not touched): credential headers, secret form fields (defaults and
 * answers), credential-looking values anywhere in message texts, and credentials in URLs. A message text that is
 * JSON keeps every byte but the replaced string literals, so the engine finds the same flows and, except for the
 * rules that read the replaced values, the same findings.
 */
export function redactRecords(records: readonly CaptureRecord[], options: RedactOptions = {}): CaptureRecord[] {
  const parsed = records.map((r) => (r.kind === "message" ? parseJson(r.text) : NOT_JSON));
  // Answers travel in other records than their questions: the secret field names of every form in the capture.
  const secretFields = new Set<string>(options.secretFields);
  for (const value of parsed) if (value !== NOT_JSON) collectSecretFields(value, secretFields);
  const placeholders = new Map<string, string>();
  const numbered = (value: string): string => {
    let p = placeholders.get(value);
    if (p === undefined) placeholders.set(value, (p = `[REDACTED:${placeholders.size + 1}]`));
    return p;
  };
  const redactId = (value: string): string => (redactText(value) === value ? value : numbered(value));

  return records.map((record, i) => {
    const out = { ...record };
    // The tap and the importers name exchanges themselves ("f12", "har:3"), but a file can say anything: numbered
    // like ids, so the exchanges stay apart.
    if (out.exchange !== undefined) out.exchange = redactId(out.exchange);
    if (out.url !== undefined) out.url = redactUrl(out.url);
    if (out.client !== undefined) out.client = redactUrl(out.client);
    if (out.kind === "end") {
      if (out.error !== undefined) out.error = redactText(out.error);
      return out;
    }
    if (out.kind === "page-request") {
      out.method = redactText(out.method);
      if (out.metadata) {
        const m = { ...out.metadata };
        if (m.resource !== undefined) m.resource = redactUrl(m.resource);
        if (m.issuer !== undefined) m.issuer = redactUrl(m.issuer);
        if (m.authorizationEndpoint !== undefined) m.authorizationEndpoint = redactUrl(m.authorizationEndpoint);
        if (m.authorizationServers !== undefined) m.authorizationServers = m.authorizationServers.map(redactUrl);
        out.metadata = m;
      }
      return out;
    }
    if (out.headers) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(out.headers as Record<string, unknown>)) {
        if (typeof value !== "string") continue;
        const n = name.toLowerCase();
        headers[name] = SECRET_HEADERS.has(n) ? REDACTED : ID_HEADERS.has(n) ? redactId(value) : redactText(value);
      }
      out.headers = headers;
    }
    if (out.kind !== "message") return out;
    // The upstream and the proxy of an enveloped or proxied message are URLs like any other (a token in a query).
    if (out.server !== undefined) out.server = redactUrl(out.server);
    if (out.via !== undefined) out.via = redactUrl(out.via);
    if (out.eventId !== undefined) out.eventId = redactId(out.eventId);
    if (out.event !== undefined) out.event = redactText(out.event);
    if (out.method !== undefined) out.method = redactText(out.method);
    const value = parsed[i];
    if (value === NOT_JSON) {
      out.text = redactText(out.text);
      return out;
    }
    const blank = secretPointers(value, secretFields);
    out.text = mapJsonStrings(out.text, (path, s) => {
      if (s !== "" && blank.size > 0 && isBlanked(path, blank)) return REDACTED;
      return ID_MEMBERS.has(path[path.length - 1] ?? "") ? redactId(s) : redactText(s);
    });
    return out;
  });
}

/**
 * A redacted copy of a parsed JSON value by the rules of redactRecords for a message (secret fields' defaults and
 * answers blanked, credentials in every other string replaced); the panel masks the values it shows with it.
 */
export function redactValue(value: unknown, secretFields: ReadonlySet<string> = secretFieldsOf(value)): unknown {
  const blank = secretPointers(value, secretFields);
  const walk = (node: unknown, at: string): unknown => {
    if (typeof node === "string") return node !== "" && blank.size > 0 && isBlanked(at, blank) ? REDACTED : redactText(node);
    if (Array.isArray(node)) return node.map((n, i) => walk(n, `${at}/${i}`));
    if (!isObj(node)) return node;
    const out: Obj = {};
    // defineProperty: a parsed "__proto__" member is data, not the copy's prototype.
    for (const [key, child] of Object.entries(node)) Object.defineProperty(out, key, { value: walk(child, `${at}/${escapeKey(key)}`), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return walk(value, "");
}

/** The names of the secret form fields that the forms anywhere in a parsed JSON value ask for. */
export function secretFieldsOf(value: unknown, into = new Set<string>()): Set<string> {
  collectSecretFields(value, into);
  return into;
}

// ---- secret form fields --------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const isSelect = (def: Obj): boolean => def.type === "array" || "enum" in def || "oneOf" in def;

/** The message parsed, cut at MAX_DEPTH so the recursive walks below stay within the stack (the text itself is
 * still redacted string by string at any depth, by mapJsonStrings). */
function parseJson(text: string): unknown {
  if (!/^\s*[[{"]/.test(text)) return NOT_JSON;
  try {
    return parseBounded(text).value;
  } catch {
    return NOT_JSON;
  }
}

/**
 * The form-secret-field heuristic of secrets.ts (as rules/form.ts applies it), identity numbers included in
 * every era: a free-text field that asks for a password, key, token, card or identity number.
 */
function isSecretField(key: string, def: unknown): boolean {
  if (!isObj(def)) return false;
  if (def.writeOnly === true || def.format === "password") return true;
  if (def.type === "number" || def.type === "integer" || def.type === "boolean" || isSelect(def)) return false;
  const title = typeof def.title === "string" ? def.title : "";
  const description = typeof def.description === "string" ? def.description : "";
  const identity = { identity: true };
  return (
    secretTerm(key, identity) !== null ||
    (title !== "" && secretTerm(title, identity) !== null) ||
    (description !== "" && !isProfileLabel(`${key} ${title}`) && askedTerm(description, identity) !== null)
  );
}

/** `requestedSchema`, or `schema` in FrontMCP's `_meta.elicitationPending`. */
function propertiesOf(node: Obj): [string, Obj] | undefined {
  for (const name of ["requestedSchema", "schema"]) {
    const schema = node[name];
    if (isObj(schema) && isObj(schema.properties)) return [name, schema.properties];
  }
  return undefined;
}

function collectSecretFields(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => collectSecretFields(n, names));
  if (!isObj(node)) return;
  const [, properties = {}] = propertiesOf(node) ?? [];
  for (const [key, def] of Object.entries(properties)) if (isSecretField(key, def)) names.add(key);
  for (const child of Object.values(node)) collectSecretFields(child, names);
}

/**
 * Pointers of the values to blank in one message: the defaults of secret fields in every form schema, and
 * the answers to them in every form `content` object — a 2025-xx ElicitResult (`result.content`), a 2026-07-28
 * `params.inputResponses.<key>.content`, FrontMCP's `sendElicitationResult` `arguments.content`. Tool results
 * carry `content` arrays, never objects, so they are not taken for answers.
 */
function secretPointers(message: unknown, secretFields: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!isObj(node)) return;
    const [schema, properties = {}] = propertiesOf(node) ?? [];
    for (const [key, def] of Object.entries(properties)) {
      if (isSecretField(key, def)) out.add(`${at}/${schema}/properties/${escapeKey(key)}/default`);
    }
    if (isObj(node.content)) {
      for (const key of Object.keys(node.content)) {
        if (secretFields.has(key) || secretTerm(key, { identity: true }) !== null) out.add(`${at}/content/${escapeKey(key)}`);
      }
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${escapeKey(key)}`);
  };
  walk(message, "");
  return out;
}

const escapeKey = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");
const pointerOf = (path: readonly string[]): string => path.map((k) => `/${escapeKey(k)}`).join("");
/** A multi-select default or answer is an array: its items are blanked with it. The pointers to blank lie no
 * deeper than MAX_DEPTH (secretPointers walks a cut value), so a string deeper down is looked up no further. */
function isBlanked(at: string | readonly string[], blank: ReadonlySet<string>): boolean {
  const pointer = typeof at === "string" ? at : pointerOf(at.length > MAX_DEPTH + 4 ? at.slice(0, MAX_DEPTH + 4) : at);
  if (blank.has(pointer)) return true;
  for (let cut = pointer.lastIndexOf("/"); cut > 0; cut = pointer.lastIndexOf("/", cut - 1)) {
    if (blank.has(pointer.slice(0, cut))) return true;
  }
  return false;
}

// ---- in-place rewrite --------------------------------------------------------------------------------

/**
 * Calls `map` with the path and value of every string value (not member names) of a valid JSON text and splices
 * the results in. Everything else — whitespace, member order, duplicate members, number spellings, the escapes
 * of strings left alone — is kept byte for byte.
 */
function mapJsonStrings(text: string, map: (path: readonly string[], value: string) => string): string {
  const path: string[] = [];
  /** Per open container: array index, or -1 for an object awaiting a member name, -2 for one awaiting a value. */
  const frames: number[] = [];
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
      const value = JSON.parse(text.slice(i, j + 1)) as string;
      if (frames[frames.length - 1] === -1) {
        path[path.length - 1] = value;
        frames[frames.length - 1] = -2;
      } else {
        const next = map(path, value);
        if (next !== value) {
          out += text.slice(copied, i) + JSON.stringify(next);
          copied = j + 1;
        }
      }
      i = j;
    } else if (c === 123 /* { */) {
      frames.push(-1);
      path.push("");
    } else if (c === 91 /* [ */) {
      frames.push(0);
      path.push("0");
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      frames.pop();
      path.pop();
    } else if (c === 44 /* , */) {
      const top = frames.length - 1;
      const frame = frames[top]!;
      if (frame < 0) frames[top] = -1;
      else path[top] = String((frames[top] = frame + 1));
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
