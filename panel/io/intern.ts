import type { CaptureRecord, MessageRecord } from "../../src/capture/record.ts";

/**
 * One string (and one headers object) per distinct value across an imported file's records: every record comes
 * from the import worker as a fresh copy of its URL, client, exchange and header set, and a large capture repeats
 * them hundreds of thousands of times.
 */
export function createInterner(): (record: CaptureRecord) => void {
  const strings = new Map<string, string>();
  const headers = new Map<string, NonNullable<MessageRecord["headers"]>>();
  const one = (s: string | undefined): string | undefined => {
    if (s === undefined) return s;
    const known = strings.get(s);
    if (known !== undefined) return known;
    strings.set(s, s);
    return s;
  };
  return (record) => {
    // The enum fields keep their literal types: `one` returns the very same value, only another copy of it.
    const r = record as {
      kind: string;
      transport: string;
      url?: string | undefined;
      client?: string | undefined;
      exchange?: string | undefined;
    };
    r.kind = one(r.kind)!;
    r.transport = one(r.transport)!;
    r.url = one(r.url);
    r.client = one(r.client);
    r.exchange = one(r.exchange);
    if (record.kind === "message") {
      const m = record as { direction: string; stream: string; method?: string | undefined };
      m.direction = one(m.direction)!;
      m.stream = one(m.stream)!;
      m.method = one(m.method);
    }
    if ((record.kind === "message" || record.kind === "response") && record.headers) {
      const key = JSON.stringify(record.headers);
      const known = headers.get(key);
      if (known) record.headers = known;
      else headers.set(key, record.headers);
    }
  };
}
