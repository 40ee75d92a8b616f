import { toJson, toText } from "../report.ts";
import { toGithub } from "./github.ts";
import { toJunit } from "./junit.ts";
import { toSarif } from "./sarif.ts";
import type { FormatInput } from "./types.ts";

export const FORMATS = ["text", "json", "sarif", "junit", "github"] as const;
export type Format = (typeof FORMATS)[number];

/** The run in the format asked for (`--format`); text is coloured only when `color` says so. */
export function render(format: Format, input: FormatInput, color: boolean): string {
  switch (format) {
    case "text":
      return toText([...input.files], color);
    case "json":
      return JSON.stringify(toJson([...input.files]), null, 2);
    case "sarif":
      return JSON.stringify(toSarif(input), null, 2);
    case "junit":
      return toJunit(input);
    case "github":
      return toGithub(input);
  }
}
