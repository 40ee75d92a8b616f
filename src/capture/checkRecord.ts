// The importers' check of a capture record. Their problems quote zod's English messages (a JSONL line, a HAR's
// extra records, a record a HAR entry made), and zod/mini has none of its own: this module sets them once, for
// every schema of the process, since an error map given per parse costs more than the check (docs/benchmarks.md).
// Only the importers import it: the worker counts what fails (src/background/intake.ts) and never loads the messages.
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { CaptureRecord } from "./record.ts";

z.config(en());

/** CaptureRecord.safeParse, with English messages in the issues of a failure. */
export const checkRecord = (value: unknown) => CaptureRecord.safeParse(value);
