import { readFileSync } from "node:fs";
import { importJsonl } from "../../src/capture/jsonl.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { analyze } from "../../src/engine/index.ts";

/**
 * Captures for the panel's view tests, made from the demo's real SDK traffic (demo/demo-capture.jsonl) with
 * hostile or secret values planted in the JSON of chosen messages (re-serialized, so every message stays valid
 * JSON-RPC and the engine still correlates every flow).
 */
export const demo = importJsonl(readFileSync("demo/demo-capture.jsonl", "utf8"), "demo-capture.jsonl").records;

type Json = Record<string, unknown>;
const flows = analyze(demo).flows;
const flowOf = (target: string, revision: string) => flows.find((f) => f.target === target && f.revision === revision)!;

function edit(records: readonly CaptureRecord[], seq: number, change: (message: Json) => void): CaptureRecord[] {
  return records.map((r) => {
    if (r.seq !== seq || r.kind !== "message") return r;
    const message = JSON.parse(r.text) as Json;
    change(message);
    return { ...r, text: JSON.stringify(message) };
  });
}
/** Replaces every string equal to `from` anywhere in a record's message. */
function replaceStrings(records: readonly CaptureRecord[], from: string, to: string): CaptureRecord[] {
  const swap = (v: unknown): unknown =>
    typeof v === "string"
      ? v === from
        ? to
        : v
      : Array.isArray(v)
        ? v.map(swap)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
          : v;
  return records.map((r) =>
    r.kind === "message" && r.text.includes(JSON.stringify(from).slice(1, -1))
      ? { ...r, text: JSON.stringify(swap(JSON.parse(r.text))) }
      : r,
  );
}

/** Every way a captured value could try to become markup, a link or a lie. */
export const XSS = {
  message: `<img src=x onerror="window.__xss='message';alert(1)">Create your account`,
  title: `<script>window.__xss='title'</script>E\u202Email`,
  option: `<img src=x onerror=window.__xss='option'>Pro`,
  description: `<iframe srcdoc="<script>parent.__xss='description'</script>"></iframe>`,
  answer: `<a href="javascript:window.__xss='answer'">ada</a>\u202E@example.com`,
  url: `javascript:window.__xss='url'//\u202Ehttps://bank.example/login`,
  idnUrl: `https://xn--80ak6aa92e.com/\u2066login\u2069?next=<img src=x onerror=alert(1)>`,
  target: `confirm_action<img src=x onerror=window.__xss='target'>`,
} as const;

/** The demo capture with XSS payloads in messages, schema titles and options, answers, URLs and a tool name. */
export function xssCapture(): CaptureRecord[] {
  const register = flowOf("register_user", "2025-11-25");
  const signIn = flowOf("sign_in", "2025-11-25");
  const signIn2026 = flowOf("sign_in", "2026-07-28");
  let out = replaceStrings(demo, "Create your account", XSS.message);
  out = edit(out, register.elicitations[0]!.askRecord, (m) => {
    const props = ((m.params as Json).requestedSchema as Json).properties as Record<string, Json>;
    props.email!.title = XSS.title;
    props.email!.description = XSS.description;
    (props.plan!.oneOf as Json[])[1]!.title = XSS.option;
  });
  out = replaceStrings(out, "ada@example.com", XSS.answer);
  out = edit(out, signIn.elicitations[0]!.askRecord, (m) => void ((m.params as Json).url = XSS.url));
  const modernAsk = signIn2026.elicitations[0]!;
  out = edit(out, modernAsk.askRecord, (m) => {
    const entry = (((m.result as Json).inputRequests as Json)[modernAsk.key] as Json).params as Json;
    entry.url = XSS.idnUrl;
  });
  return replaceStrings(out, "confirm_action", XSS.target);
}

/** Secrets a redacted export must not contain. */
export const SECRETS = {
  password: "hunter2-DO-NOT-LEAK",
  urlToken: "tok-DO-NOT-LEAK-1234",
  apiKey: "sk_live_51HxYzAbCdEfGhIjKlMnOpQr",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLURPLU5PVC1MRUFL",
} as const;

/** The demo capture with a password field answered, a token in a URL-mode URL, an API key and a JWT in messages. */
export function secretCapture(): CaptureRecord[] {
  const register = flowOf("register_user", "2025-11-25");
  const signIn = flowOf("sign_in", "2025-11-25");
  const confirm = flowOf("confirm_action", "2025-11-25");
  const el = register.elicitations[0]!;
  let out = edit(demo, el.askRecord, (m) => {
    const schema = (m.params as Json).requestedSchema as Json;
    (schema.properties as Json).password = { type: "string", title: "Password" };
  });
  out = edit(out, el.answerRecord!, (m) => void (((m.result as Json).content as Json).password = SECRETS.password));
  out = edit(
    out,
    signIn.elicitations[0]!.askRecord,
    (m) => void ((m.params as Json).url = `https://idp.example/cb?access_token=${SECRETS.urlToken}&state=1`),
  );
  out = edit(
    out,
    confirm.rounds[0]!.requestRecord,
    (m) => void ((m.params as Json).arguments = { apiKey: SECRETS.apiKey }),
  );
  const result = confirm.rounds[0]!.responseRecord ?? confirm.records.at(-2)!;
  return edit(out, result, (m) => {
    if (m.result && typeof m.result === "object") (m.result as Json)._meta = { session: `Bearer ${SECRETS.jwt}` };
  });
}
