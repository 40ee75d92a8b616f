import type { Severity } from "../../engine/rules/types.ts";
import { placeOf, type FormatInput } from "./types.ts";

// GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub Actions"): one line per
// annotation, `::error file=…,line=…,title=…::message`. GitHub shows at most 10 error, 10 warning and 10 notice
// annotations of a step (and 50 per job), so the first 10 of each are written and a last line counts the rest.
const ANNOTATIONS_PER_LEVEL = 10;
/** Longer messages are cut: an annotation is a short note that points at the log and the SARIF for the rest. */
const MAX_MESSAGE = 1000;

const command = (s: Severity): "error" | "warning" | "notice" => (s === "info" ? "notice" : s);

/** The message part: `%`, CR and LF escaped as the toolkit's escapeData does. */
export const escapeData = (s: string): string => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
/** A property value: escapeData plus `:` and `,`, which would end the value (the toolkit's escapeProperty). */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** Control characters other than CR and LF (escaped above) could drive a terminal that shows the raw log. */
const printable = (s: string): string => s.replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, " ");

const cut = (s: string): string => (s.length > MAX_MESSAGE ? s.slice(0, MAX_MESSAGE - 1) + "…" : s);

/** The run as GitHub annotations: findings (and unreadable input) first, then one line of counts. */
export function toGithub({ files }: FormatInput): string {
  const shown: Record<"error" | "warning" | "notice", number> = { error: 0, warning: 0, notice: 0 };
  const total = { ...shown };
  const lines: string[] = [];
  const annotate = (
    level: "error" | "warning" | "notice",
    props: Record<string, string | number | undefined>,
    message: string,
  ): void => {
    total[level]++;
    if (shown[level] >= ANNOTATIONS_PER_LEVEL) return;
    shown[level]++;
    const list = Object.entries(props)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${escapeProperty(printable(String(v)))}`)
      .join(",");
    lines.push(`::${level}${list ? " " + list : ""}::${escapeData(printable(cut(message)))}`);
  };
  for (const file of files) {
    const path = file.file === "-" ? undefined : file.file;
    for (const p of file.problems)
      annotate("error", { file: path, line: p.line, title: "unreadable capture" }, p.message);
    for (const f of file.findings) {
      const place = placeOf(file, f.entry, f.record);
      const at =
        place.line === undefined
          ? `entry ${f.entry}${f.pointer ? " " + f.pointer : ""}: `
          : f.pointer
            ? `${f.pointer}: `
            : "";
      annotate(
        command(f.severity),
        { file: path, line: place.line, title: f.rule },
        `${at}${f.message}${f.flow ? ` (${f.flow})` : ""}`,
      );
    }
  }
  const hidden = (Object.keys(total) as (keyof typeof total)[])
    .filter((k) => total[k] > shown[k])
    .map((k) => `${total[k] - shown[k]} ${k}s`);
  lines.push(
    `mcp-elicit: ${total.error} errors, ${total.warning} warnings, ${total.notice} notices` +
      (hidden.length ? `; not annotated (GitHub shows 10 of each): ${hidden.join(", ")}` : ""),
  );
  return lines.join("\n");
}
