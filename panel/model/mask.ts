import {
  REDACTED,
  redactRecords,
  redactText,
  redactUrl,
  redactValue,
  secretFieldsOf,
} from "../../src/capture/redact.ts";
import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Elicitation, Flow } from "../../src/engine/index.ts";
import type { RecordOf } from "./outcome.ts";

/**
 * A flow as the panel shows it by default: secret-looking form fields' answers and defaults, and credential-looking
 * values anywhere (keys, tokens, JWTs, card numbers, credentials in URLs), replaced by `[REDACTED]` — the export's
 * redaction (src/capture/redact.ts), applied to what the views read: the flow's server, via and target (lists,
 * lanes, story and tooltips alike), its questions, its records, the values the Rounds view quotes and its findings'
 * messages. The filter matches this too (search.ts). The engine saw the real values; only the screen is masked.
 */
export interface MaskedFlow {
  flow: Flow;
  /** The record as redactRecords exports it, with the secret fields this flow's forms ask for. */
  record: RecordOf;
  /** A value read from one of the flow's messages (Rounds quotes them). */
  value(value: unknown): unknown;
  /** A finding's message: the masked answers it may quote (validation messages do), and credentials, replaced. */
  text(message: string): string;
}

/** The secret field names the flow's form questions ask for (answers travel in other records than questions). */
function fieldsOf(flow: Flow): Set<string> {
  const fields = new Set<string>();
  for (const e of flow.elicitations) if (e.schema !== undefined) secretFieldsOf({ requestedSchema: e.schema }, fields);
  return fields;
}

interface Shown {
  message: unknown;
  requestedSchema: unknown;
  url: unknown;
  content: unknown;
}

/** Every string of `raw` that the mask replaced, where `masked` holds REDACTED. */
function collectHidden(raw: unknown, masked: unknown, out: Set<string>): void {
  if (typeof raw === "string") {
    if (masked === REDACTED && raw !== REDACTED) out.add(raw);
  } else if (Array.isArray(raw) && Array.isArray(masked)) raw.forEach((v, i) => collectHidden(v, masked[i], out));
  else if (raw !== null && typeof raw === "object" && masked !== null && typeof masked === "object") {
    for (const [k, v] of Object.entries(raw)) collectHidden(v, (masked as Record<string, unknown>)[k], out);
  }
}

/** Quoted values are cut at 40 characters in some messages (ruleKit/validate.ts): the cut form is hidden too. */
const CUT = 40;

export function maskFlow(flow: Flow, raw: RecordOf): MaskedFlow {
  const fields = fieldsOf(flow);
  const hiddenValues = new Set<string>();
  const elicitations = flow.elicitations.map((e): Elicitation => {
    const before: Shown = { message: e.message, requestedSchema: e.schema, url: e.url, content: e.content };
    const after = redactValue(before, fields) as Shown;
    collectHidden(before, after, hiddenValues);
    return { ...e, message: after.message, schema: after.requestedSchema, url: after.url, content: after.content };
  });
  const records = new Map<number, CaptureRecord | undefined>();
  // Longest first: a value that contains another is replaced whole.
  const secrets = [...hiddenValues].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
  return {
    flow: {
      ...flow,
      server: redactUrl(flow.server),
      ...(flow.via !== undefined && { via: redactUrl(flow.via) }),
      target: flow.target === null ? null : redactText(flow.target),
      elicitations,
    },
    record(seq) {
      if (records.has(seq)) return records.get(seq);
      const r = raw(seq);
      const masked = r && redactRecords([r], { secretFields: fields })[0];
      records.set(seq, masked);
      return masked;
    },
    value: (value) => redactValue(value, fields),
    text(message) {
      let out = message;
      for (const s of secrets) {
        out = out.split(s).join(REDACTED);
        if (s.length > CUT) out = out.split(s.slice(0, CUT)).join(REDACTED);
      }
      return redactText(out);
    },
  };
}
