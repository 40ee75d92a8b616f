import { parseBounded } from "../util/depth.ts";
import type { CaptureRecord } from "./record.ts";
import { collectSecretFields, escapeKey, isBlanked, isObj, secretPointers, type Obj } from "./redactForms.ts";
import { REDACTED, redactText, redactUrl } from "./redactText.ts";

export { REDACTED, redactText, redactUrl };

// Redaction for sharing a capture; what is replaced and why: docs/capture-format.md, "Export and redaction".

export interface RedactOptions {
  /**
   * Secret form field names known from elsewhere (answers travel in other records than their questions): the
   * panel redacts one record at a time and passes the fields its flow asked for.
   */
  secretFields?: Iterable<string>;
}

/** Headers that carry credentials. Records never keep them (pickHeaders); this catches a record built by hand. */
const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-amz-security-token",
]);
/** Header values the engine correlates on: redacted to a numbered placeholder so distinct values stay distinct. */
const ID_HEADERS = new Set(["mcp-session-id", "last-event-id"]);
/**
 * JSON members the engine correlates on (JSON-RPC ids, MRTR `requestState`, URL-mode `elicitationId`, FrontMCP's
 * `elicitId`, progress tokens). A server that signs its requestState as a JWT would otherwise see every round of
 * every flow collapse onto one "[REDACTED]" state.
 */
const ID_MEMBERS = new Set(["id", "requestState", "elicitationId", "elicitId", "progressToken"]);

const NOT_JSON: unique symbol = Symbol("not JSON");
/** What redactRecords knows of a message text after its first pass: JSON with nothing to blank, or with forms. */
const PLAIN = 1;
const FORMS = 2;
const NO_POINTERS: ReadonlySet<string> = new Set();

/**
 * Redacted copies (the records passed in are not touched): credential headers, secret form fields (defaults and
 * answers), credential-looking values anywhere in message texts, and credentials in URLs. A message text that is
 * JSON keeps every byte but the replaced string literals, so the engine finds the same flows and, except for the
 * rules that read the replaced values, the same findings.
 */
export function redactRecords(records: readonly CaptureRecord[], options: RedactOptions = {}): CaptureRecord[] {
  // Answers travel in other records than their questions: the secret field names of every form in the capture.
  // Each message is parsed here and again below only if it holds a form or a `content` object (what
  // secretPointers blanks): a large capture's trees are never all held at once.
  const secretFields = new Set<string>(options.secretFields);
  const json = new Uint8Array(records.length);
  records.forEach((r, i) => {
    const value = r.kind === "message" ? parseJson(r.text) : NOT_JSON;
    if (value !== NOT_JSON) json[i] = collectSecretFields(value, secretFields) ? FORMS : PLAIN;
  });
  const placeholders = new Map<string, string>();
  const numbered = (value: string): string => {
    let p = placeholders.get(value);
    if (p === undefined) placeholders.set(value, (p = `[REDACTED:${placeholders.size + 1}]`));
    return p;
  };
  const redactId = (value: string): string => (redactText(value) === value ? value : numbered(value));
  // A session id is a bearer of the session on many servers: always replaced, by one placeholder per session, so
  // the flows of a session still correlate after import.
  const sessions = new Map<string, string>();
  const session = (value: string): string => {
    let p = sessions.get(value);
    if (p === undefined) sessions.set(value, (p = `session-${sessions.size + 1}`));
    return p;
  };
  // Record after record names the same few URLs, clients, methods and header values: each distinct one is redacted
  // once (message texts, which hardly repeat, are not remembered).
  const url = once(redactUrl);
  const short = once(redactText);

  return records.map((record, i) => {
    const out = { ...record };
    // The tap and the importers name exchanges themselves ("f12", "har:3"), but a file can say anything: numbered
    // like ids, so the exchanges stay apart.
    if (out.exchange !== undefined) out.exchange = redactId(out.exchange);
    if (out.url !== undefined) out.url = url(out.url);
    if (out.client !== undefined) out.client = url(out.client);
    if (out.kind === "end") {
      if (out.error !== undefined) out.error = redactText(out.error);
      return out;
    }
    if (out.kind === "page-request") {
      out.method = short(out.method);
      if (out.metadata) {
        const m = { ...out.metadata };
        if (m.resource !== undefined) m.resource = url(m.resource);
        if (m.issuer !== undefined) m.issuer = url(m.issuer);
        if (m.authorizationEndpoint !== undefined) m.authorizationEndpoint = url(m.authorizationEndpoint);
        if (m.authorizationServers !== undefined) m.authorizationServers = m.authorizationServers.map(url);
        out.metadata = m;
      }
      return out;
    }
    if (out.headers) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(out.headers as Record<string, unknown>)) {
        if (typeof value !== "string") continue;
        const n = name.toLowerCase();
        headers[name] = SECRET_HEADERS.has(n)
          ? REDACTED
          : n === "mcp-session-id"
            ? session(value)
            : ID_HEADERS.has(n)
              ? redactId(value)
              : short(value);
      }
      out.headers = headers;
    }
    if (out.kind !== "message") return out;
    // The upstream and the proxy of an enveloped or proxied message are URLs like any other (a token in a query).
    if (out.server !== undefined) out.server = url(out.server);
    if (out.via !== undefined) out.via = url(out.via);
    if (out.eventId !== undefined) out.eventId = redactId(out.eventId);
    if (out.event !== undefined) out.event = short(out.event);
    if (out.method !== undefined) out.method = short(out.method);
    if (json[i] === 0) {
      out.text = redactText(out.text);
      return out;
    }
    const blank = json[i] === FORMS ? secretPointers(parseJson(out.text), secretFields) : NO_POINTERS;
    out.text = mapJsonStrings(out.text, (path, s) => {
      if (s !== "" && blank.size > 0 && isBlanked(path, blank)) return REDACTED;
      return ID_MEMBERS.has(path[path.length - 1] ?? "") ? redactId(s) : redactText(s);
    });
    return out;
  });
}

/** `redact` remembered per distinct text, for one redactRecords call (it is a pure function of the text). */
function once(redact: (text: string) => string): (text: string) => string {
  const done = new Map<string, string>();
  return (text) => {
    let out = done.get(text);
    if (out === undefined) done.set(text, (out = redact(text)));
    return out;
  };
}

/**
 * A redacted copy of a parsed JSON value by the rules of redactRecords for a message (secret fields' defaults and
 * answers blanked, credentials in every other string replaced); the panel masks the values it shows with it.
 */
export function redactValue(value: unknown, secretFields: ReadonlySet<string> = secretFieldsOf(value)): unknown {
  const blank = secretPointers(value, secretFields);
  const walk = (node: unknown, at: string): unknown => {
    if (typeof node === "string")
      return node !== "" && blank.size > 0 && isBlanked(at, blank) ? REDACTED : redactText(node);
    if (Array.isArray(node)) return node.map((n, i) => walk(n, `${at}/${i}`));
    if (!isObj(node)) return node;
    const out: Obj = {};
    // defineProperty: a parsed "__proto__" member is data, not the copy's prototype.
    for (const [key, child] of Object.entries(node))
      Object.defineProperty(out, key, {
        value: walk(child, `${at}/${escapeKey(key)}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value, "");
}

/** The names of the secret form fields that the forms anywhere in a parsed JSON value ask for. */
export function secretFieldsOf(value: unknown, into = new Set<string>()): Set<string> {
  collectSecretFields(value, into);
  return into;
}

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
