import type { CaptureRecord } from "../../src/capture/record.ts";
import { harParts } from "../../src/capture/har/export.ts";
import { jsonlParts } from "../../src/capture/jsonl.ts";
import { redactRecords } from "../../src/capture/redact.ts";

export type ExportFormat = "jsonl" | "har";

/** Text gathered into one Blob of the file before the next is started (characters). */
const BLOB_CHARS = 4 * 2 ** 20;

/**
 * The capture as a file: redacted unless asked otherwise (authorization and cookie headers, secret-looking form
 * values, tokens in URLs: src/capture/redact.ts). Its text is made in parts (a record or an entry each) and
 * gathered into Blobs of a few MB as it is made, so the file is never one string, and the text held at once is
 * one Blob's worth: a capture of hundreds of MB exports as one of a few.
 */
export function exportCapture(
  records: readonly CaptureRecord[],
  format: ExportFormat,
  unredacted: boolean,
  base: string,
): { name: string; blob: Blob } {
  const stamp = new Date().toISOString().replace(/[:]/g, "-").replace(/\..*/, "");
  const name = `${base}-${stamp}${unredacted ? "-UNREDACTED" : ""}.${format === "har" ? "har" : "jsonl"}`;
  // The redacted copies are held by the parts alone: harParts lets them go once it has its own.
  const chosen = (): readonly CaptureRecord[] => (unredacted ? records : redactRecords(records));
  return format === "har"
    ? { name, blob: blobOf(harParts(chosen()), "application/json") }
    : { name, blob: blobOf(jsonlParts(chosen()), "application/x-ndjson") };
}

/** Text parts as one Blob, by way of a Blob per BLOB_CHARS of them. */
export function blobOf(parts: Iterable<string>, type: string): Blob {
  const blobs: Blob[] = [];
  let batch: string[] = [];
  let chars = 0;
  for (const part of parts) {
    batch.push(part);
    chars += part.length;
    if (chars < BLOB_CHARS) continue;
    blobs.push(new Blob(batch));
    batch = [];
    chars = 0;
  }
  if (batch.length > 0) blobs.push(new Blob(batch));
  return new Blob(blobs, { type });
}

/** Saves a Blob as a download: an object URL and an `<a download>` (nothing is uploaded or opened). */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
