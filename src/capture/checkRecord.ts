// The importers' check of a capture record. Their problems quote zod's English messages (a JSONL line, a HAR's
// extra records, a record a HAR entry made); zod/mini has no messages of its own. The worker only counts what fails
// (src/background/tabSession.ts), so it checks with CaptureRecord itself and never loads them.
import en from "zod/v4/locales/en.js";
import { CaptureRecord } from "./record.ts";

const english = en().localeError;

/** CaptureRecord.safeParse, with English messages in the issues of a failure. */
export const checkRecord = (value: unknown) => CaptureRecord.safeParse(value, { error: english });
