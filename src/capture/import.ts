import type { CaptureImport } from "./har/import.ts";
import type { ImportOptions } from "./har/stream.ts";
import { importHar } from "./har/import.ts";
import { importJsonl } from "./jsonl.ts";

export type CaptureFormat = "har" | "jsonl";

/**
 * HAR or JSONL, from the text first and the file name second. A HAR is one JSON object whose first member is
 * `log` (Chrome, Firefox and Playwright all write it first); a JSONL capture starts with a record on its first
 * line. A `.har` name decides for a HAR whose `log` is not first; a truncated HAR is still recognised by its head.
 */
export function detectFormat(text: string, file: string): CaptureFormat {
  const head = text.slice(0, 4096).replace(/^\uFEFF/, "");
  if (/^\s*\{\s*"log"\s*:/.test(head)) return "har";
  if (/\.har$/i.test(file)) return "har";
  if (/\.(jsonl|ndjson)$/i.test(file)) return "jsonl";
  // A pretty-printed JSON object spans lines; a JSONL record never does.
  const firstLine = head.split("\n", 1)[0]?.trim() ?? "";
  if (/^\{\s*$/.test(firstLine) && /"log"\s*:\s*\{/.test(head)) return "har";
  return "jsonl";
}

export function importCapture(
  text: string,
  file: string,
  options: ImportOptions = {},
): CaptureImport & { format: CaptureFormat } {
  const format = detectFormat(text, file);
  return { format, ...(format === "har" ? importHar(text, file, options) : importJsonl(text, file, options)) };
}
