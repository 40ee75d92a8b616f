import type { Problem } from "../problem.ts";
import { createHarImport, type HarImportOptions, type ImportOptions } from "./stream.ts";
import type { CaptureRecord } from "../record.ts";
import { unreadableText } from "../textChecks.ts";

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as Chrome DevTools and Playwright write it, turned
 * into capture records: the streaming import (stream.ts) over one text, with every record collected. Only
 * entries that look like MCP make message records; the mapping is in docs/capture-format.md. Never throws: what
 * cannot be read is reported as a problem and the rest is still imported.
 */
export interface CaptureImport {
  records: CaptureRecord[];
  problems: Problem[];
}

export type { ImportOptions };

export function importHar(
  text: string,
  file: string,
  options: ImportOptions & Pick<HarImportOptions, "window" | "hold"> = {},
): CaptureImport {
  const refused = unreadableText(text, file);
  if (refused) return { records: [], problems: [refused] };
  const records: CaptureRecord[] = [];
  const importer = createHarImport(file, {
    ...options,
    onRecords(batch) {
      for (const r of batch) records.push(r);
    },
  });
  importer.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return { records, problems: importer.end().problems };
}
