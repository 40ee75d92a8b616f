import type { CaptureRecord } from "../../src/capture/record.ts";
import { exportHar } from "../../src/capture/harExport.ts";
import { exportJsonl } from "../../src/capture/jsonl.ts";
import { redactRecords } from "../../src/capture/redact.ts";

export type ExportFormat = "jsonl" | "har";

/**
 * The capture as a file: redacted unless asked otherwise (authorization and cookie headers, secret-looking form
 * values, tokens in URLs: src/capture/redact.ts).
 */
export function exportCapture(records: readonly CaptureRecord[], format: ExportFormat, unredacted: boolean, base: string): { name: string; text: string; type: string } {
  const chosen = unredacted ? records : redactRecords(records);
  const stamp = new Date().toISOString().replace(/[:]/g, "-").replace(/\..*/, "");
  const name = `${base}-${stamp}${unredacted ? "-UNREDACTED" : ""}.${format === "har" ? "har" : "jsonl"}`;
  return format === "har" ? { name, text: exportHar(chosen), type: "application/json" } : { name, text: exportJsonl(chosen), type: "application/x-ndjson" };
}

/** Saves text as a download: a Blob, an object URL and an `<a download>` (nothing is uploaded or opened). */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
