// What a tab may cost the worker, and how what it refuses is counted: records over the budget are dropped and
// counted, never lost silently (docs/extension.md "Budget").

export interface Limits {
  /** The tab's memory budget: bytes of records (`recordBytes`) one tab keeps; later ones are dropped and counted. */
  maxBytes: number;
  /** Largest record kept; a larger one is dropped and counted as too large. */
  maxRecordBytes: number;
}
/** 256 MB of records per tab (docs/extension.md "Budget"); one record at most 8 MB (the tap cuts texts at 1 MiB). */
export const DEFAULT_LIMITS: Limits = { maxBytes: 256 * 2 ** 20, maxRecordBytes: 8 * 2 ** 20 };

/** Bytes a record costs the worker, estimated: two per character of its strings (V8 and IndexedDB may need that), plus a fixed cost per record and per field. */
export function recordBytes(record: object): number {
  let bytes = 128;
  for (const value of Object.values(record)) {
    bytes += 16;
    if (typeof value === "string") bytes += 2 * value.length;
    else if (value !== null && typeof value === "object") bytes += recordBytes(value);
  }
  return bytes;
}

/** Records a refused envelope carried, as far as its text tells (1 when it is not even JSON). */
export function recordsIn(text: string): number {
  try {
    const data = JSON.parse(text) as { records?: unknown };
    return Array.isArray(data.records) && data.records.length > 0 ? data.records.length : 1;
  } catch {
    return 1;
  }
}
