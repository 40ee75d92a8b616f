// The panel's one door to the capture exporters (src/capture): JSONL, HAR, and redaction.
export { exportJsonl } from "../src/capture/jsonl.ts";
export { redactRecords } from "../src/capture/redact.ts";
export { exportHar } from "../src/capture/harExport.ts";
