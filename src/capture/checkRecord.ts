// The importers' check of a capture record. Their problems quote zod's English messages (a JSONL line, a HAR's
// extra records, a record a HAR entry made), and zod/mini has none of its own: this module sets them, for every
// schema of the process (zod's error map is global; one given per parse costs about 1.6× the CPU of checking a
// record, measured on 63,000). Only the importers import it: the worker counts what fails
// (src/background/intake.ts) and never loads the messages.
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { CaptureRecord } from "./record.ts";

z.config(en());

/** CaptureRecord.safeParse, with English messages in the issues of a failure. */
export const checkRecord = (value: unknown) => CaptureRecord.safeParse(value);
